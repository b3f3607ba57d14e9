import {
  TRIAL_STATUS_TRANSITIONS,
  type CreateTrialInput,
  type CriterionInput,
  type DraftCriterion,
  type Trial,
  type TrialDraft,
  type TrialList,
  type TrialSite,
  type TrialSiteList,
  type TrialStatusChange,
  type UpdateTrialInput,
  type UpdateTrialSiteInput,
} from '../../../contract/trials';
import { isValidTimeZone } from '../../../contract/time-zones';
import { can } from '../../auth/permissions';
import { runScoped, selectOrganizations, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import type { Transaction } from '../../db/scoped';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors';
import { recordActivity } from '../../activity';
import { recordAudit, rowChange } from '../../audit';

import { draftFromStudy } from './ctgov';
import { readSites, siteMatches, siteRows } from './sites';
import {
  countCandidates,
  deleteTrialRow,
  findTrialByNctId,
  insertTrialRow,
  listCriteria,
  listTrialRows,
  replaceCriteria,
  updateTrialRow,
  type CriterionInsert,
  type CriterionRow,
  type TrialInsert,
  type TrialRow,
} from './queries';
import { findInScope, loadTrial, targetOrganization, toTrial } from './trial-record';

// What other features may read and write of this one (its queries.ts is its own; tests/unit/architecture.test.ts).
export { findTrialRow, listCriteria } from './queries';
export type { CriterionRow, TrialRow } from './queries';

// The trials feature's surface: trials and their sites below; one trial's record and scope (trial-record.ts);
// reading criteria again and the language model's suggestions (criteria-service.ts).
export { targetOrganization } from './trial-record';
export * from './criteria-service';

export async function listTrials(db: Database, scope: RequestScope, requested: Array<string[] | undefined>): Promise<TrialList> {
  const organizationIds = selectOrganizations(scope, ...requested);
  return runScoped(db, scope, async (tx) => {
    const rows = await listTrialRows(tx, organizationIds);
    const ids = rows.map((row) => row.id);
    const [criteria, counts] = await Promise.all([listCriteria(tx, ids), countCandidates(tx, ids)]);
    const byTrial = new Map<string, CriterionRow[]>();
    for (const criterion of criteria) byTrial.set(criterion.trialId, [...(byTrial.get(criterion.trialId) ?? []), criterion]);
    return { trials: rows.map((row) => toTrial(row, byTrial.get(row.id) ?? [], counts.get(row.id))), total: rows.length };
  });
}

export async function getTrial(db: Database, scope: RequestScope, trialId: string): Promise<Trial> {
  return runScoped(db, scope, async (tx) => loadTrial(tx, await findInScope(tx, scope, trialId)));
}

/**
 * The rows of an ordered criteria list. An item with `id` keeps that criterion (and its rule unless a rule
 * is given); a rule given here was set by a person: 'manual' and reviewed, unless ruleSource says otherwise.
 */
function criterionRows(
  organizationId: string,
  trialId: string,
  items: Array<CriterionInput | DraftCriterion>,
  existing: Map<string, CriterionRow> = new Map(),
): CriterionInsert[] {
  const seen = new Set<string>();
  return items.map((item, position) => {
    const id = 'id' in item ? item.id : undefined;
    const old = id ? existing.get(id) : undefined;
    if (id && (!old || seen.has(id))) throw badRequest(`criteria.${position}.id: Unknown or repeated criterion id for this trial`);
    if (id) seen.add(id);
    const text = item.text.trim();
    let rule = old?.rule ?? null;
    let ruleSource = old?.ruleSource ?? null;
    let needsReview = item.needsReview ?? (old ? old.needsReview || (old.rule !== null && old.ruleSource !== 'manual' && old.text !== text) : false);
    if (item.rule !== undefined) {
      rule = item.rule;
      ruleSource = item.rule === null ? null : (item.ruleSource ?? 'manual');
      needsReview = item.needsReview ?? (ruleSource !== null && ruleSource !== 'manual');
    }
    return {
      ...(old ? { id: old.id, createdAt: old.createdAt } : {}),
      organizationId,
      trialId,
      position,
      kind: item.kind,
      text,
      rule,
      ruleSource,
      needsReview,
      population: item.population !== undefined ? item.population || null : (old?.population ?? null),
      updatedAt: new Date(),
    };
  });
}

type TrialFields = Omit<CreateTrialInput, 'criteria'>;

/** Column values of the given fields (only those present). */
function columns(input: Partial<TrialFields>): Partial<TrialInsert> {
  const values: Partial<TrialInsert> = {};
  const keys = [
    'title',
    'publicTitle',
    'nctId',
    'sponsor',
    'phase',
    'conditions',
    'summary',
    'targetEnrollment',
    'sites',
    'minimumAgeYears',
    'maximumAgeYears',
    'sex',
    'healthyVolunteers',
  ] as const;
  for (const key of keys) if (input[key] !== undefined) (values as Record<string, unknown>)[key] = input[key];
  return values;
}

async function assertNctIdFree(tx: Transaction, organizationId: string, nctId: string | null | undefined, trialId?: string) {
  if (!nctId) return;
  const found = await findTrialByNctId(tx, organizationId, nctId);
  // Said to a person (the import screen shows it as is): no field name in front, and what to do instead.
  if (found && found.id !== trialId)
    throw conflict(`${nctId} is already one of this organization’s trials. Open it from the trial list instead of importing it again.`);
}

async function insertTrial(
  tx: Transaction,
  scope: RequestScope,
  organizationId: string,
  fields: TrialFields,
  criteria: Array<CriterionInput | DraftCriterion>,
  auditChanges: Record<string, unknown>,
): Promise<Trial> {
  await assertNctIdFree(tx, organizationId, fields.nctId);
  const now = new Date();
  const row = await insertTrialRow(tx, {
    ...(columns(fields) as TrialInsert),
    sites: siteRows(fields.sites ?? []),
    organizationId,
    title: fields.title,
    status: 'draft',
    statusHistory: [{ from: null, to: 'draft', at: now.toISOString(), byUserId: scope.userId }],
    createdByUserId: scope.userId,
  });
  await replaceCriteria(tx, row.id, criterionRows(organizationId, row.id, criteria));
  await recordActivity(tx, [{ organizationId, trialId: row.id, kind: 'trial_status_changed', source: 'manual', label: 'draft', occurredAt: now }]);
  await recordAudit(tx, {
    organizationId,
    actorUserId: scope.userId,
    action: 'trial.create',
    entityType: 'trial',
    entityId: row.id,
    changes: { ...auditChanges, nctId: row.nctId, criteria: criteria.length },
  });
  return loadTrial(tx, row);
}

export async function createTrial(db: Database, scope: RequestScope, organizationIds: string[] | undefined, input: CreateTrialInput): Promise<Trial> {
  const organizationId = targetOrganization(scope, organizationIds);
  const { criteria = [], ...fields } = input;
  return runScoped(db, scope, (tx) => insertTrial(tx, scope, organizationId, fields, criteria, { source: 'manual' }));
}

export async function updateTrial(db: Database, scope: RequestScope, trialId: string, input: UpdateTrialInput): Promise<Trial> {
  return runScoped(db, scope, async (tx) => {
    const row = await findInScope(tx, scope, trialId, true);
    const { criteria, status, ...fields } = input;
    const values = columns(fields);
    if (fields.sites !== undefined) values.sites = siteRows(fields.sites, readSites(row.sites));
    const min = values.minimumAgeYears !== undefined ? values.minimumAgeYears : row.minimumAgeYears;
    const max = values.maximumAgeYears !== undefined ? values.maximumAgeYears : row.maximumAgeYears;
    if (min != null && max != null && min > max) throw badRequest('maximumAgeYears: Minimum age must not be above maximum age');
    if (values.nctId) await assertNctIdFree(tx, row.organizationId, values.nctId, row.id);

    const changed = Object.keys(values).filter((key) => JSON.stringify(values[key as keyof typeof values]) !== JSON.stringify(row[key as keyof TrialRow]));
    const update: Partial<TrialInsert> = Object.fromEntries(changed.map((key) => [key, values[key as keyof typeof values]]));

    let statusChange: TrialStatusChange | undefined;
    if (status !== undefined && status !== row.status) {
      if (!TRIAL_STATUS_TRANSITIONS[row.status].includes(status)) {
        const allowed = TRIAL_STATUS_TRANSITIONS[row.status];
        throw badRequest(
          `status: A trial cannot move from ${row.status} to ${status} (allowed from ${row.status}: ${allowed.length ? allowed.join(', ') : 'none'})`,
          [{ path: 'status', message: `Cannot move from ${row.status} to ${status}` }],
        );
      }
      statusChange = { from: row.status, to: status, at: new Date().toISOString(), byUserId: scope.userId };
      update.status = status;
      update.statusHistory = [...row.statusHistory, statusChange];
    }

    if (criteria !== undefined) {
      const existing = new Map((await listCriteria(tx, [row.id])).map((criterion) => [criterion.id, criterion]));
      await replaceCriteria(tx, row.id, criterionRows(row.organizationId, row.id, criteria, existing));
      changed.push('criteria');
    }
    const saved = Object.keys(update).length || criteria !== undefined ? await updateTrialRow(tx, row.id, update) : row;

    const audit = { organizationId: row.organizationId, actorUserId: scope.userId, entityType: 'trial', entityId: row.id };
    if (changed.length) {
      await recordAudit(tx, { ...audit, action: 'trial.update', changes: { fields: changed, ...(criteria ? { criteria: criteria.length } : {}) } });
    }
    if (statusChange) {
      await recordAudit(tx, { ...audit, action: 'trial.status', changes: { from: statusChange.from, to: statusChange.to } });
      await recordActivity(tx, [
        {
          organizationId: row.organizationId,
          trialId: row.id,
          kind: 'trial_status_changed',
          source: 'manual',
          label: statusChange.to,
          occurredAt: new Date(statusChange.at),
        },
      ]);
    }
    return loadTrial(tx, saved);
  });
}

// ---- sites ----

/** A page of the trial's sites, our sites first; `q` searches name, city, state, postal code and country. */
export async function listSites(
  db: Database,
  scope: RequestScope,
  trialId: string,
  query: { q?: string; ownOnly?: boolean; limit: number; offset: number },
): Promise<TrialSiteList> {
  return runScoped(db, scope, async (tx) => {
    const sites = readSites((await findInScope(tx, scope, trialId)).sites);
    const matching = sites.filter((site) => (!query.ownOnly || site.isOwnSite) && siteMatches(site, query.q));
    return {
      sites: matching.slice(query.offset, query.offset + query.limit),
      total: matching.length,
      siteCount: sites.length,
      ownSiteCount: sites.filter((site) => site.isOwnSite).length,
    };
  });
}

/** Marks a site ours (or not) and sets or clears its time zone (a cleared zone falls back to the one its location tells). */
export async function updateSite(db: Database, scope: RequestScope, trialId: string, siteId: string, input: UpdateTrialSiteInput): Promise<TrialSite> {
  return runScoped(db, scope, async (tx) => {
    const row = await findInScope(tx, scope, trialId, true);
    const stored = row.sites.map((site, index) => ({ ...site, id: site.id ?? `site-${index + 1}` }));
    const index = stored.findIndex((site) => site.id === siteId);
    if (index < 0) throw notFound('Site not found');
    const site: TrialSite = { ...stored[index] };
    const changes: Record<string, unknown> = { siteId };
    if (input.isOwnSite !== undefined && input.isOwnSite !== (site.isOwnSite === true)) {
      site.isOwnSite = input.isOwnSite;
      changes.isOwnSite = input.isOwnSite;
    }
    if (input.timeZone !== undefined) {
      if (input.timeZone === null) {
        delete site.timeZone;
        delete site.timeZoneSource;
      } else {
        if (!isValidTimeZone(input.timeZone))
          throw badRequest(`timeZone: Unknown time zone ${input.timeZone}`, [{ path: 'timeZone', message: `Unknown time zone ${input.timeZone}` }]);
        site.timeZone = input.timeZone;
        site.timeZoneSource = 'manual';
      }
      changes.timeZone = input.timeZone;
    }
    if (Object.keys(changes).length > 1) {
      await updateTrialRow(tx, row.id, { sites: stored.map((item, position) => (position === index ? site : item)) });
      await recordAudit(tx, {
        organizationId: row.organizationId,
        actorUserId: scope.userId,
        action: 'trial.site.update',
        entityType: 'trial',
        entityId: row.id,
        changes,
      });
    }
    return readSites([site])[0];
  });
}

export async function deleteTrial(db: Database, scope: RequestScope, trialId: string): Promise<void> {
  await runScoped(db, scope, async (tx) => {
    const row = await findInScope(tx, scope, trialId);
    if (!can(scope, 'trial:delete', row.organizationId)) throw forbidden('Only owners and admins can delete trials');
    await deleteTrialRow(tx, row.id);
    await recordAudit(tx, rowChange(scope.userId, row, 'trial.delete', 'trial', { nctId: row.nctId, status: row.status }));
  });
}

export type AutoGenResult = { saved: true; trial: Trial } | { saved: false; draft: TrialDraft };

/**
 * POST /api/trials/auto-gen: the body is a study record itself, or `{ study, save? }`. The rules engine
 * reads it into a draft; `save: false` returns the draft (preview), otherwise a draft trial is created.
 */
export async function autoGenerate(db: Database, scope: RequestScope, organizationIds: string[] | undefined, body: unknown): Promise<AutoGenResult> {
  let study: unknown = body;
  let save = true;
  let prefix = '';
  if (body && typeof body === 'object' && !Array.isArray(body) && 'study' in body && !('protocolSection' in body)) {
    const wrapper = body as { study: unknown; save?: unknown };
    if (wrapper.save !== undefined && typeof wrapper.save !== 'boolean')
      throw badRequest('save: Expected true or false', [{ path: 'save', message: 'Expected true or false' }]);
    study = wrapper.study;
    save = wrapper.save ?? true;
    prefix = 'study';
  }
  const organizationId = targetOrganization(scope, organizationIds);
  const draft = draftFromStudy(study, prefix);
  if (!save) return { saved: false, draft };
  const { criteria, ...fields } = draft;
  const trial = await runScoped(db, scope, (tx) => insertTrial(tx, scope, organizationId, fields, criteria, { source: 'ctgov' }));
  return { saved: true, trial };
}
