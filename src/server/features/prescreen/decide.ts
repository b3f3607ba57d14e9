import { shortTrialTitle } from '../../../contract/trial-name';
import type { CandidateStatus } from '../../../contract/candidates';
import type { DecisionBody, PrescreenDecision, PrescreenResult } from '../../../contract/prescreen';
import { canReach, runScoped, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import type { Transaction } from '../../db/scoped';
import { notFound } from '../../http/errors';
import { recordAudit, rowChange } from '../../audit';
import { recordActivity, reviewAgreement } from '../../activity';
import { changeCandidateStatus, insertContactEvents } from '../candidates/service';
import { event, loadCandidate, staffActor } from './actors';
import { FURTHER_ALONG, currentDecision, loadResult, type StoredDecision } from './prescreen-result';
import { cancelBookings, failingCriteriaRows, findResult, scheduledBookingsOfResults, updateResult } from './queries';

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
    // A chart's label and a table's cell: the trial's short name (issue 32).
    trialTitle: shortTrialTitle({ title: row.title, publicTitle: row.public_title }),
    criterionId: row.criterion_id ?? '',
    kind: row.kind ?? '',
    text: row.text ?? '',
    failures: row.failures,
  }));
}
