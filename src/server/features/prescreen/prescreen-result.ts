import { shortTrialTitle } from '../../../contract/trial-name';
import type { CandidateStatus } from '../../../contract/candidates';
import type { AiRecommendation, CriterionEvaluationDto, PrescreenAnswer, PrescreenDecision, PrescreenResult } from '../../../contract/prescreen';
import type { Transaction } from '../../db/scoped';
import { notFound } from '../../http/errors';
import { toBooking } from './bookings';
import { listedResult, scheduledBookingsOfResults, type BookingRow, type ListedResultRow } from './queries';

// One prescreen result as the API shows it, and the funnel statuses a result moves a candidate to: shared by
// recording a result (record-result.ts), deciding on one (decide.ts) and the reads (service.ts). Decision 101.

// ---- the funnel ----

/** Statuses a prescreen outcome does not move a candidate back from. */
export const FURTHER_ALONG: CandidateStatus[] = ['visit_scheduled', 'enrolled'];

export const STATUS_FOR_RECOMMENDATION: Record<AiRecommendation, CandidateStatus> = {
  PASS: 'prescreen_passed',
  FAIL: 'prescreen_failed',
  INCONCLUSIVE: 'prescreening',
  POTENTIAL: 'prescreening',
};

// ---- mapping ----

export interface StoredDecision extends PrescreenDecision {
  /** Earlier decisions on the same result, newest first. */
  previous?: PrescreenDecision[];
}

export function currentDecision(stored: Record<string, unknown> | null): PrescreenDecision | null {
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
    trial: { id: result.trialId, title: row.trialTitle, shortTitle: shortTrialTitle({ title: row.trialTitle, publicTitle: row.trialPublicTitle }) },
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

export async function withBookings(tx: Transaction, rows: ListedResultRow[]): Promise<PrescreenResult[]> {
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

export async function loadResult(tx: Transaction, id: string): Promise<PrescreenResult> {
  const row = await listedResult(tx, id);
  if (!row) throw notFound('Prescreen result not found');
  return (await withBookings(tx, [row]))[0];
}
