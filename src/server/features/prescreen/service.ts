import type { CandidateStatus } from '../../../contract/candidates';
import type {
  AiRecommendation,
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
import { readSites } from '../trials/sites';
import { canReach, runScoped, selectOrganizations, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import type { Transaction } from '../../db/scoped';

import { badRequest, conflict, notFound } from '../../http/errors';
import { recordAudit, rowChange } from '../../audit';
import { hoursSinceFirstContact, recordActivity, reviewAgreement } from '../../activity';
import { funnelSignals } from '../../funnel-signals';
import { findCandidate, insertContactEvents, linkTrial, trialIdsByCandidate, changeCandidateStatus } from '../candidates/service';
import { recordPrescreenFacts } from '../matching/facts';
import { listCriteria } from '../trials/service';
import { evaluatePrescreen, normalizeAnswers } from './engine';
import { AGENT_LABEL, event, loadCandidate, reachableIds, runIn, staffActor, type PrescreenActor, type PrescreenTarget } from './actors';
import { toBooking } from './bookings';

export type { PrescreenActor, PrescreenTarget } from './actors';
import {
  bookingsOfCandidate,
  cancelBookings,
  countResultRows,
  failingCriteriaRows,
  findForm,
  findFormVersion,
  findFormVersionById,
  findResult,
  insertResult,
  listedResult,
  listedResultsOfCandidate,
  listResultRows,
  scheduledBookingsOfResults,
  trialsByIds,
  updateResult,
  type BookingRow,
  type ListedResultRow,
} from './queries';

// What other features may read and write of this one (its queries.ts is its own; tests/unit/architecture.test.ts).
export { findForm, findFormVersion } from './queries';

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
  const bookings = await scheduledBookingsOfResults(
    tx,
    rows.map((row) => row.result.id),
  );
  return rows.map((row) =>
    toResult(
      row,
      bookings.find((booking) => booking.prescreenResultId === row.result.id),
    ),
  );
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
export async function recordPrescreenResultInTransaction(
  tx: Transaction,
  reachable: readonly string[],
  actor: PrescreenActor,
  input: RecordPrescreenInput,
): Promise<PrescreenResult> {
  const candidateRow = await findCandidate(tx, input.candidateId, true);
  if (!candidateRow || !reachable.includes(candidateRow.organizationId)) throw notFound('Candidate not found');
  const form = await findForm(tx, input.formId);
  if (!form || !reachable.includes(form.organizationId)) throw notFound('Prescreen form not found');
  if (form.organizationId !== candidateRow.organizationId) {
    throw badRequest("formId: The form belongs to another organization than the candidate's", [
      { path: 'formId', message: "Not a form of the candidate's organization" },
    ]);
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
        ? [
            {
              criterionId: evaluation.criterionId,
              rule: rules.get(evaluation.criterionId) ?? null,
              question: questions.get(evaluation.decidingQuestionId) ?? '',
              answer: evaluation.decidingAnswer,
            },
          ]
        : [],
    ),
  );
  await recordActivity(tx, [
    {
      organizationId: row.organizationId,
      trialId: row.trialId,
      candidateId: row.candidateId,
      kind: 'prescreen_result',
      source: input.sourceType,
      label: outcome.recommendation,
      value: await hoursSinceFirstContact(tx, row.candidateId, row.createdAt),
      referenceId: row.id,
      occurredAt: row.createdAt,
    },
  ]);
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
      channel: input.sourceType,
    });
  }
  // POTENTIAL: the person may fit once we know more; sequences listening for it follow up.
  if (outcome.recommendation === 'POTENTIAL')
    await funnelSignals.triggered(tx, candidateRow.organizationId, 'prescreen_potential', [candidateRow.id], [form.trialId]);
  await recordAudit(
    tx,
    rowChange(actor.userId, row, 'prescreen.result.create', 'prescreen_result', {
      candidateId: candidateRow.id,
      formId: form.id,
      formVersion: version.version,
      sourceType: input.sourceType,
      recommendation: outcome.recommendation,
      answered: outcome.answers.filter((answer) => answer.value !== null).length,
      facts,
      ...(linked.includes(form.trialId) ? {} : { trialLinked: form.trialId }),
    }),
  );
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
        return [
          { ...current, resultId: result.id, current: true },
          ...(stored.previous ?? []).map((decision) => ({ ...decision, resultId: result.id, current: false })),
        ];
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
    await updateResult(tx, result.id, {
      reviewStatus: body.decision === 'approve' ? 'approved' : 'rejected',
      decision: stored as unknown as Record<string, unknown>,
    });

    const verb = body.decision === 'approve' ? 'approved' : 'rejected';
    const override = body.overrideRecommendation ? `; recommendation overridden: ${result.aiRecommendation} -> ${body.overrideRecommendation}` : '';
    // The reason text stays on the result (it may hold health details); the feed and audit say that one was given.
    await insertContactEvents(tx, [
      event(candidateRow, actor, 'decision', {
        summary: `Prescreen ${verb}${override}`,
        details: {
          resultId: result.id,
          decision: body.decision,
          aiRecommendation: result.aiRecommendation,
          overrideRecommendation: body.overrideRecommendation ?? null,
          replacesDecision: previous?.decision ?? null,
        },
        referenceId: result.id,
      }),
    ]);

    const agreement = reviewAgreement(result.aiRecommendation, body.decision, body.overrideRecommendation);
    await recordActivity(tx, [
      {
        organizationId: result.organizationId,
        trialId: result.trialId,
        candidateId: result.candidateId,
        kind: 'review_decision',
        source: result.sourceType,
        label: agreement,
        value: agreement === 'override' ? 1 : 0,
        referenceId: result.id,
      },
    ]);

    let cancelled: string[] = [];
    if (body.decision === 'reject') {
      cancelled = (await scheduledBookingsOfResults(tx, [result.id])).map((booking) => booking.id);
      if (cancelled.length) {
        await cancelBookings(tx, cancelled);
        await recordActivity(
          tx,
          cancelled.map((bookingId) => ({
            organizationId: result.organizationId,
            trialId: result.trialId,
            candidateId: result.candidateId,
            kind: 'visit_cancelled' as const,
            source: 'manual' as const,
            referenceId: bookingId,
          })),
        );
        await insertContactEvents(tx, [
          event(candidateRow, actor, 'booking', {
            summary: `Visit cancelled: prescreen rejected`,
            details: { bookingIds: cancelled, resultId: result.id },
            referenceId: result.id,
          }),
        ]);
      }
    }
    const target: CandidateStatus = body.decision === 'approve' ? 'prescreen_passed' : 'prescreen_failed';
    const keep: CandidateStatus[] = body.decision === 'approve' ? FURTHER_ALONG : ['enrolled'];
    if (!keep.includes(candidateRow.status)) {
      await changeCandidateStatus(tx, candidateRow, target, { actor, reason: `Prescreen ${verb}`, action: 'candidate.status.prescreen_decision' });
    }
    await recordAudit(
      tx,
      rowChange(scope.userId, result, 'prescreen.decision', 'prescreen_result', {
        decision: body.decision,
        aiRecommendation: result.aiRecommendation,
        overrideRecommendation: body.overrideRecommendation ?? null,
        reasonGiven: Boolean(body.reason),
        reasonLength: body.reason?.length ?? 0,
        ...(previous
          ? {
              previous: {
                decision: previous.decision,
                overrideRecommendation: previous.overrideRecommendation,
                decidedByUserId: previous.decidedByUserId,
                decidedAt: previous.decidedAt,
              },
            }
          : {}),
        ...(cancelled.length ? { cancelledBookings: cancelled } : {}),
      }),
    );
    return loadResult(tx, result.id);
  });
}

/**
 * For the admin dashboard (decision 032): the criteria that fail most in the results in a range, in the
 * caller's scoped transaction. Organization ids must already be narrowed to the scope.
 */
export async function failingCriteria(
  tx: Transaction,
  filter: { organizationIds: readonly string[]; from: Date | null; to: Date; sourceType?: 'call' | 'chat' | 'manual'; limit: number },
) {
  const rows = await failingCriteriaRows(tx, filter);
  return rows.map((row) => ({
    trialId: row.trial_id,
    trialTitle: row.title,
    criterionId: row.criterion_id ?? '',
    kind: row.kind ?? '',
    text: row.text ?? '',
    failures: row.failures,
  }));
}
