import { and, asc, eq, inArray, isNotNull, isNull, lte } from 'drizzle-orm';
import type { ProcessVapiInput, ProcessVapiResult } from '../../../contract/voice';
import { runScoped, selectOrganizations, type RequestScope } from '../../auth/scope';
import { call } from '../../db/schema';
import { asOrganization, withRowSecurity, type RowSecurityScope } from '../../db/scoped';
import { systemDb } from '../../db/system';
import type { AppDeps } from '../../http/context';
import { AppError } from '../../http/errors';
import { VoiceProviderError, type ProviderCall } from '../../integrations/voice/port';
import { recordAudit, rowChange, type Actor } from '../../audit';
import { queueCallbackJobs, settleCallbackAfterCall } from '../callbacks/service';
import { insertContactEvents, userName } from '../candidates/service';
import { recordActivity } from '../../activity';
import { callEndedActivity } from './activity';
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

/** Who settles the calls: a signed-in user (POST /api/process/vapi) or the background sweep (no user). */
interface Reconciler {
  organizationIds: string[];
  rows: RowSecurityScope;
  actor: Actor;
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
  if (organizationIds.length === 0) return { checked: 0, finished: 0, lost: 0, recorded: 0 };
  const label = (await runScoped(deps.db, scope, (tx) => userName(tx, scope.userId))) ?? 'Staff';
  return reconcileCalls(deps, { organizationIds, rows: scope, actor: { userId: scope.userId, label } }, input.staleAfterMinutes);
}

/** A simulated call lasts seconds; a real one rarely more than an hour (Vapi's own maximum is 2 hours). */
const SWEEP_STALE_MINUTES = { simulator: 2, vapi: 30 } as const;
/** Past this, a call that is still open cannot be a live call: it failed ('no_progress'), whatever the provider says. */
const MAX_OPEN_MINUTES = { simulator: 10, vapi: 180 } as const;

/**
 * The background sweep (every few minutes, no user): every organization's stale open calls are reconciled as
 * above, and a call still open long past any real call's length is marked failed with the reason, so no call
 * stays "queued" forever (a lost webhook, a provider that refused our messages, a restart mid-call).
 */
export async function sweepStaleCalls(deps: AppDeps, now: Date = new Date()): Promise<ProcessVapiResult & { stuck: number }> {
  const provider = deps.voice.provider === 'vapi' ? 'vapi' : 'simulator';
  const staleCutoff = new Date(now.getTime() - SWEEP_STALE_MINUTES[provider] * 60_000);
  // The one cross-organization read here: which organizations have open calls (ids only, no patient data).
  const organizations = await systemDb(deps.db)
    .selectDistinct({ organizationId: call.organizationId })
    .from(call)
    .where(and(inArray(call.status, OPEN), lte(call.createdAt, staleCutoff)));
  const totals = { checked: 0, finished: 0, lost: 0, recorded: 0, stuck: 0 };
  const stuckCutoff = new Date(now.getTime() - MAX_OPEN_MINUTES[provider] * 60_000);
  for (const { organizationId } of organizations) {
    const target: Reconciler = {
      organizationIds: [organizationId],
      rows: asOrganization(organizationId),
      actor: { userId: null, label: 'System' },
    };
    try {
      const result = await reconcileCalls(deps, target, SWEEP_STALE_MINUTES[provider]);
      totals.checked += result.checked;
      totals.finished += result.finished;
      totals.lost += result.lost;
      totals.recorded += result.recorded;
    } catch (error) {
      // The provider unreachable: the hard limit below still settles what cannot be live any more.
      deps.logger.warn({ organizationId, errorName: (error as Error).name }, 'call sweep: reconciliation failed');
    }
    const stuck = await withRowSecurity(deps.db, target.rows, (tx) =>
      tx
        .select({ id: call.id })
        .from(call)
        .where(and(eq(call.organizationId, organizationId), inArray(call.status, OPEN), lte(call.createdAt, stuckCutoff)))
        .limit(BATCH),
    );
    for (const item of stuck) if (await markFailed(deps, target, item.id, 'no_progress')) totals.stuck++;
    if (stuck.length) await queueCallbackJobs(deps, organizationId);
  }
  return totals;
}

