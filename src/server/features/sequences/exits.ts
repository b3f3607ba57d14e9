import { and, eq, inArray } from 'drizzle-orm';
import type { ExitReason } from '../../../contract/sequences';
import { sequence } from '../../db/schema';
import type { Executor, Transaction } from '../../db/scoped';
import { recordAudit, rowChange, type Actor } from '../../audit';
import { recordMilestones } from './milestones';
import { exitEnrollmentRows, liveEnrollmentsOf, type EnrollmentRow } from './queries';

/**
 * Ending enrollments: the one place an enrollment leaves its sequence early. Other features call the hooks
 * below in the transaction of the change that ends it (a reply, STOP, a booking, a status change), so a
 * person is never texted after the moment they answered. This module depends on nothing that sends, so
 * SMS, calls and prescreen can import it without a cycle.
 */

export const EXIT_WORDS: Record<ExitReason, string> = {
  replied: 'replied',
  booked: 'booked a visit',
  opted_out: 'opted out',
  do_not_contact: 'do not contact',
  status_changed: 'status changed',
  stopped: 'stopped by staff',
  prescreen_failed: 'prescreen failed',
  sequence_archived: 'sequence archived',
};

/** Ends `enrollments` with `reason`: state, timeline, contact history and audit. */
export async function endEnrollments(
  tx: Executor,
  enrollments: EnrollmentRow[],
  reason: ExitReason,
  now: Date,
  actor: Actor = { userId: null, label: 'Sequence' },
): Promise<void> {
  if (!enrollments.length) return;
  await exitEnrollmentRows(
    tx,
    enrollments.map((row) => row.id),
    reason,
    now,
  );
  const names = await sequenceNames(tx, [...new Set(enrollments.map((row) => row.sequenceId))]);
  await recordMilestones(
    tx,
    enrollments,
    {
      kind: 'exited',
      timeline: (row) => ({ summary: `Exited: ${EXIT_WORDS[reason]}`, details: { reason, atStep: row.stepIndex } }),
      contact: (row) => ({ summary: `Sequence stopped (${EXIT_WORDS[reason]}): ${names.get(row.sequenceId) ?? ''}`, details: { reason } }),
    },
    actor,
  );
  for (const row of enrollments) {
    await recordAudit(
      tx,
      rowChange(actor.userId, row, 'sequence.enrollment.exit', 'sequence_enrollment', { candidateId: row.candidateId, sequenceId: row.sequenceId, reason }),
    );
  }
}

async function sequenceNames(tx: Executor, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await tx.select({ id: sequence.id, name: sequence.name }).from(sequence).where(inArray(sequence.id, ids));
  return new Map(rows.map((row) => [row.id, row.name]));
}

/**
 * A candidate's live enrollments end: every one (opt-out, booking, status), or for a reply only those of
 * sequences that end on a reply.
 */
export async function exitCandidateSequences(tx: Transaction, candidateId: string, reason: ExitReason, now = new Date()): Promise<void> {
  let live = await liveEnrollmentsOf(tx, [candidateId]);
  if (!live.length) return;
  if (reason === 'replied') {
    const rows = await tx
      .select({ id: sequence.id })
      .from(sequence)
      .where(
        and(
          eq(sequence.exitOnReply, true),
          inArray(
            sequence.id,
            live.map((row) => row.sequenceId),
          ),
        ),
      );
    const ending = new Set(rows.map((row) => row.id));
    live = live.filter((row) => ending.has(row.sequenceId));
  }
  await endEnrollments(tx, live, reason, now);
}

/** Statuses that end every sequence (the person is enrolled, screened out, or must not be contacted). */
export const EXITING_STATUSES: Record<string, ExitReason> = {
  enrolled: 'status_changed',
  prescreen_failed: 'status_changed',
  not_interested: 'status_changed',
  do_not_contact: 'do_not_contact',
};

/** After a candidate's status or do-not-contact changed (`values` as written): their sequences end when the change says so. */
export async function exitOnFunnelChange(
  tx: Transaction,
  candidateId: string,
  values: { status?: string; doNotContact?: boolean },
  now = new Date(),
): Promise<void> {
  // Booking a visit ends outreach at that moment; someone already booked may still join a sequence later
  // (a no-show follow-up), so visit_scheduled is not among the statuses that refuse enrollment.
  const reason = values.doNotContact
    ? 'do_not_contact'
    : values.status === 'visit_scheduled'
      ? 'booked'
      : values.status
        ? EXITING_STATUSES[values.status]
        : undefined;
  if (reason) await exitCandidateSequences(tx, candidateId, reason, now);
}
