import { createHash } from 'node:crypto';
import { z } from 'zod';
import { systemResolveInboundAgent } from '../phone-numbers/service';
import { runAsOrganization, type Transaction } from '../../db/scoped';
import { systemDb } from '../../db/system';
import type { AppDeps } from '../../http/context';
import { queueCallbackJobs, settleCallbackAfterCall, findOpenCallback } from '../callbacks/service';
import { confirmBooking } from '../prescreen/bookings';
import { errorBody } from '../../http/errors';
import { recordAudit, rowChange } from '../../audit';
import { findCandidateByPhone, insertContactEvents, trialIdsByCandidate } from '../candidates/service';
import type { VoiceDeps } from '../voice-agents/service';
import { insertInboundCall } from './inbound-call';
import { countCallEventsOfType, findCall, findCallByProviderId, insertCallEventOnce, updateCall, type CallRow } from './queries';
import { bookVisitFromCall } from './scheduling';
import { applyMissedCallRule, recordCallPrescreen } from './service';
import { funnelSignals } from '../../funnel-signals';
import { isCallbackTool } from '../callbacks/tools';
import { isAgentTool, runAgentTool, ToolError, toolArguments } from './tools';
import { recordActivity } from '../../activity';
import type { AppConfig } from '../../config';
import { callEndedActivity } from './activity';
import { ratingFrom, recordSatisfaction } from '../satisfaction/service';
import { MISSED_OUTCOMES } from '../../../contract/voice';
import { callEndedSummary } from '../../../contract/words';

/**
 * POST /api/inbound/vapi: Vapi's server messages ({ message: { type, call, ... } }), and the simulator's
 * (same shapes, same code). Authenticated by the shared secret; every message is stored raw once per call
 * (key: sha256 of the raw body), so a redelivery answers 200 and changes nothing.
 */

const asRecord = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const str = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
const num = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value)
    ? value
    : typeof value === 'string' && value.trim() && Number.isFinite(Number(value))
      ? Number(value)
      : undefined;
const date = (value: unknown) => {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? undefined : parsed;
};

const ToolCallSchema = z.object({ id: z.string().min(1), function: z.object({ name: z.string().min(1), arguments: z.unknown().optional() }) });
const CallRefSchema = z.object({ id: z.string().optional(), metadata: z.record(z.string(), z.unknown()).optional() }).passthrough();
const MessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('status-update'), status: z.string().min(1), endedReason: z.string().optional(), call: CallRefSchema.optional() }).passthrough(),
  z
    .object({
      type: z.literal('transcript'),
      role: z.string().min(1),
      transcriptType: z.string().optional(),
      transcript: z.string(),
      call: CallRefSchema.optional(),
    })
    .passthrough(),
  z.object({ type: z.literal('tool-calls'), toolCallList: z.array(ToolCallSchema), call: CallRefSchema.optional() }).passthrough(),
  z.object({ type: z.literal('end-of-call-report'), endedReason: z.string().optional(), call: CallRefSchema.optional() }).passthrough(),
  z.object({ type: z.literal('assistant-request'), call: CallRefSchema.optional() }).passthrough(),
]);
const OtherMessageSchema = z.object({ type: z.string().min(1), call: CallRefSchema.optional() }).passthrough();
type VapiMessage = z.infer<typeof MessageSchema>;

export interface WebhookAnswer {
  status: number;
  body: unknown;
}

/** The webhook needs the job queue and SMS too: a finished call may schedule a callback or book a visit. */
export type WebhookDeps = VoiceDeps & Pick<AppDeps, 'jobs' | 'sms'>;

const bad = (message: string): WebhookAnswer => ({ status: 400, body: errorBody(400, message) });

const STATUS_MAP: Record<string, CallRow['status']> = {
  queued: 'queued',
  scheduled: 'queued',
  ringing: 'ringing',
  'in-progress': 'in_progress',
  forwarding: 'in_progress',
  ended: 'ended',
};
const RANK: Record<CallRow['status'], number> = { queued: 0, ringing: 1, in_progress: 2, ended: 3, failed: 3, cancelled: 3 };

/** How a call ended, from Vapi's endedReason. A customer hanging up after the prescreen was completed counts as completed. */
export function outcomeFor(endedReason: string, prescreenComplete = false): NonNullable<CallRow['outcome']> {
  const reason = endedReason.toLowerCase();
  if (reason.includes('did-not-answer') || reason.includes('no-answer')) return 'no_answer';
  if (reason.includes('busy')) return 'busy';
  if (reason.includes('voicemail')) return 'voicemail';
  if (reason === 'customer-ended-call' || reason.includes('silence-timed-out')) return prescreenComplete ? 'completed' : 'hung_up';
  if (/error|failed|fault|unavailable|^pipeline-|^call\.start/.test(reason)) return 'failed';
  return 'completed';
}

