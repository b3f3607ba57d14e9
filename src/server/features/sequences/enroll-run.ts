import type { AppDeps } from '../../http/context';
import { findCandidates } from '../candidates/service';
import { defineRunKind, type ItemOutcome } from '../processing-runs/runner';
import { sweepSequences } from './engine';
import { enrollPeople } from './enroll';
import { findSequence, findVersion } from './queries';

export const SEQUENCE_ENROLLMENT_RUN_KIND = 'sequence_enrollment';

type Outcome = 'enrolled' | 'already_enrolled' | 'refused' | 'gone';

/** What a run keeps of the request (processing_run.options). */
export interface EnrollmentRunOptions {
  sequenceId: string;
  actorLabel: string;
  startAt: string | null;
}

/**
 * Enrolling everyone a saved filter matches, in the background (issue 16 item 2: the run engine's items style).
 * Each batch of people is enrolled in one transaction by the same `enrollPeople` the request path uses, so the
 * refusals, the step history, the contact events and the audit record are the same; a person who joined the
 * sequence meanwhile counts as already enrolled. The enrollments get no job here: the sweep gives them theirs
 * after each batch (as it does for triggers), so a crash between the commit and the queue loses nothing.
 */
export const sequenceEnrollmentRuns = defineRunKind<AppDeps, Outcome>({
  kind: SEQUENCE_ENROLLMENT_RUN_KIND,
  batchSize: 500,
  counters: { enrolled: 'succeeded', already_enrolled: 'skipped', refused: 'failed', gone: 'skipped' },
  messages: {
    failed: 'Enrolling stopped on an unexpected error; the people marked processed were handled',
    interrupted: 'Interrupted before it started; nobody was enrolled. Enroll again.',
  },
  completion: (run) => ({ total: run.total, enrolled: run.succeeded, skipped: run.skipped, refused: run.failed }),
  processBatch: async (tx, ctx, items): Promise<ItemOutcome<Outcome>[]> => {
    const options = ctx.run.options as unknown as EnrollmentRunOptions;
    const sequence = await findSequence(tx, options.sequenceId);
    const ids = items.map((item) => item.candidateId).filter((id): id is string => Boolean(id));
    const people = (await findCandidates(tx, ids, true)).filter((person) => person.organizationId === ctx.run.organizationId);
    const byId = new Map(people.map((person) => [person.id, person]));
    if (!sequence || sequence.status !== 'active') {
      const message = 'The sequence was archived or deleted before this person was enrolled';
      return items.map((item) => ({ itemId: item.id, outcome: 'refused', errors: [{ field: 'sequence', message }] }));
    }
    const result = await enrollPeople(tx, {
      sequence,
      steps: (await findVersion(tx, sequence.id, sequence.currentVersion))?.steps ?? [],
      people,
      source: 'filter',
      actor: { userId: ctx.run.createdByUserId, label: options.actorLabel },
      now: new Date(),
      startAt: options.startAt ? new Date(options.startAt) : undefined,
      withJobs: false,
    });
    const enrolled = new Set(result.created.map((row) => row.candidateId));
    const refused = new Map(result.refused.map((refusal) => [refusal.candidateId, refusal.reason]));
    return items.map((item): ItemOutcome<Outcome> => {
      const id = item.candidateId ?? '';
      if (!byId.has(id))
        return { itemId: item.id, outcome: 'gone', errors: [{ field: 'candidate', message: 'The candidate was deleted before being enrolled' }] };
      if (enrolled.has(id)) return { itemId: item.id, outcome: 'enrolled', errors: null };
      const reason = refused.get(id);
      if (reason) return { itemId: item.id, outcome: 'refused', errors: [{ field: 'candidate', message: reason }] };
      return { itemId: item.id, outcome: 'already_enrolled', errors: null };
    });
  },
  // The batch's new enrollments get their first step's job now, not at the next minute's sweep.
  afterBatch: (deps) => sweepSequences(deps),
});
/** Resolves when the run's background processing (if any, in this process) has settled. */
export const whenEnrollmentRunSettled = sequenceEnrollmentRuns.whenSettled;
