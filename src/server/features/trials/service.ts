import {
  TRIAL_STATUS_TRANSITIONS,
  type CriterionRule,
  type ReparseResult,
  type SuggestionsResult,
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
import { canReach, runScoped, selectOrganizations, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import type { Transaction } from '../../db/scoped';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors';
import { CriteriaReaderError, type CriteriaReader, type RuleProposal } from '../../integrations/llm/criteria-reader';
import type { AppConfig } from '../../config';
import { recordActivity } from '../../activity';
import { recordAudit } from '../../audit';
import { isUuid } from '../../tenancy/organizations';
import { readTextRule, recordVocabulary } from './criteria-parser';
import { draftFromStudy } from './ctgov';
import { readSites, siteMatches, siteRows } from './sites';
import {
  countCandidates,
  deleteTrialRow,
  findTrialByNctId,
  findTrialRow,
  insertTrialRow,
  listCriteria,
  listTrialRows,
  replaceCriteria,
  updateCriterionRule,
  updateTrialRow,
  type CriterionInsert,
  type CriterionRow,
  type TrialInsert,
  type TrialRow,
} from './queries';

type Counts = { candidateCount: number; enrolledCount: number };

function toTrial(row: TrialRow, criteria: CriterionRow[], counts: Counts | undefined): Trial {
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

async function loadTrial(tx: Transaction, row: TrialRow): Promise<Trial> {
  const [criteria, counts] = await Promise.all([listCriteria(tx, [row.id]), countCandidates(tx, [row.id])]);
  return toTrial(row, criteria, counts.get(row.id));
}

/** A trial within the scope, or 404 (a malformed id, another organization's trial and a missing one alike). */
async function findInScope(tx: Transaction, scope: RequestScope, trialId: string, forUpdate = false): Promise<TrialRow> {
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
  if (found && found.id !== trialId) throw conflict(`nctId: A trial with NCT id ${nctId} already exists in this organization`);
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
    await recordAudit(tx, {
      organizationId: row.organizationId,
      actorUserId: scope.userId,
      action: 'trial.delete',
      entityType: 'trial',
      entityId: row.id,
      changes: { nctId: row.nctId, status: row.status },
    });
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

/** A rule's meaning, comparable whatever the key order (jsonb reorders keys): no span, keys sorted. */
const canonical = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(canonical)
    : value && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([key]) => key !== 'span')
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([key, item]) => [key, canonical(item)]),
        )
      : value;
const withoutSpan = (rule: CriterionRule | null) => (rule ? JSON.stringify(canonical(rule)) : null);

/**
 * Re-reads the criteria's text with the current reader (docs/decisions/021-criteria-reading.md). A rule a
 * person set (`manual`) or read from the record's fields (`structured`) is kept; a criterion whose rule
 * reads the same keeps its review state (a person may have reviewed it); the others get the new rule and
 * its `needsReview`. Texts, order and ids never change. Audited when anything changed.
 */
export async function reparseTrial(db: Database, scope: RequestScope, trialId: string): Promise<ReparseResult> {
  return runScoped(db, scope, async (tx) => {
    const row = await findInScope(tx, scope, trialId);
    const criteria = await listCriteria(tx, [row.id]);
    const vocabulary = recordVocabulary();
    const changes: ReparseResult['changes'] = [];
    let unchanged = 0;
    let kept = 0;
    for (const criterion of criteria) {
      if (criterion.ruleSource === 'manual' || criterion.ruleSource === 'structured') {
        kept++;
        continue;
      }
      const read = readTextRule(criterion.kind, criterion.text, { vocabulary });
      // A language model's proposal stays until the text reader itself can read the criterion.
      if (criterion.ruleSource === 'llm' && !read.rule) {
        kept++;
        continue;
      }
      if (withoutSpan(read.rule) === withoutSpan(criterion.rule ?? null)) {
        unchanged++;
        continue;
      }
      const needsReview = read.rule ? read.needsReview : true;
      await updateCriterionRule(tx, criterion.id, { rule: read.rule, ruleSource: read.rule ? 'text' : null, needsReview });
      changes.push({ criterionId: criterion.id, text: criterion.text, before: criterion.rule ?? null, after: read.rule, needsReview });
    }
    if (changes.length) {
      await recordAudit(tx, {
        organizationId: row.organizationId,
        actorUserId: scope.userId,
        action: 'trial.reparse',
        entityType: 'trial',
        entityId: row.id,
        changes: { changed: changes.length, unchanged, kept },
      });
    }
    const saved = changes.length ? await updateTrialRow(tx, row.id, {}) : row;
    return { trial: await loadTrial(tx, saved), changes, unchanged, kept };
  });
}

/** The criteria no reader could read: no rule, and none set by a person or taken from the record's fields. */
const unreadCriteria = (criteria: Awaited<ReturnType<typeof listCriteria>>) =>
  criteria.filter((criterion) => !criterion.rule && (criterion.ruleSource === null || criterion.ruleSource === 'text'));

/**
 * Asks the language model (when one is configured) for rules for the criteria the text reader left unread,
 * and stores each proposal that passes the rule schema with ruleSource 'llm' and needsReview true. The model
 * call happens outside any transaction; a criterion that got a rule meanwhile (a person edited it) is left
 * alone. 409 LLM_NOT_CONFIGURED without a model; 502 LLM_ERROR when it fails or answers nonsense.
 */
export async function suggestRules(
  db: Database,
  reader: CriteriaReader | null,
  scope: RequestScope,
  trialId: string,
  rates: AppConfig['rates'],
): Promise<SuggestionsResult> {
  const unread = await runScoped(db, scope, async (tx) => {
    const row = await findInScope(tx, scope, trialId);
    return unreadCriteria(await listCriteria(tx, [row.id]));
  });
  if (!reader)
    throw new AppError(409, 'No language model is configured: set LLM_BASE_URL and LLM_MODEL to get suggestions for the unread criteria', 'LLM_NOT_CONFIGURED');
  let proposals: RuleProposal[] = [];
  let totalTokens = 0;
  if (unread.length) {
    try {
      ({ proposals, totalTokens } = await reader.propose(unread.map((criterion) => ({ kind: criterion.kind, text: criterion.text }))));
    } catch (error) {
      if (error instanceof CriteriaReaderError) throw new AppError(502, `No suggestions: ${error.message}`, 'LLM_ERROR');
      throw error;
    }
  }
  return runScoped(db, scope, async (tx) => {
    const row = await findInScope(tx, scope, trialId);
    const stillUnread = new Set(unreadCriteria(await listCriteria(tx, [row.id])).map((criterion) => criterion.id));
    const suggested: SuggestionsResult['suggested'] = [];
    const left: SuggestionsResult['unread'] = [];
    unread.forEach((criterion, index) => {
      const proposal = proposals[index];
      if (proposal?.rule && stillUnread.has(criterion.id)) suggested.push({ criterionId: criterion.id, text: criterion.text, rule: proposal.rule });
      else
        left.push({
          criterionId: criterion.id,
          text: criterion.text,
          reason: stillUnread.has(criterion.id) ? (proposal?.dropped ?? 'no rule proposed') : 'changed meanwhile',
        });
    });
    for (const item of suggested) await updateCriterionRule(tx, item.criterionId, { rule: item.rule, ruleSource: 'llm', needsReview: true });
    // What the model's tokens cost, on the costs dashboard (decision 031).
    if (totalTokens > 0) {
      await recordActivity(tx, [
        {
          organizationId: row.organizationId,
          trialId: row.id,
          kind: 'spend',
          source: 'manual',
          label: 'llm_tokens',
          value: (totalTokens / 1000) * rates.llmThousandTokensUsd,
        },
      ]);
    }
    if (suggested.length) {
      await recordAudit(tx, {
        organizationId: row.organizationId,
        actorUserId: scope.userId,
        action: 'trial.suggest_rules',
        entityType: 'trial',
        entityId: row.id,
        changes: { model: reader.model, asked: unread.length, suggested: suggested.length },
      });
    }
    const saved = suggested.length ? await updateTrialRow(tx, row.id, {}) : row;
    return { trial: await loadTrial(tx, saved), model: reader.model, asked: unread.length, suggested, unread: left };
  });
}
