import { runAsOrganization } from '../../db/scoped';
import { systemDb } from '../../db/system';
import { Hono, type Context } from 'hono';
import type { AppDeps, AppEnv } from '../../http/context';
import { twilioForm, twilioSignatureAccepted } from '../../http/twilio-webhook';
import { SIMULATION_MODES, TWIML_PROLOG, twimlSay, VoiceProviderError, type SimulationMode } from '../../integrations/voice/port';
import { findCandidateByPhone, insertContactEvents } from '../candidates/service';
import { systemResolveInboundAgent } from '../phone-numbers/service';
import { scriptOf } from '../voice-agents/service';
import { insertInboundCall } from './inbound-call';
import { findCall, findCallByTwilioSid, updateCall } from './queries';
import { offeredVisitSlots } from './scheduling';
import { simulatedFacts, VOICE_AGENT_ACTOR } from './service';

/**
 * POST /api/inbound/: Twilio's voice webhook for a call to one of our numbers. Signed like the SMS webhooks;
 * the number's owner in the phone-number registry, then that organization's active agent for it, answers: the call is recorded (inbound, the caller matched to a
 * candidate by phone) and the voice port joins the caller to the agent (Vapi's TwiML, or the simulator's).
 * Every answer is TwiML; an internal error is a 500 whose TwiML apologises and hangs up.
 */

const E164 = /^\+[1-9]\d{7,14}$/;

const twiml = (c: Context<AppEnv>, verbs: string, status: 200 | 403 | 500 = 200) =>
  c.body(`${TWIML_PROLOG}<Response>${verbs}</Response>`, status, { 'content-type': 'text/xml; charset=utf-8' });
const rawTwiml = (c: Context<AppEnv>, document: string) => c.body(document, 200, { 'content-type': 'text/xml; charset=utf-8' });

const NOT_IN_SERVICE = `${twimlSay('The number you have called is not in service. Goodbye.', 'en')}<Hangup/>`;
const SORRY = `${twimlSay('We are sorry, we cannot take your call right now. Please try again later. Goodbye.', 'en')}<Hangup/>`;

/** The simulator's caller behaves as their record says (customFields.simulate), else answers. */
function simulationOf(customFields: Record<string, unknown> | null | undefined): SimulationMode {
  const wanted = customFields?.simulate;
  return typeof wanted === 'string' && (SIMULATION_MODES as readonly string[]).includes(wanted) ? (wanted as SimulationMode) : 'answer';
}

