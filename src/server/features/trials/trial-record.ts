import type { Trial } from '../../../contract/trials';
import { canReach, type RequestScope } from '../../auth/scope';
import type { Transaction } from '../../db/scoped';
import { badRequest, notFound } from '../../http/errors';
import { readSites } from './sites';
import { countCandidates, findTrialRow, listCriteria, type CriterionRow, type TrialRow } from './queries';
import { isUuid } from '../../../contract/ids';

/** One trial as the API shows it, and reaching trials within the request's scope. */
type Counts = { candidateCount: number; enrolledCount: number };

export function toTrial(row: TrialRow, criteria: CriterionRow[], counts: Counts | undefined): Trial {
  return {
    id: row.id,
    organizationId: row.organizationId,
    title: row.title,
    publicTitle: row.publicTitle,
    nctId: row.nctId,
    sponsor: row.sponsor,
    phase: row.phase,
    conditions: row.conditions,
    summary: row.summary,
    targetEnrollment: row.targetEnrollment,
    status: row.status,
    statusHistory: row.statusHistory,
    sites: readSites(row.sites),
    minimumAgeYears: row.minimumAgeYears,
    maximumAgeYears: row.maximumAgeYears,
    sex: row.sex,
    healthyVolunteers: row.healthyVolunteers,
    criteria: criteria.map((criterion) => ({
      id: criterion.id,
      position: criterion.position,
      kind: criterion.kind,
      text: criterion.text,
      rule: criterion.rule ?? null,
      ruleSource: criterion.ruleSource ?? null,
      needsReview: criterion.needsReview,
      population: criterion.population ?? null,
    })),
    candidateCount: counts?.candidateCount ?? 0,
    enrolledCount: counts?.enrolledCount ?? 0,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function loadTrial(tx: Transaction, row: TrialRow): Promise<Trial> {
  const [criteria, counts] = await Promise.all([listCriteria(tx, [row.id]), countCandidates(tx, [row.id])]);
  return toTrial(row, criteria, counts.get(row.id));
}

/** A trial within the scope, or 404 (a malformed id, another organization's trial and a missing one alike). */
export async function findInScope(tx: Transaction, scope: RequestScope, trialId: string, forUpdate = false): Promise<TrialRow> {
  const row = isUuid(trialId) ? await findTrialRow(tx, trialId, forUpdate) : undefined;
  if (!row || !canReach(scope, row.organizationId)) throw notFound('Trial not found');
  return row;
}

/**
 * The organization a new trial goes to: the single id given (reachable, else 404), or the active one.
 * Several ids are ambiguous: 400.
 */
export function targetOrganization(scope: RequestScope, organizationIds: string[] | undefined): string {
  const ids = [...new Set(organizationIds ?? [])];
  if (ids.length === 0) return scope.activeOrganization.id;
  if (ids.length > 1) throw badRequest('organizationIds: Give exactly one organization to create the trial in');
  if (!canReach(scope, ids[0])) throw notFound('Organization not found');
  return ids[0];
}
