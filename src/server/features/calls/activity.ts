import type { AppConfig } from '../../config';
import type { ActivityEntry } from '../../activity';
import type { CallRow } from './queries';

/**
 * The activity of a call that ended or failed (decision 031): ended (duration, outcome), answered when a person
 * took part, and its cost: the provider's reported cost, else the minutes at the configured rate.
 */
export function callEndedActivity(row: CallRow, rates: AppConfig['rates']): ActivityEntry[] {
  const base = {
    organizationId: row.organizationId,
    candidateId: row.candidateId,
    source: 'call' as const,
    agentId: row.voiceAgentId,
    referenceId: row.id,
    occurredAt: row.endedAt ?? new Date(),
  };
  const answered = row.outcome === 'completed' || row.outcome === 'hung_up' || row.outcome === 'declined';
  const reported = row.costUsd === null ? null : Number(row.costUsd);
  const minutes = row.durationSeconds ? Math.ceil(row.durationSeconds / 60) : 0;
  const cost = reported ?? minutes * rates.callMinuteUsd;
  return [
    ...(answered ? [{ ...base, kind: 'call_answered' as const, label: row.type, occurredAt: row.startedAt ?? base.occurredAt }] : []),
    { ...base, kind: 'call_ended' as const, label: row.outcome ?? 'failed', value: row.durationSeconds },
    ...(cost > 0 ? [{ ...base, kind: 'spend' as const, label: 'call_minutes', value: cost }] : []),
  ];
}

/** A call placed (outbound): the start of the call funnel. */
export function callPlacedActivity(row: CallRow): ActivityEntry {
  return {
    organizationId: row.organizationId,
    candidateId: row.candidateId,
    kind: 'call_placed',
    source: 'call',
    label: row.type,
    agentId: row.voiceAgentId,
    referenceId: row.id,
    occurredAt: row.createdAt,
  };
}
