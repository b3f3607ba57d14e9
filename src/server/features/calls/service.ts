import type { CandidateStatus } from '../../../contract/candidates';
import type { StudyBlock } from '../../../contract/prescreen-forms';
import type { TrialStatus } from '../../../contract/trials';
import { type Call, type CallBlockReason, type CallDetail, type CreateCallInput, type ListCallsQuery, MISSED_OUTCOMES } from '../../../contract/voice';
import { canReach, runScoped, selectOrganizations, type RequestScope } from '../../auth/scope';
import { runAsOrganization, type Transaction } from '../../db/scoped';
import { AppError, conflict, notFound } from '../../http/errors';
import {
  SIMULATION_MODES,
  VoiceProviderError,
  type OfferedSlot,
  type ScriptQuestion,
  type SimulatedFact,
  type SimulationMode,
  type VoiceProvider,
} from '../../integrations/voice/port';
import { recordAudit, rowChange, type Actor } from '../../audit';
import { findCandidate, insertContactEvents, userName, type CandidateRow, changeCandidateStatus } from '../candidates/service';
import { findForm, findFormVersion, recordPrescreenResultInTransaction } from '../prescreen/service';
import { factsOfCandidate } from '../matching/facts';
import { contactPermission } from '../sms/consent';
import { scriptOf, type VoiceDeps, activeVoiceAgent, findVoiceAgent, noAgentWords, type VoiceAgentRow } from '../voice-agents/service';
import { extractCallAnswers } from './answers';
import { callAnswers } from './call-answers';
import { withinCallingHoursFor } from '../../calling-hours';
import { callEvents, deleteCall, findCall, insertCall, listCallRows, recentEndedCalls, updateCall, type CallRow } from './queries';
import { offeredVisitSlots } from './scheduling';
import { recordActivity } from '../../activity';
import { callEndedActivity, callPlacedActivity } from './activity';

export const VOICE_AGENT_ACTOR = { userId: null, label: 'Voice agent' } as const;
/** Consecutive missed calls (no answer, busy, voicemail) after which a candidate is marked unreachable. */
export const UNREACHABLE_AFTER_MISSES = 3;

// ---- mapping ----

