import type { ListPrescreenResultsQuery, PrescreenResultList, PrescreenReview } from '../../../contract/prescreen';
import { readSites } from '../trials/sites';
import { runScoped, selectOrganizations, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import { trialIdsByCandidate } from '../candidates/service';
import { loadCandidate } from './actors';
import { toBooking } from './bookings';
import { currentDecision, withBookings, type StoredDecision } from './prescreen-result';
import { bookingsOfCandidate, countResultRows, findForm, findFormVersionById, listedResultsOfCandidate, listResultRows, trialsByIds } from './queries';

export type { PrescreenActor, PrescreenTarget } from './actors';

// What other features may read and write of this one (its queries.ts is its own; tests/unit/architecture.test.ts).
export { findForm, findFormVersion } from './queries';
// Recording a result and deciding on one live in their own files (decision 101); chat and calls record results,
// the dashboard reads the failing criteria, through this surface.
export { recordPrescreenResultInTransaction } from './record-result';
export { failingCriteria } from './decide';

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
