import { patientTrialName } from '../../../contract/trial-name';
import { nextCallingTime } from '../../calling-hours';
import { runAsOrganization } from '../../db/scoped';
import type { AppDeps } from '../../http/context';
import { QUEUES } from '../../jobs/jobs';
import { latestTemplateSentTo, sendSms } from '../sms/service';
import { findBooking } from './queries';
import { findTrialRow } from '../trials/service';

/**
 * The satisfaction question of a visit (issue 32): asked after the visit, not with the booking. Its job waits
 * until an hour after the visit's end, inside 08:00-21:00 at the site; the 1-5 reply is the rating (sms/inbound.ts).
 */
export interface VisitFeedbackJob {
  bookingId: string;
  organizationId: string;
}

/** Long enough for the person to have left the site; short enough to remember the visit. */
const AFTER_VISIT_MS = 60 * 60_000;

export type FeedbackDeps = Pick<AppDeps, 'db' | 'sms' | 'config' | 'logger' | 'jobs'>;

/** When a visit's question may go: an hour after its end, moved into the site's daytime. */
export function feedbackTimeOf(visit: { startsAt: Date; durationMinutes: number; siteTimeZone: string }): Date {
  const after = new Date(visit.startsAt.getTime() + visit.durationMinutes * 60_000 + AFTER_VISIT_MS);
  return nextCallingTime(after, visit.siteTimeZone);
}

export async function queueVisitFeedback(
  deps: Pick<AppDeps, 'jobs'>,
  visit: VisitFeedbackJob & { startsAt: Date; durationMinutes: number; siteTimeZone: string },
): Promise<void> {
  await deps.jobs.send(QUEUES.visitFeedback, { bookingId: visit.bookingId, organizationId: visit.organizationId }, { startAfter: feedbackTimeOf(visit) });
}

export type FeedbackOutcome = 'asked' | 'not_due' | 'not_attended' | 'already_asked';

/**
 * The visit-feedback job: asks once, and only about a visit that is over and was neither cancelled nor missed.
 * A visit moved later is asked about at its new time (queued again).
 */
export async function askVisitFeedback(deps: FeedbackDeps, job: VisitFeedbackJob, now = new Date()): Promise<FeedbackOutcome> {
  const found = await runAsOrganization(deps.db, job.organizationId, async (tx) => {
    const visit = await findBooking(tx, job.bookingId);
    if (!visit) return null;
    const asked = await latestTemplateSentTo(tx, visit.candidateId, 'booking_feedback', visit.createdAt);
    return { visit, asked: Boolean(asked), trial: await findTrialRow(tx, visit.trialId) };
  });
  if (!found || found.visit.status === 'cancelled' || found.visit.status === 'no_show') return 'not_attended';
  if (found.asked) return 'already_asked';
  const { visit, trial } = found;
  if (feedbackTimeOf(visit).getTime() > now.getTime() + 5_000) {
    await queueVisitFeedback(deps, { ...job, startsAt: visit.startsAt, durationMinutes: visit.durationMinutes, siteTimeZone: visit.siteTimeZone });
    return 'not_due';
  }
  await sendSms(deps, {
    organizationId: visit.organizationId,
    candidateId: visit.candidateId,
    templateKey: 'booking_feedback',
    variables: (language) => ({ trialTitle: patientTrialName(trial, language) }),
    purpose: 'transactional',
    now,
  });
  return 'asked';
}