async function reconcileCalls(deps: AppDeps, target: Reconciler, staleAfterMinutes: number): Promise<ProcessVapiResult> {
  const { organizationIds } = target;
  const totals = { checked: 0, finished: 0, lost: 0, recorded: 0 };
  const cutoff = new Date(Date.now() - staleAfterMinutes * 60_000);
  const open = await withRowSecurity(deps.db, target.rows, (tx) =>
    tx
      .select({ id: call.id, organizationId: call.organizationId, providerCallId: call.providerCallId })
      .from(call)
      .where(
        and(
          inArray(call.organizationId, organizationIds),
          inArray(call.status, OPEN),
          eq(call.provider, deps.voice.provider),
          isNotNull(call.providerCallId),
          lte(call.createdAt, cutoff),
        ),
      )
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
        throw new AppError(
          502,
          `The voice provider could not be asked about the calls${error instanceof VoiceProviderError ? `: ${error.message}` : ''}`,
          'VOICE_PROVIDER_ERROR',
        );
      }
      totals.checked++;
      if (!remote) {
        if (await markFailed(deps, target, item.id, 'lost')) {
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
      const after = await withRowSecurity(deps.db, target.rows, (tx) => findCall(tx, item.id));
      if (after && !OPEN.includes(after.status as (typeof OPEN)[number])) totals.finished++;
    }
  } finally {
    // After the commits: a failed call may have moved a callback (the webhook path queues its own).
    for (const organizationId of callbackOrganizations) await queueCallbackJobs(deps, organizationId);
  }
  totals.recorded = await recordMissingResults(deps, target);
  return totals;
}

const FAILURE_SUMMARY = {
  lost: 'the voice provider has no record of it',
  no_progress: 'it never progressed and was stopped',
} as const;

/** The call failed for `reason` (kept on the call as structuredData.error). False when it was settled meanwhile. */
async function markFailed(deps: AppDeps, target: Reconciler, id: string, reason: keyof typeof FAILURE_SUMMARY): Promise<boolean> {
  return withRowSecurity(deps.db, target.rows, async (tx) => {
    const row = await findCall(tx, id, true);
    if (!row || !OPEN.includes(row.status as (typeof OPEN)[number])) return false;
    const updated = await updateCall(tx, row.id, {
      status: 'failed',
      outcome: 'failed',
      endedAt: row.endedAt ?? new Date(),
      structuredData: { ...row.structuredData, error: reason },
    });
    await recordActivity(tx, callEndedActivity(updated, deps.config.rates));
    if (updated.candidateId) {
      await insertContactEvents(tx, [
        {
          organizationId: updated.organizationId,
          candidateId: updated.candidateId,
          kind: 'call',
          summary: `Call failed: ${FAILURE_SUMMARY[reason]} (${updated.type === 'PRESCREEN' ? 'prescreen' : 'scheduling'})`,
          details: { callId: updated.id, outcome: 'failed', error: reason, direction: updated.direction },
          referenceId: updated.id,
          actorUserId: target.actor.userId,
          actorLabel: target.actor.label,
        },
      ]);
    }
    await recordAudit(tx, {
      organizationId: updated.organizationId,
      actorUserId: target.actor.userId,
      action: reason === 'lost' ? 'call.lost' : 'call.failed',
      entityType: 'call',
      entityId: updated.id,
      changes: { from: row.status, outcome: 'failed', error: reason, provider: updated.provider },
    });
    await settleCallbackAfterCall(tx, updated);
    return true;
  });
}

/** Ended prescreen calls (completed or hung up, as finishCall records them) still without a result. */
async function recordMissingResults(deps: AppDeps, target: Reconciler): Promise<number> {
  const { organizationIds } = target;
  const pending = await withRowSecurity(deps.db, target.rows, (tx) =>
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
    await withRowSecurity(deps.db, target.rows, async (tx) => {
      const row = await findCall(tx, item.id, true);
      if (row?.status !== 'ended' || row.prescreenResultId) return;
      const done = await recordCallPrescreen(tx, row);
      if (!done) return;
      recorded++;
      await recordAudit(
        tx,
        rowChange(target.actor.userId, row, 'call.process', 'call', {
          prescreenResultId: done.resultId,
          recommendation: done.recommendation,
          via: 'reconcile',
        }),
      );
    });
  }
  return recorded;
}
