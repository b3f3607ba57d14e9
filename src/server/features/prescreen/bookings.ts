import { and, desc, eq } from 'drizzle-orm';
import type { ActivityKind, ActivitySource } from '../../../contract/activity';
import type { Booking, BookingOutcome, CreateBookingInput } from '../../../contract/prescreen';
import { siteShortLabel, type TrialSite } from '../../../contract/trials';
import { findSite, readSites } from '../trials/sites';
import { canReach, runScoped, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import { isUniqueViolation } from '../../db/postgres';
import { booking, prescreenResult } from '../../db/schema';
import { runAsOrganization, type Transaction } from '../../db/scoped';
import { systemDb } from '../../db/system';
import { AppError, badRequest, conflict, notFound } from '../../http/errors';
import { recordAudit, rowChange } from '../../audit';
import { recordActivity } from '../../activity';
import { funnelSignals } from '../../funnel-signals';
import { findCandidate, insertContactEvents, userName, type CandidateRow, changeCandidateStatus } from '../candidates/service';
import { sendSms } from '../sms/service';
import { queueVisitFeedback, type FeedbackDeps } from './visit-feedback';
import { patientTrialName } from '../../../contract/trial-name';
import { whenInWords } from '../../../contract/when-words';
import { findTrialRow } from '../trials/service';
import { isValidTimeZone, localTimeToUtc, toLocalTime } from '../../../contract/time-zones';
import { findBooking, setBookingStatus, findResult, insertBooking, setBookingConfirmation, latestResultFor, type BookingRow, type ResultRow } from './queries';
import { event, loadCandidate, staffActor, type PrescreenActor } from './actors';
import { isUuid } from '../../../contract/ids';

/**
 * Screening visits: booking one for an approved result (staff, or a scheduling call's agent), its confirmation
 * and booking-feedback SMS, and what happened at it (attended, no-show, cancelled).
 */

export function toBooking(row: BookingRow): Booking {
  return {
    id: row.id,
    organizationId: row.organizationId,
    candidateId: row.candidateId,
    trialId: row.trialId,
    prescreenResultId: row.prescreenResultId,
    siteId: row.siteId,
    siteName: row.siteName,
    siteCity: row.siteCity,
    siteTimeZone: row.siteTimeZone,
    startsAt: row.startsAt.toISOString(),
    localTime: toLocalTime(row.startsAt, row.siteTimeZone),
    durationMinutes: row.durationMinutes,
    status: row.status,
    confirmationSms: row.confirmationSms,
    createdByUserId: row.createdByUserId,
    createdAt: row.createdAt.toISOString(),
  };
}

const DEFAULT_VISIT_MINUTES = 60;

/**
 * Books a screening visit at one of the trial's sites for an approved result: the local time is read in the
 * site's time zone (or the body's, when the site has none) and stored in UTC. One scheduled booking per site
 * slot (409), never in the past (400). Moves the candidate to visit_scheduled.
 */
const OUTCOME_ACTIVITY = { completed: 'visit_attended', no_show: 'visit_no_show', cancelled: 'visit_cancelled' } as const satisfies Record<
  BookingOutcome,
  ActivityKind
>;
const OUTCOME_WORDS: Record<BookingOutcome, string> = { completed: 'Visit attended', no_show: 'No-show at the screening visit', cancelled: 'Visit cancelled' };

/**
 * Records what happened at a booked visit: attended, no-show, or cancelled (which frees the slot). A no-show
 * starts the sequences listening for it. Changing a recorded outcome is allowed (a late arrival was marked a
 * no-show); going back to scheduled is not (book again instead).
 */
export async function recordBookingOutcome(db: Database, scope: RequestScope, bookingId: string, status: BookingOutcome): Promise<Booking> {
  return runScoped(db, scope, async (tx) => {
    const row = isUuid(bookingId) ? await findBooking(tx, bookingId, true) : undefined;
    if (!row || !canReach(scope, row.organizationId)) throw notFound('Booking not found');
    if (row.status === status) return toBooking(row);
    if (row.status === 'cancelled') throw conflict('This visit was cancelled: book a new one instead');
    const updated = await setBookingStatus(tx, row.id, status);
    await recordActivity(tx, [
      {
        organizationId: row.organizationId,
        trialId: row.trialId,
        candidateId: row.candidateId,
        kind: OUTCOME_ACTIVITY[status],
        source: 'manual',
        label: row.siteId ?? '',
        referenceId: row.id,
      },
    ]);
    const actor = { userId: scope.userId, label: (await userName(tx, scope.userId)) ?? 'Staff' };
    await insertContactEvents(tx, [
      {
        organizationId: row.organizationId,
        candidateId: row.candidateId,
        kind: 'booking',
        summary: `${OUTCOME_WORDS[status]} (${toBooking(row).localTime.replace('T', ' ')})`,
        details: { bookingId: row.id, from: row.status, to: status },
        referenceId: row.id,
        actorUserId: actor.userId,
        actorLabel: actor.label,
      },
    ]);
    await recordAudit(tx, {
      organizationId: row.organizationId,
      actorUserId: scope.userId,
      action: `booking.${status}`,
      entityType: 'booking',
      entityId: row.id,
      changes: { candidateId: row.candidateId, status: { from: row.status, to: status } },
    });
    if (status === 'no_show') await funnelSignals.triggered(tx, row.organizationId, 'visit_no_show', [row.candidateId], [row.trialId]);
    return toBooking(updated);
  });
}

export async function createBooking(deps: FeedbackDeps, scope: RequestScope, body: CreateBookingInput): Promise<Booking> {
  const booking = await insertBookingInScope(deps.db, scope, body);
  // After the booking is committed: a slow or failing SMS provider never loses the booking.
  return { ...booking, confirmationSms: await sendBookingConfirmation(deps, booking) };
}

/** After a booking made outside a staff request (a scheduling call) has committed: its confirmation SMS. */
export async function confirmBooking(deps: FeedbackDeps, bookingId: string): Promise<Booking['confirmationSms'] | null> {
  // The system path: the booking's organization is not known yet.
  const [row] = await systemDb(deps.db).select().from(booking).where(eq(booking.id, bookingId));
  if (row?.confirmationSms !== 'not_configured') return null;
  return sendBookingConfirmation(deps, toBooking(row));
}

/**
 * The confirmation SMS of a booking, through the SMS port and its consent rules, its state kept on the booking:
 * the time in words in the site's zone and the person's language, the trial by its short name. The question how
 * it went waits until after the visit (visit-feedback.ts).
 */
export async function sendBookingConfirmation(deps: FeedbackDeps, booking: Booking): Promise<Booking['confirmationSms']> {
  const trial = await runAsOrganization(deps.db, booking.organizationId, (tx) => findTrialRow(tx, booking.trialId));
  const site = trial && booking.siteId ? findSite(trial.sites, booking.siteId) : undefined;
  // The booked site's facility, street address and city: "Research Site, 100 Main St, Chicago".
  const where = site
    ? [site.name, site.address, site.city, site.region].filter(Boolean).join(', ')
    : [booking.siteName, booking.siteCity].filter(Boolean).join(', ');
  const sent = await sendSms(deps, {
    organizationId: booking.organizationId,
    candidateId: booking.candidateId,
    templateKey: 'visit_confirmation',
    variables: (language) => ({
      trialTitle: patientTrialName(trial, language),
      visitTime: whenInWords(booking.startsAt, booking.siteTimeZone, language),
      siteAddress: where,
    }),
    purpose: 'transactional',
    sentByUserId: booking.createdByUserId,
  });
  const state: Booking['confirmationSms'] =
    sent.status === 'blocked' ? 'blocked' : sent.status === 'failed' || sent.status === 'undelivered' ? 'failed' : sent.status === 'queued' ? 'queued' : 'sent';
  await runAsOrganization(deps.db, booking.organizationId, (tx) => setBookingConfirmation(tx, booking.id, state));
  if (state === 'sent' || state === 'queued') {
    await queueVisitFeedback(deps, {
      bookingId: booking.id,
      organizationId: booking.organizationId,
      startsAt: new Date(booking.startsAt),
      durationMinutes: booking.durationMinutes,
      siteTimeZone: booking.siteTimeZone,
    });
  }
  return state;
}

async function insertBookingInScope(db: Database, scope: RequestScope, body: CreateBookingInput): Promise<Booking> {
  try {
    return await runScoped(db, scope, async (tx) => {
      let result;
      if (body.resultId) {
        result = await findResult(tx, body.resultId, true);
        if (!result || !canReach(scope, result.organizationId)) throw notFound('Prescreen result not found');
      } else {
        const candidateRow = await loadCandidate(tx, scope, body.candidateId!);
        const trial = isUuid(body.trialId!) ? await findTrialRow(tx, body.trialId!) : undefined;
        if (!trial || trial.organizationId !== candidateRow.organizationId) throw notFound('Trial not found');
        result = await latestResultFor(tx, candidateRow.id, trial.id);
        if (!result) throw conflict('Approve the prescreen before booking');
      }
      if (result.reviewStatus !== 'approved') throw conflict('Approve the prescreen before booking');
      const candidateRow = await loadCandidate(tx, scope, result.candidateId, true);
      return insertBookingInTransaction(tx, await staffActor(tx, scope), result, candidateRow, body);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('That slot is already booked');
    throw error;
  }
}

/**
 * The site a booking names: by id (what the web and the agents send), else by name only when exactly one of
 * the trial's sites has it (many sponsors name every site "Research Site": a name alone must not pick one).
 */
function chooseSite(stored: TrialSite[], body: Pick<CreateBookingInput, 'siteId' | 'siteName'>): TrialSite {
  const sites = readSites(stored);
  if (body.siteId) {
    const site = sites.find((item) => item.id === body.siteId);
    if (!site) throw badRequest('siteId: Not a site of this trial', [{ path: 'siteId', message: 'Not a site of this trial' }]);
    return site;
  }
  const name = body.siteName?.trim() ?? '';
  const named = sites.filter((item) => item.name.trim() === name);
  if (named.length === 1) return named[0];
  if (named.length > 1) {
    throw badRequest(`siteId: ${named.length} sites of this trial are named ${name}; choose one by siteId`, [
      { path: 'siteId', message: 'Several sites have this name' },
    ]);
  }
  throw badRequest('siteId: Not a site of this trial', [{ path: 'siteId', message: 'Not a site of this trial' }]);
}

/** Where and when a visit is booked (the booking body without the result it follows from). */
export type VisitRequest = Pick<CreateBookingInput, 'siteId' | 'siteName' | 'localTime' | 'timeZone' | 'durationMinutes' | 'notes'>;

/**
 * Books a visit for an approved result inside an open transaction (staff bookings and scheduling calls): the
 * site must be the trial's, the local time real and in the future at the site's time zone; stores the booking,
 * the 'booking' contact event, moves the candidate to visit_scheduled (unless enrolled) and audits. A taken
 * slot fails on the booking_slot unique index: callers inside a larger transaction use a savepoint.
 */
export async function insertBookingInTransaction(
  tx: Transaction,
  actor: PrescreenActor,
  result: ResultRow,
  candidateRow: CandidateRow,
  body: VisitRequest,
  channel: ActivitySource = 'manual',
): Promise<Booking> {
  if (candidateRow.doNotContact) throw conflict('The candidate asked not to be contacted');
  const trial = await findTrialRow(tx, result.trialId);
  if (!trial) throw notFound('Trial not found');

  const site = chooseSite(trial.sites, body);
  const timeZone = site.timeZone || body.timeZone;
  if (!timeZone)
    throw badRequest('timeZone: The site has no time zone; give timeZone (IANA, e.g. America/New_York)', [
      { path: 'timeZone', message: 'Required for this site' },
    ]);
  if (!isValidTimeZone(timeZone)) {
    const path = site.timeZone ? 'siteId' : 'timeZone';
    throw badRequest(`${path}: Unknown time zone ${timeZone}`, [{ path, message: `Unknown time zone ${timeZone}` }]);
  }
  const converted = localTimeToUtc(body.localTime, timeZone);
  if (!converted.ok) throw badRequest(`localTime: ${converted.message}`, [{ path: 'localTime', message: converted.message }]);
  if (converted.instant.getTime() <= Date.now()) throw badRequest('localTime: That time is in the past', [{ path: 'localTime', message: 'In the past' }]);

  const row = await insertBooking(tx, {
    organizationId: result.organizationId,
    candidateId: result.candidateId,
    trialId: result.trialId,
    prescreenResultId: result.id,
    siteId: site.id,
    siteName: site.name,
    siteCity: site.city ?? null,
    siteTimeZone: timeZone,
    startsAt: converted.instant,
    durationMinutes: body.durationMinutes ?? DEFAULT_VISIT_MINUTES,
    notes: body.notes ?? null,
    createdByUserId: actor.userId,
  });
  const booking = toBooking(row);
  await recordActivity(tx, [
    {
      organizationId: row.organizationId,
      trialId: row.trialId,
      candidateId: row.candidateId,
      kind: 'visit_booked',
      source: channel,
      label: row.siteId ?? '',
      referenceId: row.id,
    },
  ]);
  await insertContactEvents(tx, [
    event(candidateRow, actor, 'booking', {
      summary: `Visit booked: ${siteShortLabel(site)}, ${booking.localTime} (${timeZone})`,
      details: {
        bookingId: row.id,
        resultId: result.id,
        siteId: site.id,
        siteName: site.name,
        siteCity: site.city ?? null,
        startsAt: booking.startsAt,
        localTime: booking.localTime,
        timeZone,
      },
      referenceId: row.id,
    }),
  ]);
  if (candidateRow.status !== 'enrolled') {
    await changeCandidateStatus(tx, candidateRow, 'visit_scheduled', { actor, reason: 'Screening visit booked', action: 'candidate.status.booking', channel });
  }
  await recordAudit(
    tx,
    rowChange(actor.userId, row, 'prescreen.booking.create', 'booking', {
      resultId: result.id,
      trialId: row.trialId,
      siteId: row.siteId,
      siteName: row.siteName,
      startsAt: booking.startsAt,
      timeZone,
      durationMinutes: row.durationMinutes,
    }),
  );
  return booking;
}

/** Why an agent could not book (scheduling calls keep it on the call). */
export class VisitNotBooked extends Error {
  constructor(
    readonly reason: 'no_approved_result' | 'slot_taken' | 'do_not_contact' | 'invalid',
    message: string,
  ) {
    super(message);
  }
}

/**
 * A voice agent books the visit a candidate chose (row security already limits `tx` to the candidate's
 * organization): it follows from the candidate's newest APPROVED result for the trial. Runs in a savepoint, so
 * a refusal (VisitNotBooked) leaves the caller's transaction usable. The confirmation SMS is not sent here: the
 * caller sends it after its commit (sendBookingConfirmation), as the staff path does.
 */
export async function bookVisitForCandidate(
  tx: Transaction,
  actor: PrescreenActor,
  input: { candidateId: string; trialId: string } & VisitRequest,
): Promise<Booking> {
  try {
    return await tx.transaction(async (savepoint) => {
      const [result] = await savepoint
        .select()
        .from(prescreenResult)
        .where(
          and(eq(prescreenResult.candidateId, input.candidateId), eq(prescreenResult.trialId, input.trialId), eq(prescreenResult.reviewStatus, 'approved')),
        )
        .orderBy(desc(prescreenResult.createdAt), desc(prescreenResult.id))
        .limit(1);
      if (!result) throw new VisitNotBooked('no_approved_result', 'No approved prescreen for this trial');
      const candidateRow = await findCandidate(savepoint, input.candidateId, true);
      if (!candidateRow) throw notFound('Candidate not found');
      if (candidateRow.doNotContact) throw new VisitNotBooked('do_not_contact', 'The candidate asked not to be contacted');
      return insertBookingInTransaction(savepoint, actor, result, candidateRow, input, 'call');
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new VisitNotBooked('slot_taken', 'That slot is already booked');
    if (error instanceof AppError) throw new VisitNotBooked('invalid', error.message);
    throw error;
  }
}
