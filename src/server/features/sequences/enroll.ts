import { randomUUID } from 'node:crypto';
import type { EnrollmentSource, SequenceStep, SequenceTrigger } from '../../../contract/sequences';
import type { Transaction } from '../../db/scoped';
import { recordAudit, rowChange, type Actor } from '../../audit';
import { findCandidates, type CandidateRow } from '../candidates/service';
import { EXITING_STATUSES } from './exits';
import { recordMilestones } from './milestones';
import { findVersion, insertEnrollments, liveCandidateIds, sequencesWithTrigger, type EnrollmentRow, type SequenceRow } from './queries';

/**
 * Putting candidates into a sequence: by staff (selection, saved filter, trial matcher) and by triggers.
 * Refused, with the reason, when the person cannot be reached on a channel the sequence uses: the same
 * consent facts every single message and call checks (do-not-contact, SMS consent or opt-out, call consent).
 */

const ENROLL_CHUNK = 1000;

export interface Refusal {
  candidateId: string;
  candidateName: string;
  reason: string;
}

/** Why `person` cannot go through these steps, or null. */
export function enrollmentRefusal(person: CandidateRow, steps: SequenceStep[]): string | null {
  if (person.doNotContact) return 'Do not contact';
  if (EXITING_STATUSES[person.status]) return `Status is ${person.status.replace(/_/g, ' ')}`;
  const channels = new Set(steps.map((step) => (step.type === 'call' ? `call:${step.agentType}` : step.type)));
  if (channels.has('sms')) {
    if (!person.phone) return 'No phone number for SMS';
    if (!person.consentSms) return 'No SMS consent (or opted out)';
  }
  if ((channels.has('call:PRESCREEN') || channels.has('call:SITE_VISIT_SCHEDULING')) && !person.phone) return 'No phone number for calls';
  if (channels.has('call:PRESCREEN') && !person.consentCalls) return 'No call consent';
  if (channels.has('email') && !person.email) return 'No email address';
  return null;
}

export interface EnrollOptions {
  sequence: SequenceRow;
  steps: SequenceStep[];
  people: CandidateRow[];
  source: EnrollmentSource;
  actor: Actor;
  now: Date;
  startAt?: Date;
  /** Give each enrollment its job id now (the caller queues the jobs after the commit); without, the sweep does. */
  withJobs: boolean;
}

export async function enrollPeople(
  tx: Transaction,
  options: EnrollOptions,
): Promise<{ created: EnrollmentRow[]; alreadyEnrolled: number; refused: Refusal[] }> {
  const { sequence, steps, people, now } = options;
  const live = await liveCandidateIds(
    tx,
    sequence.id,
    people.map((person) => person.id),
  );
  const refused: Refusal[] = [];
  const eligible: CandidateRow[] = [];
  for (const person of people) {
    if (live.has(person.id)) continue;
    const reason = enrollmentRefusal(person, steps);
    if (reason) refused.push({ candidateId: person.id, candidateName: `${person.firstName} ${person.lastName}`.trim(), reason });
    else eligible.push(person);
  }
  const runAt = options.startAt && options.startAt.getTime() > now.getTime() ? options.startAt : now;
  const label =
    options.source === 'manual' || options.source === 'filter' || options.source === 'trial_matcher' ? 'by staff' : `on ${options.source.replace(/_/g, ' ')}`;
  const created: EnrollmentRow[] = [];
  // In chunks: a statement carries at most 65,535 parameters.
  for (let start = 0; start < eligible.length; start += ENROLL_CHUNK) {
    const chunk = await insertEnrollments(
      tx,
      eligible.slice(start, start + ENROLL_CHUNK).map((person) => ({
        organizationId: sequence.organizationId,
        sequenceId: sequence.id,
        version: sequence.currentVersion,
        candidateId: person.id,
        status: 'active' as const,
        source: options.source,
        stepIndex: 0,
        nextRunAt: runAt,
        stepStartedAt: now,
        jobId: options.withJobs ? randomUUID() : null,
        enrolledByUserId: options.actor.userId,
      })),
    );
    await recordMilestones(
      tx,
      chunk,
      {
        kind: 'enrolled',
        timeline: (row) => ({ summary: `Enrolled ${label} (version ${row.version})`, details: { source: row.source } }),
        contact: (row) => ({ summary: `Enrolled in sequence: ${sequence.name}`, details: { source: row.source } }),
      },
      options.actor,
    );
    created.push(...chunk);
  }
  if (created.length) {
    await recordAudit(
      tx,
      rowChange(options.actor.userId, sequence, 'sequence.enroll', 'sequence', { source: options.source, candidateIds: created.map((row) => row.candidateId) }),
    );
  }
  return { created, alreadyEnrolled: people.length - eligible.length - refused.length + (eligible.length - created.length), refused };
}

/**
 * A trigger fired for candidates (in the transaction of the event): they join every active sequence of the
 * organization listening for it (the trial's, and those of no trial). Refusals are silent here: the person
 * is simply not enrolled. The sweep queues their first step within a minute.
 */
export async function enrollOnTrigger(
  tx: Transaction,
  organizationId: string,
  trigger: SequenceTrigger,
  candidateIds: string[],
  trialIds: string[],
  now = new Date(),
): Promise<number> {
  if (!candidateIds.length) return 0;
  const sequences = await sequencesWithTrigger(tx, organizationId, trigger, trialIds);
  if (!sequences.length) return 0;
  const people = (await findCandidates(tx, candidateIds)).filter((person) => person.organizationId === organizationId);
  let enrolled = 0;
  for (const sequence of sequences) {
    const version = await findVersion(tx, sequence.id, sequence.currentVersion);
    if (!version) continue;
    const result = await enrollPeople(tx, {
      sequence,
      steps: version.steps,
      people,
      source: trigger,
      actor: { userId: null, label: 'Sequence trigger' },
      now,
      withJobs: false,
    });
    enrolled += result.created.length;
  }
  return enrolled;
}