/** Records the inbound call and asks the voice port to answer it; null when no active agent owns the number. */
async function answerInboundCall(deps: AppDeps, params: Record<string, string>): Promise<string | null> {
  const called = (params.To ?? '').trim();
  const twilioCallSid = (params.CallSid ?? '').trim();
  if (!E164.test(called) || !twilioCallSid) return null;
  // Withheld numbers arrive as "anonymous" or other non-E.164 text: an unknown caller.
  const caller = E164.test((params.From ?? '').trim()) ? params.From.trim() : null;
  // System path (no scope yet): the registry's owner of the number decides the tenant, then its active agent.
  const agent = (await systemResolveInboundAgent(systemDb(deps.db), called))?.agent;
  if (!agent || (agent.type === 'PRESCREEN' && !agent.prescreenFormId)) return null;

  const planned = await runAsOrganization(deps.db, agent.organizationId, async (tx) => {
    // Twilio redelivers a webhook it got no answer to: the call is answered again the same way, never twice.
    const earlier = await findCallByTwilioSid(tx, agent.organizationId, twilioCallSid);
    if (earlier)
      return { kind: 'replay' as const, twiml: typeof earlier.structuredData.inboundTwiml === 'string' ? earlier.structuredData.inboundTwiml : null };
    const person = caller ? await findCandidateByPhone(tx, agent.organizationId, caller) : undefined;
    const language: 'en' | 'es' = agent.languages.includes('es') && person?.preferredLanguage === 'es' ? 'es' : 'en';
    // Slots are only offered to a known candidate: a visit is booked for their approved prescreen.
    const offeredSlots = agent.type === 'SITE_VISIT_SCHEDULING' ? (person ? await offeredVisitSlots(tx, agent, new Date()) : []) : undefined;
    const row = await insertInboundCall(
      tx,
      agent,
      {
        candidateId: person?.id ?? null,
        provider: deps.voice.provider,
        toPhone: called,
        fromPhone: caller,
        language,
        structuredData: { twilioCallSid, ...(offeredSlots ? { offeredSlots } : {}) },
      },
      { type: agent.type, provider: deps.voice.provider, via: 'twilio' },
    );
    const kind = agent.type === 'PRESCREEN' ? 'prescreen' : 'scheduling';
    if (person) {
      await insertContactEvents(tx, [
        {
          organizationId: row.organizationId,
          candidateId: person.id,
          kind: 'call',
          summary: `Inbound call answered (${kind})`,
          details: { callId: row.id, type: row.type, provider: row.provider, direction: 'inbound' },
          referenceId: row.id,
          actorUserId: null,
          actorLabel: VOICE_AGENT_ACTOR.label,
        },
      ]);
    }
    return {
      kind: 'new' as const,
      row,
      person,
      language,
      offeredSlots,
      questions: agent.type === 'PRESCREEN' ? await scriptOf(tx, agent.prescreenFormId) : [],
      facts: person && deps.voice.provider === 'simulator' ? await simulatedFacts(tx, person.id) : undefined,
    };
  });

  if (planned.kind === 'replay') {
    if (planned.twiml === null) throw new Error('The first delivery of this call is still being answered');
    return planned.twiml;
  }
  const { row, person } = planned;
  try {
    const answer = await deps.voice.answerInbound({
      callId: row.id,
      organizationId: row.organizationId,
      twilioCallSid,
      caller,
      calledNumber: called,
      language: planned.language,
      assistantId: agent.providerAssistantId,
      firstMessage: agent.firstMessage,
      voicemailMessage: agent.voicemailMessage,
      questions: planned.questions,
      person: person ? { dateOfBirth: person.dateOfBirth, sex: person.sex, customFields: person.customFields ?? {}, facts: planned.facts } : null,
      simulate: simulationOf(person?.customFields),
      offeredSlots: planned.offeredSlots,
    });
    // Server messages may already have set it (they find the call by metadata.callId): only the id changes.
    // The answer is kept so that a redelivery gets the same TwiML.
    await runAsOrganization(deps.db, row.organizationId, async (tx) => {
      const current = await findCall(tx, row.id, true);
      await updateCall(tx, row.id, {
        providerCallId: answer.providerCallId,
        structuredData: { ...(current?.structuredData ?? {}), inboundTwiml: answer.twiml },
      });
    });
    return answer.twiml;
  } catch (error) {
    const code = error instanceof VoiceProviderError ? error.code : 'error';
    await runAsOrganization(deps.db, row.organizationId, async (tx) => {
      const current = await findCall(tx, row.id, true);
      await updateCall(tx, row.id, {
        status: 'failed',
        outcome: 'failed',
        endedAt: new Date(),
        structuredData: { ...(current?.structuredData ?? {}), error: code },
      });
    });
    throw error;
  }
}

export const twilioVoiceRoutes = new Hono<AppEnv>().post('/', async (c) => {
  const deps = c.get('deps');
  try {
    const params = await twilioForm(c);
    // Not from Twilio: refused, and the call (if any) rejected without answering.
    if (!twilioSignatureAccepted(c, params)) return twiml(c, '<Reject/>', 403);
    const answer = await answerInboundCall(deps, params);
    return answer === null ? twiml(c, NOT_IN_SERVICE) : rawTwiml(c, answer);
  } catch (error) {
    deps.logger.error({ errorName: (error as Error)?.name, code: error instanceof VoiceProviderError ? error.code : undefined }, 'inbound call not answered');
    return twiml(c, SORRY, 500);
  }
});
