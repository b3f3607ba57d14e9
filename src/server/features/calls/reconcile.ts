import { and, asc, eq, inArray, isNotNull, isNull, lte } from 'drizzle-orm';
import type { ProcessVapiInput, ProcessVapiResult } from '../../../contract/voice';
import { runScoped, selectOrganizations, type RequestScope } from '../../auth/scope';
import { call } from '../../db/schema';
import type { AppDeps } from '../../http/context';
import { AppError } from '../../http/errors';
import { VoiceProviderError, type ProviderCall } from '../../integrations/voice/port';
import { recordAudit } from '../audit/audit';
import { queueCallbackJobs, settleCallbackAfterCall } from '../callbacks/service';
import { insertContactEvents, userName } from '../candidates/queries';
import { findCall, updateCall } from './queries';
import { recordCallPrescreen } from './service';
import { handleVapiMessage } from './webhook';

/** At most this many calls are looked at per request (each open one is a request to the provider). */
const BATCH = 500;
const OPEN: Array<'queued' | 'ringing' | 'in_progress'> = ['queued', 'ringing', 'in_progress'];

/**
 * The end-of-call report the provider would have sent, from its view of the call. Built only from the
 * provider's data (no clock), so asking twice gives the same body and the webhook's dedupe key holds.
 */
export function syntheticEndOfCallReport(providerCallId: string, callId: string, remote: ProviderCall): string {
  return JSON.stringify({
    message: {
      type: 'end-of-call-report',
      call: { id: providerCallId, metadata: { callId } },
      endedReason: remote.endedReason,
      startedAt: remote.startedAt,
      endedAt: remote.endedAt,
      cost: remote.cost,
      artifact: remote.artifact,
      analysis: remote.analysis,
    },
  });
}

/**
 * POST /api/process/vapi, within the request's scope (organizationId/organizationIds narrow it): open calls of
 * the current provider older than staleAfterMinutes are asked for at the provider; an ended one is finished
 * through the webhook's own end-of-call-report path (so a report that did arrive is never counted twice), one
 * the provider does not know is marked failed ('lost'). Then ended prescreen calls without a result get one.
 * The provider unreachable: 502 VOICE_PROVIDER_ERROR (calls already settled stay settled).
 */
export async function processVapi(deps: AppDeps, scope: RequestScope, input: ProcessVapiInput): Promise<ProcessVapiResult> {
  const organizationIds = selectOrganizations(scope, input.organizationId, input.organizationIds);
  const totals = { checked: 0, finished: 0, lost: 0, recorded: 0 };
  if (organizationIds.length === 0) return totals;
  const cutoff = new Date(Date.now() - input.staleAfterMinutes * 60_000);
  const open = await runScoped(deps.db, scope, (tx) =>
    tx
      .select({ id: call.id, organizationId: call.organizationId, providerCallId: call.providerCallId })
      .from(call)
      .where(and(inArray(call.organizationId, organizationIds), inArray(call.status, OPEN), eq(call.provider, deps.voice.provider), isNotNull(call.providerCallId), lte(call.createdAt, cutoff)))
      .orderBy(asc(call.createdAt))
      .limit(BATCH),
  );
  const callbackOrganizations = new Set<string>();
  try {
    for (const item of open) {
      let remote: ProviderCall | null;
      try {
        remote = await deps.voice.fetchCall(item.providerCallId!);
      } catch (error) {
        const code = error instanceof VoiceProviderError ? error.code : 'error';
        deps.logger.warn({ callId: item.id, provider: deps.voice.provider, code }, 'call reconciliation: provider not reachable');
        throw new AppError(502, `The voice provider could not be asked about the calls${error instanceof VoiceProviderError ? `: ${error.message}` : ''}`, 'VOICE_PROVIDER_ERROR');
      }
      totals.checked++;
      if (!remote) {
        if (await markLost(deps, scope, item.id)) {
          totals.lost++;
          callbackOrganizations.add(item.organizationId);
        }
        continue;
      }
      if (remote.status !== 'ended') continue;
      const answer = await handleVapiMessage(deps, syntheticEndOfCallReport(item.providerCallId!, item.id, remote));
      if (answer.status !== 200) {
        deps.logger.warn({ callId: item.id, status: answer.status }, 'call reconciliation: report refused');
        continue;
      }
      const after = await runScoped(deps.db, scope, (tx) => findCall(tx, item.id));
      if (after && !OPEN.includes(after.status as (typeof OPEN)[number])) totals.finished++;
    }
  } finally {
    // After the commits: a failed call may have moved a callback (the webhook path queues its own).
    for (const organizationId of callbackOrganizations) await queueCallbackJobs(deps, organizationId);
  }
  totals.recorded = await recordMissingResults(deps, scope, organizationIds);
  return totals;
}

/** The provider has no record of the call: it failed ('lost'). False when it was settled meanwhile. */
async function markLost(deps: AppDeps, scope: RequestScope, id: string): Promise<boolean> {
  return runScoped(deps.db, scope, async (tx) => {
    const row = await findCall(tx, id, true);
    if (!row || !OPEN.includes(row.status as (typeof OPEN)[number])) return false;
    const updated = await updateCall(tx, row.id, { status: 'failed', outcome: 'failed', endedAt: row.endedAt ?? new Date(), structuredData: { ...row.structuredData, error: 'lost' } });
    if (updated.candidateId) {
      await insertContactEvents(tx, [
        {
          organizationId: updated.organizationId,
          candidateId: updated.candidateId,
          kind: 'call',
          summary: `Call failed: the voice provider has no record of it (${updated.type === 'PRESCREEN' ? 'prescreen' : 'scheduling'})`,
          details: { callId: updated.id, outcome: 'failed', error: 'lost', direction: updated.direction },
          referenceId: updated.id,
          actorUserId: scope.userId,
          actorLabel: (await userName(tx, scope.userId)) ?? 'Staff',
        },
      ]);
    }
    await recordAudit(tx, { organizationId: updated.organizationId, actorUserId: scope.userId, action: 'call.lost', entityType: 'call', entityId: updated.id, changes: { from: row.status, outcome: 'failed', error: 'lost', provider: updated.provider } });
    await settleCallbackAfterCall(tx, updated);
    return true;
  });
}

/** Ended prescreen calls (completed or hung up, as finishCall records them) still without a result. */
async function recordMissingResults(deps: AppDeps, scope: RequestScope, organizationIds: string[]): Promise<number> {
  const pending = await runScoped(deps.db, scope, (tx) =>
    tx
      .select({ id: call.id })
      .from(call)
      .where(
        and(
          inArray(call.organizationId, organizationIds),
          eq(call.type, 'PRESCREEN'),
          eq(call.status, 'ended'),
          inArray(call.outcome, ['completed', 'hung_up']),
          isNull(call.prescreenResultId),
          isNotNull(call.candidateId),
        ),
      )
      .orderBy(asc(call.createdAt))
      .limit(BATCH),
  );
  let recorded = 0;
  for (const item of pending) {
    await runScoped(deps.db, scope, async (tx) => {
      const row = await findCall(tx, item.id, true);
      if (!row || row.status !== 'ended' || row.prescreenResultId) return;
      const done = await recordCallPrescreen(tx, row);
      if (!done) return;
      recorded++;
      await recordAudit(tx, { organizationId: row.organizationId, actorUserId: scope.userId, action: 'call.process', entityType: 'call', entityId: row.id, changes: { prescreenResultId: done.resultId, recommendation: done.recommendation, via: 'reconcile' } });
    });
  }
  return recorded;
}