/** Our call for a message: by the provider's call id, else by our id in the call's metadata. */
async function locateCall(deps: VoiceDeps, message: VapiMessage | z.infer<typeof OtherMessageSchema>): Promise<CallRow | undefined> {
  const providerCallId = str(message.call?.id);
  if (providerCallId) {
    const row = await findCallByProviderId(systemDb(deps.db), deps.voice.provider, providerCallId);
    if (row) return row;
  }
  const ours = str(message.call?.metadata?.callId) ?? str(asRecord(asRecord(message.assistant).metadata).callId);
  if (!ours) return undefined;
  const row = await findCall(systemDb(deps.db), ours);
  if (!row || row.provider !== deps.voice.provider) return undefined;
  if (providerCallId && row.providerCallId && row.providerCallId !== providerCallId) return undefined;
  return row;
}

function transcriptOf(message: Record<string, unknown>, current: CallRow['transcript']): CallRow['transcript'] | undefined {
  const artifact = asRecord(message.artifact);
  const messages = Array.isArray(artifact.messages) ? artifact.messages : Array.isArray(message.messages) ? message.messages : [];
  const turns = messages
    .map(asRecord)
    .filter((item) => ['bot', 'assistant', 'user'].includes(String(item.role)) && typeof item.message === 'string')
    .map((item) => ({
      role: item.role === 'user' ? 'user' : 'assistant',
      text: String(item.message),
      ...(num(item.secondsFromStart) !== undefined ? { at: `${num(item.secondsFromStart)}s` } : {}),
    }));
  if (turns.length) return turns;
  const textual = str(artifact.transcript) ?? str(message.transcript);
  if (!textual || current.length) return undefined;
  return textual
    .split('\n')
    .map((line) => /^(AI|Assistant|Bot|User|Customer):\s*(.*)$/i.exec(line.trim()))
    .filter((match): match is RegExpExecArray => Boolean(match?.[2]))
    .map((match) => ({ role: /^(user|customer)$/i.test(match[1]) ? 'user' : 'assistant', text: match[2] }));
}

async function finishCall(tx: Transaction, row: CallRow, message: Record<string, unknown>, rates: AppConfig['rates']): Promise<CallRow> {
  const exitStatus = String(row.structuredData.exitStatus ?? '').toLowerCase();
  let outcome = outcomeFor(str(message.endedReason) ?? '', row.structuredData.prescreenComplete === true);
  if (['declined', 'not_interested', 'do_not_call'].includes(exitStatus) && (outcome === 'completed' || outcome === 'hung_up')) outcome = 'declined';
  const startedAt = date(message.startedAt) ?? row.startedAt;
  const endedAt = date(message.endedAt) ?? new Date();
  const duration = num(message.durationSeconds) ?? (startedAt ? Math.max(0, (endedAt.getTime() - startedAt.getTime()) / 1000) : undefined);
  const artifact = asRecord(message.artifact);
  const analysis = asRecord(asRecord(message.analysis).structuredData);
  const cost = num(message.cost);
  let updated = await updateCall(tx, row.id, {
    status: outcome === 'failed' ? 'failed' : 'ended',
    outcome,
    startedAt: startedAt ?? null,
    endedAt,
    durationSeconds: duration === undefined ? null : Math.round(duration),
    costUsd: cost === undefined ? row.costUsd : cost.toFixed(4),
    recordingUrl: str(artifact.recordingUrl) ?? str(asRecord(asRecord(artifact.recording).mono).combinedUrl) ?? str(message.recordingUrl) ?? row.recordingUrl,
    transcript: transcriptOf(message, row.transcript) ?? row.transcript,
    structuredData: Object.keys(analysis).length ? { ...row.structuredData, analysis } : row.structuredData,
  });
  await recordActivity(tx, callEndedActivity(updated, rates));
  // The last question of a prescreen call: the agent records the person's 1-5 rating with set-call-metadata.
  const rating = ratingFrom(asRecord(updated.structuredData.metadata).satisfaction ?? analysis.satisfaction);
  if (rating !== null) {
    await recordSatisfaction(tx, {
      organizationId: updated.organizationId,
      channel: 'call',
      referenceId: updated.id,
      rating,
      candidateId: updated.candidateId,
      agentId: updated.voiceAgentId,
    });
  }
  if (updated.candidateId) {
    await insertContactEvents(tx, [
      {
        organizationId: updated.organizationId,
        candidateId: updated.candidateId,
        kind: 'call',
        summary: `${callEndedSummary(outcome)} (${updated.type === 'PRESCREEN' ? 'prescreen' : 'scheduling'})`,
        details: { callId: updated.id, outcome, durationSeconds: updated.durationSeconds, direction: updated.direction },
        referenceId: updated.id,
        actorUserId: null,
        actorLabel: 'Voice agent',
      },
    ]);
  }
  await recordAudit(tx, rowChange(null, updated, 'call.end', 'call', { outcome, durationSeconds: updated.durationSeconds, provider: updated.provider }));
  if (updated.type === 'PRESCREEN' && (outcome === 'completed' || outcome === 'hung_up')) {
    const recorded = await recordCallPrescreen(tx, updated);
    if (recorded) updated = recorded.call;
  }
  if (updated.type === 'SITE_VISIT_SCHEDULING' && outcome === 'completed') updated = await bookVisitFromCall(tx, updated);
  await applyMissedCallRule(tx, updated);
  // A callback's call settles the callback; a missed call may earn one (features/callbacks).
  await settleCallbackAfterCall(tx, updated);
  // A missed call that left no callback behind: sequences listening for it take the person on.
  if (updated.candidateId && updated.outcome && MISSED_OUTCOMES.includes(updated.outcome) && !(await findOpenCallback(tx, updated.candidateId))) {
    await funnelSignals.triggered(
      tx,
      updated.organizationId,
      'missed_call_no_callback',
      [updated.candidateId],
      (await trialIdsByCandidate(tx, [updated.candidateId])).get(updated.candidateId) ?? [],
    );
  }
  return updated;
}

