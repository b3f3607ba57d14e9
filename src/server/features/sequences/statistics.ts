import { type SequenceStatistics, type StepStatistics, ENROLLMENT_STATUSES } from '../../../contract/sequences';
import { runScoped, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import { notFound } from '../../http/errors';
import { stepOutcomeCounts, stepRunCounts } from './queries';
import { loadSequence, stepsOf } from './service';

/** How a version of a sequence does, step by step: reached, sent, delivered, answered, and where people left. */
export async function statistics(db: Database, scope: RequestScope, sequenceId: string, version?: number): Promise<SequenceStatistics> {
  return runScoped(db, scope, async (tx) => {
    const row = await loadSequence(tx, scope, sequenceId);
    const chosen = version ?? row.currentVersion;
    const steps = await stepsOf(tx, row, chosen);
    if (!steps.length) throw notFound('No such version of the sequence');
    const runs = await stepRunCounts(tx, row.id, chosen);
    const outcomes = await stepOutcomeCounts(tx, row.id, chosen);
    const count = (index: number, kinds: string[]) =>
      runs.filter((item) => item.stepIndex === index && kinds.includes(item.kind)).reduce((sum, item) => sum + item.n, 0);
    const exitsAt = (index: number, reason: string) => Number(outcomes.exits.find((item) => item.step_index === index && item.exit_reason === reason)?.n ?? 0);
    const result: StepStatistics[] = steps.map((step, index) => {
      const delivered = outcomes.delivered.find((item) => item.step_index === index);
      return {
        stepIndex: index,
        key: step.key,
        type: step.type,
        reached: count(index, ['sent', 'blocked', 'waited', 'branched']),
        sent: count(index, ['sent']),
        blocked: count(index, ['blocked']),
        failed: count(index, ['failed']),
        delivered: Number(delivered?.delivered ?? 0),
        answered: Number(delivered?.answered ?? 0),
        replied: exitsAt(index, 'replied'),
        booked: exitsAt(index, 'booked'),
        optedOut: exitsAt(index, 'opted_out'),
      };
    });
    const enrollments = Object.fromEntries(
      ENROLLMENT_STATUSES.map((status) => [status, outcomes.statuses.filter((item) => item.status === status).reduce((sum, item) => sum + item.n, 0)]),
    ) as SequenceStatistics['enrollments'];
    const exits: Record<string, number> = {};
    for (const item of outcomes.statuses) if (item.exitReason) exits[item.exitReason] = (exits[item.exitReason] ?? 0) + item.n;
    return { version: chosen, steps: result, enrollments, exits };
  });
}
