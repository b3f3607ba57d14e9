import type { Actor } from '../../audit';
import type { Executor } from '../../db/scoped';
import { insertContactEvents } from '../candidates/service';
import { insertStepRuns, type EnrollmentRow } from './queries';

type Words = { summary: string; details: Record<string, unknown> };

/** An enrollment's start or end as its timeline and the person's contact history tell it. */
export interface Milestone {
  kind: 'enrolled' | 'exited';
  /** The entry on the enrollment's timeline (no step: it is not a step that ran). */
  timeline: (row: EnrollmentRow) => Words;
  /** The contact history's entry; its details add to the sequence and enrollment ids. */
  contact: (row: EnrollmentRow) => Words;
}

/** Writes a milestone for each enrollment: one timeline entry and one contact event per person. */
export async function recordMilestones(tx: Executor, enrollments: EnrollmentRow[], milestone: Milestone, actor: Actor): Promise<void> {
  await insertStepRuns(
    tx,
    enrollments.map((row) => ({
      organizationId: row.organizationId,
      enrollmentId: row.id,
      sequenceId: row.sequenceId,
      version: row.version,
      stepIndex: null,
      kind: milestone.kind,
      ...milestone.timeline(row),
    })),
  );
  await insertContactEvents(
    tx,
    enrollments.map((row) => {
      const { summary, details } = milestone.contact(row);
      return {
        organizationId: row.organizationId,
        candidateId: row.candidateId,
        kind: 'sequence',
        summary,
        details: { sequenceId: row.sequenceId, enrollmentId: row.id, ...details },
        referenceId: row.id,
        actorUserId: actor.userId,
        actorLabel: actor.label,
      };
    }),
  );
}