/** An inbound call: the called number's owner (phone-number registry) and its active agent for it answer; the caller is matched to a candidate by phone. */
async function assistantRequest(deps: VoiceDeps, message: Record<string, unknown>, raw: string): Promise<WebhookAnswer> {
  const call = asRecord(message.call);
  const called = str(asRecord(message.phoneNumber).number) ?? str(asRecord(call.phoneNumber).number);
  const caller = str(asRecord(message.customer).number) ?? str(asRecord(call.customer).number);
  const providerCallId = str(call.id);
  if (!called || !providerCallId) return { status: 200, body: { error: 'This number is not in service.' } };
  // System path: the registry's owner of the number, then that organization's active agent for it.
  const agent = (await systemResolveInboundAgent(systemDb(deps.db), called))?.agent;
  if (!agent) return { status: 200, body: { error: 'This number is not in service.' } };
  await runAsOrganization(deps.db, agent.organizationId, async (tx) => {
    let row = await findCallByProviderId(tx, deps.voice.provider, providerCallId);
    if (!row) {
      const person = caller ? await findCandidateByPhone(tx, agent.organizationId, caller) : undefined;
      row = await insertInboundCall(tx, agent, {
        candidateId: person?.id ?? null,
        provider: deps.voice.provider,
        providerCallId,
        toPhone: called,
        fromPhone: caller ?? null,
        language: person?.preferredLanguage === 'es' ? 'es' : 'en',
      });
    }
    await insertCallEventOnce(tx, {
      organizationId: row.organizationId,
      callId: row.id,
      type: 'assistant-request',
      dedupeKey: createHash('sha256').update(raw).digest('hex'),
      payload: JSON.parse(raw),
    });
  });
  if (agent.providerAssistantId) return { status: 200, body: { assistantId: agent.providerAssistantId } };
  return { status: 200, body: { assistant: { name: agent.name, firstMessage: agent.firstMessage.en, voicemailMessage: agent.voicemailMessage.en } } };
}

/** Handles one raw server message (the webhook, the tools endpoint and the simulator all come here). */
export async function handleVapiMessage(deps: WebhookDeps, raw: string): Promise<WebhookAnswer> {
  const answer = await applyVapiMessage(deps, raw);
  // After the commit: a callback the call (or a tool) created or moved gets its job, and a visit the call
  // booked gets its confirmation SMS (through the SMS port and its consent rules, as staff bookings do).
  if (answer.callbackOrganizationId) await queueCallbackJobs(deps, answer.callbackOrganizationId);
  if (answer.bookingId) await confirmBooking(deps, answer.bookingId);
  return { status: answer.status, body: answer.body };
}

