import { and, desc, eq } from 'drizzle-orm';
import type { CandidateStatus, ContactEventKind } from '../../../contract/candidates';
import type {
  AiRecommendation,
  Booking,
  BookingOutcome,
  CreateBookingInput,
  CriterionEvaluationDto,
  DecisionBody,
  ListPrescreenResultsQuery,
  PrescreenAnswer,
  PrescreenAnswerInput,
  PrescreenDecision,
  PrescreenResult,
  PrescreenResultList,
  PrescreenReview,
  PrescreenSourceType,
} from '../../../contract/prescreen';
import { siteShortLabel, type TrialSite } from '../../../contract/trials';
import { findSite, readSites } from '../trials/sites';
import { canReach, runScoped, selectOrganizations, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import { booking, prescreenResult } from '../../db/schema';
import { runAsOrganization, type Transaction } from '../../db/scoped';
import { systemDb } from '../../db/system';
import { AppError, badRequest, conflict, notFound } from '../../http/errors';
import { recordAudit } from '../../audit';
import { enrollOnTrigger } from '../sequences/enroll';
import { findCandidate, insertContactEvents, linkTrial, trialIdsByCandidate, userName, type CandidateRow, type NewContactEvent } from '../candidates/queries';
import { changeCandidateStatus } from '../candidates/service';
import { recordPrescreenFacts } from '../matching/facts';
import { sendSms, type SmsDeps } from '../sms/service';
import { listCriteria, findTrialRow } from '../trials/queries';
import { isValidTimeZone, localTimeToUtc, toLocalTime } from '../../../contract/time-zones';
import { evaluatePrescreen, normalizeAnswers } from './engine';
import {
  bookingsOfCandidate,
  findBooking,
  setBookingStatus,
  cancelBookings,
  countResultRows,
  findForm,
  findFormVersion,
  findFormVersionById,
  findResult,
  insertBooking,
  setBookingConfirmation,
  insertResult,
  isUuid,
  latestResultFor,
  listedResult,
  listedResultsOfCandidate,
  listResultRows,
  scheduledBookingsOfResults,
  trialsByIds,
  updateResult,
  type BookingRow,
  type ListedResultRow,
  type ResultRow,
} from './queries';

// ---- who acts, and where ----

/** Who a change is attributed to: a staff member, or an agent (voice, chat) with no user. */
export interface PrescreenActor {
  userId: string | null;
  label: string;
}

/** Which organizations a call may touch: a request scope, or one organization (agents, webhooks). */
export type PrescreenTarget = RequestScope | { organizationId: string };

const reachableIds = (target: PrescreenTarget) => ('organizationId' in target ? [target.organizationId] : target.reachableOrganizationIds);

function runIn<T>(db: Database, target: PrescreenTarget, work: (tx: Transaction) => Promise<T>): Promise<T> {
  if ('organizationId' in target) return runAsOrganization(db, target.organizationId, work);
  return runScoped(db, target, work);
}

async function staffActor(tx: Transaction, scope: RequestScope): Promise<PrescreenActor> {
  return { userId: scope.userId, label: (await userName(tx, scope.userId)) ?? 'Staff' };
}

const AGENT_LABEL: Record<PrescreenSourceType, string> = { call: 'Voice agent', chat: 'Chat agent', manual: 'Staff' };

const event = (row: { id: string; organizationId: string }, actor: PrescreenActor, kind: ContactEventKind, values: Omit<NewContactEvent, 'organizationId' | 'candidateId' | 'kind'>): NewContactEvent => ({
  organizationId: row.organizationId,
  candidateId: row.id,
  kind,
  actorUserId: actor.userId,
  actorLabel: actor.label,
  ...values,
});

// ---- the funnel ----

/** Statuses a prescreen outcome does not move a candidate back from. */
const FURTHER_ALONG: CandidateStatus[] = ['visit_scheduled', 'enrolled'];

const STATUS_FOR_RECOMMENDATION: Record<AiRecommendation, CandidateStatus> = {
  PASS: 'prescreen_passed',
  FAIL: 'prescreen_failed',
  INCONCLUSIVE: 'prescreening',
  POTENTIAL: 'prescreening',
};

// ---- mapping ----

interface StoredDecision extends PrescreenDecision {
  /** Earlier decisions on the same result, newest first. */
  previous?: PrescreenDecision[];
}

function currentDecision(stored: Record<string, unknown> | null): PrescreenDecision | null {
  if (!stored) return null;
  const { previous: _previous, ...decision } = stored as unknown as StoredDecision;
  return decision;
}

function toBooking(row: BookingRow): Booking {
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

function toResult(row: ListedResultRow, booking: BookingRow | undefined): PrescreenResult {
  const { result } = row;
  return {
    id: result.id,
    organizationId: result.organizationId,
    candidate: { id: result.candidateId, firstName: row.firstName, lastName: row.lastName },
    trial: { id: result.trialId, title: row.trialTitle },
    formId: result.formId,
    formVersion: row.formVersion,
    formVersionId: result.formVersionId,
    sourceType: result.sourceType,
    sourceId: result.sourceId,
    answers: result.answers as PrescreenAnswer[],
    evaluations: result.evaluations as CriterionEvaluationDto[],
    aiRecommendation: result.aiRecommendation,
    aiReasons: result.aiReasons ?? [],
    reviewStatus: result.reviewStatus,
    decision: currentDecision(result.decision),
    booking: booking ? toBooking(booking) : null,
    createdByUserId: result.createdByUserId,
    createdAt: result.createdAt.toISOString(),
    updatedAt: result.updatedAt.toISOString(),
  };
}

async function withBookings(tx: Transaction, rows: ListedResultRow[]): Promise<PrescreenResult[]> {
  const bookings = await scheduledBookingsOfResults(tx, rows.map((row) => row.result.id));
  return rows.map((row) => toResult(row, bookings.find((booking) => booking.prescreenResultId === row.result.id)));
}

async function loadResult(tx: Transaction, id: string): Promise<PrescreenResult> {
  const row = await listedResult(tx, id);
  if (!row) throw notFound('Prescreen result not found');
  return (await withBookings(tx, [row]))[0];
}

// ---- recording a result (manual runs now; calls and chats later) ----

export interface RecordPrescreenInput {
  candidateId: string;
  /** The form; its current version is the one asked. */
  formId: string;
  sourceType: PrescreenSourceType;
  /** The call or conversation id; null for a manual run. */
  sourceId?: string | null;
  answers: PrescreenAnswerInput[];
  /** Defaults to the staff member of a scope, or the agent of the source type. */
  actor?: PrescreenActor;
}

const todayUtc = () => new Date().toISOString().slice(0, 10);

/**
 * Records one prescreen inside an open transaction: checks the answers against the form's current version
 * (400 naming the question), runs the engine, stores the result, links the candidate to the trial, writes the
 * 'prescreen' contact event, moves the candidate along the funnel (through the candidates' status change,
 * so status history has it) and audits. Ids outside `reachable` answer 404.
 */
export async function recordPrescreenResultInTransaction(tx: Transaction, reachable: readonly string[], actor: PrescreenActor, input: RecordPrescreenInput): Promise<PrescreenResult> {
  const candidateRow = await findCandidate(tx, input.candidateId, true);
  if (!candidateRow || !reachable.includes(candidateRow.organizationId)) throw notFound('Candidate not found');
  const form = await findForm(tx, input.formId);
  if (!form || !reachable.includes(form.organizationId)) throw notFound('Prescreen form not found');
  if (form.organizationId !== candidateRow.organizationId) {
    throw badRequest("formId: The form belongs to another organization than the candidate's", [{ path: 'formId', message: "Not a form of the candidate's organization" }]);
  }
  if (form.status !== 'published') throw conflict('Publish the prescreen form before running it');
  const version = await findFormVersion(tx, form.id, form.currentVersion);
  if (!version) throw conflict(`The prescreen form has no version ${form.currentVersion}`);

  const checked = normalizeAnswers(version.blocks, input.answers);
  if (checked.issues.length) {
    throw badRequest(
      checked.issues.map((issue) => `answers.${issue.index}: ${issue.message}`).join('; '),
      checked.issues.map((issue) => ({ path: `answers.${issue.index}`, message: issue.message })),
    );
  }
  const criteria = await listCriteria(tx, [form.trialId]);
  const outcome = evaluatePrescreen({
    blocks: version.blocks,
    criteria: criteria.map((criterion) => ({ id: criterion.id, kind: criterion.kind, text: criterion.text })),
    answers: input.answers,
    today: todayUtc(),
  });

  const linked = (await trialIdsByCandidate(tx, [candidateRow.id])).get(candidateRow.id) ?? [];
  if (!linked.includes(form.trialId)) await linkTrial(tx, candidateRow.organizationId, form.trialId, [candidateRow.id]);

  const row = await insertResult(tx, {
    organizationId: candidateRow.organizationId,
    candidateId: candidateRow.id,
    trialId: form.trialId,
    formId: form.id,
    formVersionId: version.id,
    sourceType: input.sourceType,
    sourceId: input.sourceId ?? null,
    answers: outcome.answers,
    evaluations: outcome.evaluations,
    aiRecommendation: outcome.recommendation,
    aiReasons: outcome.reasons,
    createdByUserId: actor.userId,
  });
  // Every answered question linked to a criterion with a rule becomes a candidate fact the trial matcher uses.
  const rules = new Map(criteria.map((criterion) => [criterion.id, criterion.rule]));
  const questions = new Map(outcome.answers.map((answer) => [answer.questionId, answer.question]));
  const facts = await recordPrescreenFacts(
    tx,
    candidateRow.organizationId,
    candidateRow.id,
    row.id,
    outcome.evaluations.flatMap((evaluation) =>
      evaluation.decidingQuestionId && evaluation.decidingAnswer !== null
        ? [{ criterionId: evaluation.criterionId, rule: rules.get(evaluation.criterionId) ?? null, question: questions.get(evaluation.decidingQuestionId) ?? '', answer: evaluation.decidingAnswer }]
        : [],
    ),
  );
  await insertContactEvents(tx, [
    event(candidateRow, actor, 'prescreen', {
      summary: `Prescreen (${input.sourceType}): ${outcome.recommendation}`,
      details: { resultId: row.id, formId: form.id, formVersion: version.version, sourceType: input.sourceType, recommendation: outcome.recommendation },
      referenceId: row.id,
    }),
  ]);
  if (!FURTHER_ALONG.includes(candidateRow.status)) {
    await changeCandidateStatus(tx, candidateRow, STATUS_FOR_RECOMMENDATION[outcome.recommendation], {
      actor,
      reason: `Prescreen ${outcome.recommendation}`,
      action: 'candidate.status.prescreen',
    });
  }
  // POTENTIAL: the person may fit once we know more; sequences listening for it follow up.
  if (outcome.recommendation === 'POTENTIAL') await enrollOnTrigger(tx, candidateRow.organizationId, 'prescreen_potential', [candidateRow.id], [form.trialId]);
  await recordAudit(tx, {
    organizationId: row.organizationId,
    actorUserId: actor.userId,
    action: 'prescreen.result.create',
    entityType: 'prescreen_result',
    entityId: row.id,
    changes: {
      candidateId: candidateRow.id,
      formId: form.id,
      formVersion: version.version,
      sourceType: input.sourceType,
      recommendation: outcome.recommendation,
      answered: outcome.answers.filter((answer) => answer.value !== null).length,
      facts,
      ...(linked.includes(form.trialId) ? {} : { trialLinked: form.trialId }),
    },
  });
  return loadResult(tx, row.id);
}

/**
 * The one way a prescreen result is recorded: manual runs (with the staff scope), calls and chats (with the
 * organization of the call or conversation). See recordPrescreenResultInTransaction.
 */
export async function recordPrescreenResult(db: Database, target: PrescreenTarget, input: RecordPrescreenInput): Promise<PrescreenResult> {
  return runIn(db, target, async (tx) => {
    const actor = input.actor ?? ('organizationId' in target ? { userId: null, label: AGENT_LABEL[input.sourceType] } : await staffActor(tx, target));
    return recordPrescreenResultInTransaction(tx, reachableIds(target), actor, input);
  });
}

// ---- reading ----

export async function listResults(db: Database, scope: RequestScope, query: ListPrescreenResultsQuery): Promise<PrescreenResultList> {
  const organizationIds = selectOrganizations(scope, query.organizationIds, query.orgs);
  const filter = {
    organizationIds,
    candidateId: query.candidateId,
    sourceType: query.sourceType,
    aiRecommendation: query.aiRecommendation,
    reviewStatus: query.reviewStatus,
    search: query.search,
  };
  return runScoped(db, scope, async (tx) => {
    const rows = await listResultRows(tx, filter, { limit: query.limit, offset: query.offset });
    return { results: await withBookings(tx, rows), total: await countResultRows(tx, filter) };
  });
}

async function loadCandidate(tx: Transaction, scope: RequestScope, candidateId: string, forUpdate = false): Promise<CandidateRow> {
  const row = await findCandidate(tx, candidateId, forUpdate);
  if (!row || !canReach(scope, row.organizationId)) throw notFound('Candidate not found');
  return row;
}


/** Everything a reviewer needs about one candidate, in one answer. */
export async function review(db: Database, scope: RequestScope, candidateId: string): Promise<PrescreenReview> {
  return runScoped(db, scope, async (tx) => {
    const row = await loadCandidate(tx, scope, candidateId);
    const listed = await listedResultsOfCandidate(tx, row.id);
    const results = await withBookings(tx, listed);
    const linked = (await trialIdsByCandidate(tx, [row.id])).get(row.id) ?? [];
    const trialIds = [...new Set([...results.map((result) => result.trial.id), ...linked])];
    const trials = await trialsByIds(tx, trialIds);
    const order = new Map(trialIds.map((id, index) => [id, index]));
    trials.sort((left, right) => order.get(left.id)! - order.get(right.id)!);

    let latestForm: PrescreenReview['latestForm'] = null;
    if (listed.length) {
      const newest = listed[0].result;
      const [version, form] = await Promise.all([findFormVersionById(tx, newest.formVersionId), findForm(tx, newest.formId)]);
      if (version) latestForm = { formId: newest.formId, name: form?.name ?? '', version: version.version, blocks: version.blocks };
    }
    const decisions = listed
      .flatMap(({ result }) => {
        const stored = result.decision as unknown as StoredDecision | null;
        if (!stored) return [];
        const current = currentDecision(result.decision)!;
        return [{ ...current, resultId: result.id, current: true }, ...(stored.previous ?? []).map((decision) => ({ ...decision, resultId: result.id, current: false }))];
      })
      .sort((left, right) => right.decidedAt.localeCompare(left.decidedAt));

    return {
      candidate: {
        id: row.id,
        organizationId: row.organizationId,
        firstName: row.firstName,
        lastName: row.lastName,
        phone: row.phone,
        email: row.email,
        dateOfBirth: row.dateOfBirth,
        preferredLanguage: row.preferredLanguage,
        timeZone: row.timeZone,
        status: row.status,
        doNotContact: row.doNotContact,
        trialIds: linked,
      },
      results,
      latestForm,
      decisions,
      bookings: (await bookingsOfCandidate(tx, row.id)).map(toBooking),
      trials: trials.map((trial) => ({ id: trial.id, title: trial.title, sites: readSites(trial.sites) })),
    };
  });
}

// ---- decisions ----

/**
 * Approve or reject a result, optionally overriding the AI recommendation (reason required, enforced by the
 * contract). Deciding again is allowed: the new decision replaces the current one, which is kept in the
 * result's decision history and in the audit trail. Approve moves the candidate to prescreen_passed (unless
 * further along); reject to prescreen_failed (unless enrolled) and cancels visits booked from this result.
 */
export async function decide(db: Database, scope: RequestScope, body: DecisionBody): Promise<PrescreenResult> {
  return runScoped(db, scope, async (tx) => {
    const result = await findResult(tx, body.resultId, true);
    if (!result || !canReach(scope, result.organizationId)) throw notFound('Prescreen result not found');
    const candidateRow = await loadCandidate(tx, scope, result.candidateId, true);
    const actor = await staffActor(tx, scope);
    const previous = result.decision as unknown as StoredDecision | null;
    const decision: PrescreenDecision = {
      decision: body.decision,
      reason: body.reason ?? null,
      overrideRecommendation: body.overrideRecommendation ?? null,
      overrideReason: body.overrideRecommendation ? (body.reason ?? null) : null,
      decidedByUserId: actor.userId,
      decidedByName: actor.label,
      decidedAt: new Date().toISOString(),
    };
    const history = previous ? [currentDecision(result.decision)!, ...(previous.previous ?? [])] : [];
    const stored: StoredDecision = { ...decision, ...(history.length ? { previous: history } : {}) };
    await updateResult(tx, result.id, { reviewStatus: body.decision === 'approve' ? 'approved' : 'rejected', decision: stored as unknown as Record<string, unknown> });

    const verb = body.decision === 'approve' ? 'approved' : 'rejected';
    const override = body.overrideRecommendation ? `; recommendation overridden: ${result.aiRecommendation} -> ${body.overrideRecommendation}` : '';
    // The reason text stays on the result (it may hold health details); the feed and audit say that one was given.
    await insertContactEvents(tx, [
      event(candidateRow, actor, 'decision', {
        summary: `Prescreen ${verb}${override}`,
        details: { resultId: result.id, decision: body.decision, aiRecommendation: result.aiRecommendation, overrideRecommendation: body.overrideRecommendation ?? null, replacesDecision: previous?.decision ?? null },
        referenceId: result.id,
      }),
    ]);

    let cancelled: string[] = [];
    if (body.decision === 'reject') {
      cancelled = (await scheduledBookingsOfResults(tx, [result.id])).map((booking) => booking.id);
      if (cancelled.length) {
        await cancelBookings(tx, cancelled);
        await insertContactEvents(tx, [
          event(candidateRow, actor, 'booking', { summary: `Visit cancelled: prescreen rejected`, details: { bookingIds: cancelled, resultId: result.id }, referenceId: result.id }),
        ]);
      }
    }
    const target: CandidateStatus = body.decision === 'approve' ? 'prescreen_passed' : 'prescreen_failed';
    const keep: CandidateStatus[] = body.decision === 'approve' ? FURTHER_ALONG : ['enrolled'];
    if (!keep.includes(candidateRow.status)) {
      await changeCandidateStatus(tx, candidateRow, target, { actor, reason: `Prescreen ${verb}`, action: 'candidate.status.prescreen_decision' });
    }
    await recordAudit(tx, {
      organizationId: result.organizationId,
      actorUserId: scope.userId,
      action: 'prescreen.decision',
      entityType: 'prescreen_result',
      entityId: result.id,
      changes: {
        decision: body.decision,
        aiRecommendation: result.aiRecommendation,
        overrideRecommendation: body.overrideRecommendation ?? null,
        reasonGiven: Boolean(body.reason),
        reasonLength: body.reason?.length ?? 0,
        ...(previous ? { previous: { decision: previous.decision, overrideRecommendation: previous.overrideRecommendation, decidedByUserId: previous.decidedByUserId, decidedAt: previous.decidedAt } } : {}),
        ...(cancelled.length ? { cancelledBookings: cancelled } : {}),
      },
    });
    return loadResult(tx, result.id);
  });
}

// ---- bookings ----

function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    if ((current as { code?: string }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

const DEFAULT_VISIT_MINUTES = 60;

/**
 * Books a screening visit at one of the trial's sites for an approved result: the local time is read in the
 * site's time zone (or the body's, when the site has none) and stored in UTC. One scheduled booking per site
 * slot (409), never in the past (400). Moves the candidate to visit_scheduled.
 */
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
    const actor = { userId: scope.userId, label: (await userName(tx, scope.userId)) ?? 'Staff' };
    await insertContactEvents(tx, [{ organizationId: row.organizationId, candidateId: row.candidateId, kind: 'booking', summary: `${OUTCOME_WORDS[status]} (${toBooking(row).localTime.replace('T', ' ')})`, details: { bookingId: row.id, from: row.status, to: status }, referenceId: row.id, actorUserId: actor.userId, actorLabel: actor.label }]);
    await recordAudit(tx, { organizationId: row.organizationId, actorUserId: scope.userId, action: `booking.${status}`, entityType: 'booking', entityId: row.id, changes: { candidateId: row.candidateId, status: { from: row.status, to: status } } });
    if (status === 'no_show') await enrollOnTrigger(tx, row.organizationId, 'visit_no_show', [row.candidateId], [row.trialId]);
    return toBooking(updated);
  });
}

export async function createBooking(deps: SmsDeps, scope: RequestScope, body: CreateBookingInput): Promise<Booking> {
  const booking = await insertBookingInScope(deps.db, scope, body);
  // After the booking is committed: a slow or failing SMS provider never loses the booking.
  return { ...booking, confirmationSms: await sendBookingConfirmation(deps, booking) };
}

/** The confirmation SMS of a booking, through the SMS port and its consent rules; its state is kept on the booking. */
/** After a booking made outside a staff request (a scheduling call) has committed: its confirmation SMS. */
export async function confirmBooking(deps: SmsDeps, bookingId: string): Promise<Booking['confirmationSms'] | null> {
  // The system path: the booking's organization is not known yet.
  const [row] = await systemDb(deps.db).select().from(booking).where(eq(booking.id, bookingId));
  if (!row || row.confirmationSms !== 'not_configured') return null;
  return sendBookingConfirmation(deps, toBooking(row));
}

export async function sendBookingConfirmation(deps: SmsDeps, booking: Booking): Promise<Booking['confirmationSms']> {
  const trial = await runAsOrganization(deps.db, booking.organizationId, (tx) => findTrialRow(tx, booking.trialId));
  const site = trial && booking.siteId ? findSite(trial.sites, booking.siteId) : undefined;
  // The booked site's facility, street address and city: "Research Site, 100 Main St, Chicago".
  const where = site ? [site.name, site.address, site.city, site.region].filter(Boolean).join(', ') : [booking.siteName, booking.siteCity].filter(Boolean).join(', ');
  const sent = await sendSms(deps, {
    organizationId: booking.organizationId,
    candidateId: booking.candidateId,
    templateKey: 'visit_confirmation',
    variables: {
      trialTitle: trial?.publicTitle || trial?.title || 'the study',
      visitTime: `${booking.localTime.replace('T', ' ')} (${booking.siteTimeZone})`,
      siteAddress: where,
    },
    purpose: 'transactional',
    sentByUserId: booking.createdByUserId,
  });
  const state: Booking['confirmationSms'] =
    sent.status === 'blocked' ? 'blocked' : sent.status === 'failed' || sent.status === 'undelivered' ? 'failed' : sent.status === 'queued' ? 'queued' : 'sent';
  await runAsOrganization(deps.db, booking.organizationId, (tx) => setBookingConfirmation(tx, booking.id, state));
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
    throw badRequest(`siteId: ${named.length} sites of this trial are named ${name}; choose one by siteId`, [{ path: 'siteId', message: 'Several sites have this name' }]);
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
export async function insertBookingInTransaction(tx: Transaction, actor: PrescreenActor, result: ResultRow, candidateRow: CandidateRow, body: VisitRequest): Promise<Booking> {
  if (candidateRow.doNotContact) throw conflict('The candidate asked not to be contacted');
  const trial = await findTrialRow(tx, result.trialId);
  if (!trial) throw notFound('Trial not found');

  const site = chooseSite(trial.sites, body);
  const timeZone = site.timeZone || body.timeZone;
  if (!timeZone) throw badRequest('timeZone: The site has no time zone; give timeZone (IANA, e.g. America/New_York)', [{ path: 'timeZone', message: 'Required for this site' }]);
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
  await insertContactEvents(tx, [
    event(candidateRow, actor, 'booking', {
      summary: `Visit booked: ${siteShortLabel(site)}, ${booking.localTime} (${timeZone})`,
      details: { bookingId: row.id, resultId: result.id, siteId: site.id, siteName: site.name, siteCity: site.city ?? null, startsAt: booking.startsAt, localTime: booking.localTime, timeZone },
      referenceId: row.id,
    }),
  ]);
  if (candidateRow.status !== 'enrolled') {
    await changeCandidateStatus(tx, candidateRow, 'visit_scheduled', { actor, reason: 'Screening visit booked', action: 'candidate.status.booking' });
  }
  await recordAudit(tx, {
    organizationId: row.organizationId,
    actorUserId: actor.userId,
    action: 'prescreen.booking.create',
    entityType: 'booking',
    entityId: row.id,
    changes: { resultId: result.id, trialId: row.trialId, siteId: row.siteId, siteName: row.siteName, startsAt: booking.startsAt, timeZone, durationMinutes: row.durationMinutes },
  });
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
export async function bookVisitForCandidate(tx: Transaction, actor: PrescreenActor, input: { candidateId: string; trialId: string } & VisitRequest): Promise<Booking> {
  try {
    return await tx.transaction(async (savepoint) => {
      const [result] = await savepoint
        .select()
        .from(prescreenResult)
        .where(and(eq(prescreenResult.candidateId, input.candidateId), eq(prescreenResult.trialId, input.trialId), eq(prescreenResult.reviewStatus, 'approved')))
        .orderBy(desc(prescreenResult.createdAt), desc(prescreenResult.id))
        .limit(1);
      if (!result) throw new VisitNotBooked('no_approved_result', 'No approved prescreen for this trial');
      const candidateRow = await findCandidate(savepoint, input.candidateId, true);
      if (!candidateRow) throw notFound('Candidate not found');
      if (candidateRow.doNotContact) throw new VisitNotBooked('do_not_contact', 'The candidate asked not to be contacted');
      return insertBookingInTransaction(savepoint, actor, result, candidateRow, input);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new VisitNotBooked('slot_taken', 'That slot is already booked');
    if (error instanceof AppError) throw new VisitNotBooked('invalid', error.message);
    throw error;
  }
}