export function toCall(row: CallRow): Call {
  return {
    id: row.id,
    organizationId: row.organizationId,
    candidateId: row.candidateId,
    voiceAgentId: row.voiceAgentId,
    type: row.type,
    direction: row.direction,
    status: row.status,
    outcome: row.outcome,
    provider: row.provider,
    providerCallId: row.providerCallId,
    language: row.language,
    startedAt: row.startedAt?.toISOString() ?? null,
    endedAt: row.endedAt?.toISOString() ?? null,
    durationSeconds: row.durationSeconds,
    costUsd: row.costUsd === null ? null : Number(row.costUsd),
    recordingUrl: row.recordingUrl,
    prescreenResultId: row.prescreenResultId,
    createdByUserId: row.createdByUserId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function callInScope(tx: Transaction, scope: RequestScope, id: string, forUpdate = false): Promise<CallRow> {
  const row = await findCall(tx, id, forUpdate);
  if (!row || !canReach(scope, row.organizationId)) throw notFound('Call not found');
  return row;
}

const BLOCK_MESSAGES: Record<CallBlockReason, string> = {
  do_not_contact: 'the candidate is marked do-not-contact',
  no_call_consent: 'the candidate has not consented to calls',
  quiet_hours: "calls only go out within calling hours (08:00-21:00) in the candidate's time zone",
  no_phone: 'the candidate has no phone number',
  no_agent: 'the organization has no active voice agent of this type',
  trial_not_recruiting: "the prescreen agent's trial is not recruiting (start recruiting on the trial page first)",
};

function blocked(reason: CallBlockReason, words?: string): AppError {
  const message = words ? `Call not placed: ${words}` : `Call not placed: ${BLOCK_MESSAGES[reason]}.`;
  return new AppError(409, message, 'CALL_BLOCKED', [{ path: 'candidateId', message: reason }]);
}

/** The voice agent facts the call rules read: its hours and (a prescreen agent) its trial's status. */
export interface CallingAgent {
  callingHoursStart: string;
  callingHoursEnd: string;
  trialStatus?: TrialStatus | null;
}

/**
 * Every reason the candidate may not be called now, in the order a person would fix them (empty: the call may
 * be placed). A prescreen call is recruitment outreach: it needs call consent (contactPermission with purpose
 * 'marketing') and a trial that is recruiting (not a draft, paused or closed one); a scheduling call follows
 * up on the person's own request (transactional). Both respect do-not-contact and the calling hours, judged in
 * every zone the person may be in (callingZonesOf: decision 136). `agent` null: no active agent of the type.
 */
export function callBlockReasons(row: CandidateRow, type: CallRow['type'], agent: CallingAgent | null, now: Date): CallBlockReason[] {
  const reasons: CallBlockReason[] = [];
  if (!agent) reasons.push('no_agent');
  if (type === 'PRESCREEN' && agent?.trialStatus && agent.trialStatus !== 'recruiting') reasons.push('trial_not_recruiting');
  const permission = contactPermission(
    { doNotContact: row.doNotContact, consentSms: row.consentSms, consentCalls: row.consentCalls, timeZone: row.timeZone, smsOptedOutAt: null },
    'call',
    type === 'PRESCREEN' ? 'marketing' : 'transactional',
    now,
  );
  // The hours are judged below, in the person's possible zones and the agent's own hours.
  if (!permission.allowed && permission.reason !== 'quiet_hours') reasons.push(permission.reason === 'no_call_consent' ? 'no_call_consent' : 'do_not_contact');
  if (!row.phone) reasons.push('no_phone');
  if (!withinCallingHoursFor(now, row, agent?.callingHoursStart, agent?.callingHoursEnd)) reasons.push('quiet_hours');
  return reasons;
}

/** The first reason the candidate may not be called now by `agent`, or null. */
export function callBlockReason(row: CandidateRow, type: CallRow['type'], agent: CallingAgent, now: Date): CallBlockReason | null {
  return callBlockReasons(row, type, agent, now)[0] ?? null;
}

// ---- placing a call ----

function simulationOf(requested: SimulationMode | undefined, row: CandidateRow): SimulationMode {
  const fromRecord = row.customFields?.simulate;
  if (requested) return requested;
  return typeof fromRecord === 'string' && (SIMULATION_MODES as readonly string[]).includes(fromRecord) ? (fromRecord as SimulationMode) : 'answer';
}

/** Who placed a call: a member of staff, or the system on someone's behalf (a callback, a bulk run). */
export type CallActor = Actor;

export interface CallPlan {
  created: CallRow;
  candidate: CandidateRow;
  agent: VoiceAgentRow;
  language: 'en' | 'es';
  questions: ScriptQuestion[];
  /** SITE_VISIT_SCHEDULING: the free slots offered (also kept in structuredData.offeredSlots). */
  offeredSlots?: OfferedSlot[];
  /** The simulator only: the candidate's clinical facts, which its synthetic person answers by. */
  facts?: SimulatedFact[];
}

export interface PlanCallInput {
  /** deps.voice.provider: the call is stored as that provider's. */
  provider: VoiceProvider;
  candidate: CandidateRow;
  type: CallRow['type'];
  actor: CallActor;
  now: Date;
  /** What the contact history says placed it, e.g. "Callback". */
  via?: string;
  processingRunId?: string | null;
  /** The trial the call is for (a run over a trial's people); else the agent is one of the person's trials'. */
  trialId?: string | null;
}

/**
 * In `tx`: checks that the candidate may be called now with the active agent of the type for their trial
 * (throws 409 CALL_BLOCKED with the reason), stores the call 'queued', its contact event and audit row.
 * The call is dialled by dialCall after the transaction commits.
 */
export async function planCall(tx: Transaction, input: PlanCallInput): Promise<CallPlan> {
  const { candidate: row, type, actor, now } = input;
  const forCall = { candidateId: row.id, trialId: input.trialId };
  const agent = await activeVoiceAgent(tx, row.organizationId, type, forCall);
  if (!agent || (agent.type === 'PRESCREEN' && !agent.prescreenFormId)) throw blocked('no_agent', await noAgentWords(tx, type, forCall));
  const reason = callBlockReason(row, type, agent, now);
  if (reason) throw blocked(reason);
  const language: 'en' | 'es' = agent.languages.includes('es') && row.preferredLanguage === 'es' ? 'es' : 'en';
  const offeredSlots = agent.type === 'SITE_VISIT_SCHEDULING' ? await offeredVisitSlots(tx, agent, now) : undefined;
  const created = await insertCall(tx, {
    organizationId: row.organizationId,
    candidateId: row.id,
    voiceAgentId: agent.id,
    type,
    direction: 'outbound',
    status: 'queued',
    provider: input.provider,
    toPhone: row.phone,
    fromPhone: agent.fromNumber,
    language,
    createdByUserId: actor.userId,
    processingRunId: input.processingRunId ?? null,
    ...(offeredSlots ? { structuredData: { offeredSlots } } : {}),
  });
  const kind = type === 'PRESCREEN' ? 'prescreen' : 'scheduling';
  await recordActivity(tx, [callPlacedActivity(created)]);
  await insertContactEvents(tx, [
    {
      organizationId: row.organizationId,
      candidateId: row.id,
      kind: 'call',
      summary: `${input.via ? `${input.via}: call` : 'Call'} placed (${kind})`,
      details: { callId: created.id, type, provider: created.provider },
      referenceId: created.id,
      actorUserId: actor.userId,
      actorLabel: actor.label,
    },
  ]);
  await recordAudit(tx, {
    organizationId: row.organizationId,
    actorUserId: actor.userId,
    action: 'call.create',
    entityType: 'call',
    entityId: created.id,
    changes: { candidateId: row.id, voiceAgentId: agent.id, type, provider: created.provider, ...(input.via ? { via: input.via } : {}) },
  });
  const questions = agent.type === 'PRESCREEN' ? await scriptOf(tx, agent.prescreenFormId) : [];
  const facts = input.provider === 'simulator' && questions.length > 0 ? await simulatedFacts(tx, row.id) : undefined;
  return { created, candidate: row, agent, language, questions, offeredSlots, facts };
}

/** What the simulator's synthetic person knows of their health: the candidate's clinical facts. */
export async function simulatedFacts(tx: Transaction, candidateId: string): Promise<SimulatedFact[]> {
  return (await factsOfCandidate(tx, candidateId)).map((fact) => ({ name: fact.name, status: fact.status, value: fact.value }));
}

/**
 * Places a planned call through the voice port (outside any transaction). A provider refusal marks the call
 * failed and throws 502 VOICE_PROVIDER_ERROR.
 */
export async function dialCall(deps: VoiceDeps, plan: CallPlan, simulate?: SimulationMode): Promise<CallRow> {
  const { created, candidate: row, agent } = plan;
  let providerCallId: string;
  try {
    ({ providerCallId } = await deps.voice.placeCall({
      callId: created.id,
      organizationId: created.organizationId,
      to: row.phone!,
      from: agent.fromNumber,
      language: plan.language,
      assistantId: agent.providerAssistantId,
      firstMessage: agent.firstMessage,
      voicemailMessage: agent.voicemailMessage,
      questions: plan.questions,
      person: { dateOfBirth: row.dateOfBirth, sex: row.sex, customFields: row.customFields ?? {}, facts: plan.facts },
      simulate: simulationOf(simulate, row),
      offeredSlots: plan.offeredSlots,
    }));
  } catch (error) {
    const code = error instanceof VoiceProviderError ? error.code : 'error';
    deps.logger.warn({ callId: created.id, provider: deps.voice.provider, code }, 'call placement failed');
    await runAsOrganization(deps.db, created.organizationId, async (tx) => {
      const failed = await updateCall(tx, created.id, { status: 'failed', outcome: 'failed', endedAt: new Date(), structuredData: { error: code } });
      await recordActivity(tx, callEndedActivity(failed, deps.config.rates));
    });
    throw new AppError(
      502,
      `The voice provider did not place the call${error instanceof VoiceProviderError ? `: ${error.message}` : ''}`,
      'VOICE_PROVIDER_ERROR',
    );
  }
  // Server messages may already have arrived (they find the call by metadata.callId): only set the id.
  return runAsOrganization(deps.db, created.organizationId, (tx) => updateCall(tx, created.id, { providerCallId }));
}

/**
 * POST /api/calls/: calls a candidate now with the organization's active agent of the type: 404 outside the
 * scope, 409 (CALL_BLOCKED, with the reason) when consent, the phone or the calling hours forbid it or no
 * agent exists; 502 when the provider refuses.
 */
export async function createCall(deps: VoiceDeps, scope: RequestScope, input: CreateCallInput, now: Date = new Date()): Promise<Call> {
  const plan = await runScoped(deps.db, scope, async (tx) => {
    const row = await findCandidate(tx, input.candidateId);
    if (!row || !canReach(scope, row.organizationId) || (input.organizationId && input.organizationId !== row.organizationId))
      throw notFound('Candidate not found');
    const actor = { userId: scope.userId, label: (await userName(tx, scope.userId)) ?? 'Staff' };
    return planCall(tx, { provider: deps.voice.provider, candidate: row, type: input.type, actor, now });
  });
  return toCall(await dialCall(deps, plan, input.simulate));
}

// ---- reading ----

export async function listCalls(deps: VoiceDeps, scope: RequestScope, query: ListCallsQuery) {
  const organizationIds = selectOrganizations(scope, query.organizationId, query.organizationIds, query.orgs);
  return runScoped(deps.db, scope, async (tx) => {
    const { rows, total } = await listCallRows(
      tx,
      { organizationIds, candidateId: query.candidateId, status: query.status, type: query.type, filter: query.filter },
      { limit: query.limit, offset: query.offset },
    );
    return { calls: rows.map(toCall), total };
  });
}

export async function getCall(deps: VoiceDeps, scope: RequestScope, id: string): Promise<CallDetail> {
  return runScoped(deps.db, scope, async (tx) => {
    const row = await callInScope(tx, scope, id);
    const events = await callEvents(tx, row.id);
    return {
      ...toCall(row),
      transcript: row.transcript,
      structuredData: row.structuredData,
      events: events.map((event) => ({ id: event.id, type: event.type, receivedAt: event.receivedAt.toISOString() })),
      answers: await callAnswers(tx, row),
    };
  });
}

export async function callStorage(deps: VoiceDeps, scope: RequestScope, id: string) {
  return runScoped(deps.db, scope, async (tx) => {
    const row = await callInScope(tx, scope, id);
    const events = await callEvents(tx, row.id);
    return {
      callId: row.id,
      events: events.map((event) => ({
        id: event.id,
        type: event.type,
        dedupeKey: event.dedupeKey,
        receivedAt: event.receivedAt.toISOString(),
        payload: event.payload,
      })),
    };
  });
}

const asRecord = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** A readable log: each stored message with its time and type, a one-line summary, tool calls with their results. */
export async function callLogs(deps: VoiceDeps, scope: RequestScope, id: string) {
  return runScoped(deps.db, scope, async (tx) => {
    const row = await callInScope(tx, scope, id);
    const events = await callEvents(tx, row.id);
    const results = asRecord(row.structuredData.toolResults);
    return {
      callId: row.id,
      entries: events.map((event) => {
        const message = asRecord(event.payload.message);
        let summary = event.type;
        if (event.type === 'status-update')
          summary = `Status: ${String(message.status ?? '')}${message.endedReason ? ` (${String(message.endedReason)})` : ''}`;
        else if (event.type === 'transcript') summary = `${String(message.role ?? '')} (${String(message.transcriptType ?? 'final')})`;
        else if (event.type === 'end-of-call-report') summary = `Call ended: ${String(message.endedReason ?? '')}`;
        const list = Array.isArray(message.toolCallList) ? (message.toolCallList as Array<Record<string, unknown>>) : [];
        const toolCalls = list.map((item) => {
          const fn = asRecord(item.function);
          return { id: String(item.id ?? ''), name: String(fn.name ?? ''), arguments: fn.arguments ?? null, result: results[String(item.id ?? '')] ?? null };
        });
        if (event.type === 'tool-calls') summary = `Tool calls: ${toolCalls.map((tool) => tool.name).join(', ')}`;
        return { at: event.receivedAt.toISOString(), type: event.type, summary, ...(toolCalls.length ? { toolCalls } : {}) };
      }),
    };
  });
}

// ---- finishing ----

/**
 * Records the prescreen result of a finished PRESCREEN call (answers from answers.ts) and links it to the
 * call. Returns undefined when there is nothing to record (no agent form, no answers). The engine's refusals
 * (form unpublished, bad answers) are kept in structuredData.processingError instead of failing the webhook.
 */
export async function recordCallPrescreen(
  tx: Transaction,
  row: CallRow,
  options: { rethrow?: boolean } = {},
): Promise<{ call: CallRow; resultId: string; recommendation: string } | undefined> {
  if (row.type !== 'PRESCREEN' || !row.candidateId || !row.voiceAgentId) return undefined;
  const agent = await findVoiceAgent(tx, row.voiceAgentId);
  if (!agent?.prescreenFormId) return undefined;
  const form = await findForm(tx, agent.prescreenFormId);
  const version = form ? await findFormVersion(tx, form.id, form.currentVersion) : undefined;
  if (!form || !version) return undefined;
  const answers = extractCallAnswers(version.blocks as StudyBlock[], {
    structuredData: row.structuredData,
    transcript: row.transcript,
    language: row.language,
  });
  if (answers.length === 0) {
    if (options.rethrow) throw conflict('The call has no answers to record');
    return undefined;
  }
  try {
    const result = await tx.transaction((savepoint) =>
      recordPrescreenResultInTransaction(savepoint, [row.organizationId], VOICE_AGENT_ACTOR, {
        candidateId: row.candidateId!,
        formId: form.id,
        sourceType: 'call',
        sourceId: row.id,
        answers,
      }),
    );
    const updated = await updateCall(tx, row.id, { prescreenResultId: result.id, structuredData: { ...row.structuredData, processingError: undefined } });
    return { call: updated, resultId: result.id, recommendation: result.aiRecommendation };
  } catch (error) {
    if (options.rethrow || !(error instanceof AppError)) throw error;
    await updateCall(tx, row.id, { structuredData: { ...row.structuredData, processingError: error.message } });
    return undefined;
  }
}

/** After a missed call: the candidate becomes unreachable when their last UNREACHABLE_AFTER_MISSES calls were all missed. */
export async function applyMissedCallRule(tx: Transaction, row: CallRow): Promise<void> {
  if (!row.candidateId || !row.outcome || !MISSED_OUTCOMES.includes(row.outcome)) return;
  const recent = await recentEndedCalls(tx, row.candidateId, UNREACHABLE_AFTER_MISSES);
  if (recent.length < UNREACHABLE_AFTER_MISSES || !recent.every((item) => item.outcome && MISSED_OUTCOMES.includes(item.outcome))) return;
  const candidateRow = await findCandidate(tx, row.candidateId, true);
  const from: CandidateStatus[] = ['new', 'contacted', 'prescreening'];
  if (!candidateRow || !from.includes(candidateRow.status)) return;
  await changeCandidateStatus(tx, candidateRow, 'unreachable', {
    actor: VOICE_AGENT_ACTOR,
    reason: `${UNREACHABLE_AFTER_MISSES} missed calls in a row`,
    action: 'candidate.status.unreachable',
    channel: 'call',
  });
}

// ---- staff actions ----

/**
 * DELETE /api/calls/{callId}: a call not answered yet (queued, ringing) is cancelled through the port and
 * kept; a finished one (ended, failed, cancelled) is deleted with its events; an answered call in progress: 409.
 */
export async function removeCall(deps: VoiceDeps, scope: RequestScope, id: string): Promise<{ action: 'cancelled' | 'deleted'; call: Call | null }> {
  const row = await runScoped(deps.db, scope, (tx) => callInScope(tx, scope, id));
  if (row.status === 'in_progress') throw conflict('The call is in progress: it cannot be cancelled or deleted now');
  if (row.status === 'queued' || row.status === 'ringing') {
    if (row.providerCallId) {
      try {
        await deps.voice.cancelCall(row.providerCallId);
      } catch (error) {
        const code = error instanceof VoiceProviderError ? error.code : 'error';
        deps.logger.warn({ callId: row.id, code }, 'call cancel failed');
        throw new AppError(502, 'The voice provider did not cancel the call', 'VOICE_PROVIDER_ERROR');
      }
    }
    return runScoped(deps.db, scope, async (tx) => {
      const current = await callInScope(tx, scope, id, true);
      const updated = await updateCall(tx, current.id, { status: 'cancelled', endedAt: current.endedAt ?? new Date() });
      if (updated.candidateId) {
        await insertContactEvents(tx, [
          {
            organizationId: updated.organizationId,
            candidateId: updated.candidateId,
            kind: 'call',
            summary: 'Call cancelled',
            details: { callId: updated.id },
            referenceId: updated.id,
            actorUserId: scope.userId,
            actorLabel: (await userName(tx, scope.userId)) ?? 'Staff',
          },
        ]);
      }
      await recordAudit(tx, rowChange(scope.userId, updated, 'call.cancel', 'call', { from: current.status }));
      return { action: 'cancelled' as const, call: toCall(updated) };
    });
  }
  return runScoped(deps.db, scope, async (tx) => {
    const current = await callInScope(tx, scope, id, true);
    await deleteCall(tx, current.id);
    await recordAudit(
      tx,
      rowChange(scope.userId, current, 'call.delete', 'call', { candidateId: current.candidateId, status: current.status, outcome: current.outcome }),
    );
    return { action: 'deleted' as const, call: null };
  });
}

/** POST /api/process/calls/{callId}: re-reads a finished PRESCREEN call into a new prescreen result. */
export async function processCall(deps: VoiceDeps, scope: RequestScope, id: string) {
  return runScoped(deps.db, scope, async (tx) => {
    const row = await callInScope(tx, scope, id, true);
    if (row.status !== 'ended') throw conflict('Only a finished call can be processed');
    if (row.type !== 'PRESCREEN') throw conflict('Only prescreen calls become prescreen results');
    const done = await recordCallPrescreen(tx, row, { rethrow: true });
    if (!done) throw conflict("The call's agent has no prescreen form");
    await recordAudit(tx, rowChange(scope.userId, row, 'call.process', 'call', { prescreenResultId: done.resultId, recommendation: done.recommendation }));
    return { call: toCall(done.call), prescreenResultId: done.resultId, recommendation: done.recommendation };
  });
}