async function applyVapiMessage(deps: WebhookDeps, raw: string): Promise<WebhookAnswer & { callbackOrganizationId?: string; bookingId?: string }> {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return bad('The body is not JSON');
  }
  const envelope = asRecord(body);
  if (!envelope.message || typeof envelope.message !== 'object') return bad('message: Required (Vapi server message)');
  const known = MessageSchema.safeParse(envelope.message);
  const other = known.success ? undefined : OtherMessageSchema.safeParse(envelope.message);
  if (
    !known.success &&
    (!other?.success || ['status-update', 'transcript', 'tool-calls', 'end-of-call-report', 'assistant-request'].includes(other.data.type))
  ) {
    const issue = known.error.issues[0];
    return bad(`message.${issue?.path.join('.') || 'type'}: ${issue?.message ?? 'Invalid'}`);
  }
  const message = (known.success ? known.data : other!.data!) as VapiMessage;
  if (message.type === 'assistant-request') return assistantRequest(deps, envelope.message as Record<string, unknown>, raw);
  if (message.type === 'status-update' && !STATUS_MAP[message.status]) return bad(`message.status: Unknown status ${message.status}`);

  const located = await locateCall(deps, message);
  if (!located) {
    if (message.type === 'tool-calls')
      return { status: 200, body: { results: message.toolCallList.map((item) => ({ toolCallId: item.id, result: 'Error: unknown call' })) } };
    return { status: 200, body: { ok: true, ignored: 'unknown call' } };
  }
  const dedupeKey = createHash('sha256').update(raw).digest('hex');
  const providerCallId = str(message.call?.id);

  return runAsOrganization(deps.db, located.organizationId, async (tx) => {
    let row = (await findCall(tx, located.id, true))!;
    const stored = await insertCallEventOnce(tx, {
      organizationId: row.organizationId,
      callId: row.id,
      type: message.type,
      dedupeKey,
      payload: body as Record<string, unknown>,
    });
    if (!stored) {
      // A redelivery: nothing changes; tool calls answer the results given the first time.
      if (message.type === 'tool-calls') {
        const results = asRecord(row.structuredData.toolResults);
        return { status: 200, body: { results: message.toolCallList.map((item) => ({ toolCallId: item.id, result: results[item.id] ?? 'Already handled' })) } };
      }
      return { status: 200, body: { ok: true, duplicate: true } };
    }
    if (providerCallId && !row.providerCallId) row = await updateCall(tx, row.id, { providerCallId });
    const final = RANK[row.status] === 3;

    switch (message.type) {
      case 'status-update': {
        const status = STATUS_MAP[message.status];
        if (final || RANK[status] <= RANK[row.status]) break;
        const at = date(asRecord(envelope.message).timestamp) ?? new Date();
        row = await updateCall(tx, row.id, {
          status,
          ...(status === 'in_progress' && !row.startedAt ? { startedAt: at } : {}),
          ...(status === 'ended' && message.endedReason ? { outcome: outcomeFor(message.endedReason, row.structuredData.prescreenComplete === true) } : {}),
        });
        break;
      }
      case 'transcript': {
        if (message.transcriptType === 'partial' || !message.transcript.trim()) break;
        const role = message.role === 'user' ? 'user' : 'assistant';
        row = await updateCall(tx, row.id, { transcript: [...row.transcript, { role, text: message.transcript, at: new Date().toISOString() }] });
        break;
      }
      case 'tool-calls': {
        const results: Array<{ toolCallId: string; result: string }> = [];
        for (const item of message.toolCallList) {
          let result: string;
          if (!isAgentTool(item.function.name)) result = `Error: unknown tool ${item.function.name}`;
          else {
            try {
              const outcome = await runAgentTool(
                tx,
                item.function.name,
                'TOOL',
                toolArguments(item.function.arguments),
                row,
                row.candidateId,
                row.organizationId,
              );
              row = outcome.call ?? row;
              result = outcome.result;
            } catch (error) {
              if (!(error instanceof ToolError)) throw error;
              result = `Error: ${error.message}`;
            }
          }
          results.push({ toolCallId: item.id, result });
        }
        row = await updateCall(tx, row.id, {
          structuredData: {
            ...row.structuredData,
            toolResults: { ...asRecord(row.structuredData.toolResults), ...Object.fromEntries(results.map((item) => [item.toolCallId, item.result])) },
          },
        });
        // Only the callback tools can leave a callback waiting for its job.
        const touchedCallbacks = message.toolCallList.some((item) => isCallbackTool(item.function.name));
        return { status: 200, body: { results }, ...(touchedCallbacks ? { callbackOrganizationId: row.organizationId } : {}) };
      }
      case 'end-of-call-report': {
        // Applied once per call, even if Vapi sends a second (different) report.
        if ((await countCallEventsOfType(tx, row.id, 'end-of-call-report')) > 1 || row.status === 'cancelled') break;
        const finished = await finishCall(tx, row, envelope.message as Record<string, unknown>, deps.config.rates);
        const bookingId =
          typeof finished.structuredData.bookingId === 'string' && finished.structuredData.bookingId !== row.structuredData.bookingId
            ? finished.structuredData.bookingId
            : undefined;
        return { status: 200, body: { ok: true }, callbackOrganizationId: row.organizationId, bookingId };
      }
      default:
        break;
    }
    return { status: 200, body: { ok: true } };
  });
}
