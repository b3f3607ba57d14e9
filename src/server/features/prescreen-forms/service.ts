import type {
  ApplyDeduplicationRequest,
  ApplyDeduplicationResponse,
  CreatePrescreenFormInput,
  CriterionCoverage,
  DetectDuplicatesRequest,
  DetectDuplicatesResponse,
  FormStatus,
  GenerateStudyBlocksResponse,
  PrescreenForm,
  PrescreenFormList,
  PrescreenFormSummary,
  StudyBlock,
  UpdatePrescreenFormInput,
} from '../../../contract/prescreen-forms';
import { canReach, runScoped, selectOrganizations, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import type { Transaction } from '../../db/scoped';
import { badRequest, notFound } from '../../http/errors';
import { recordAudit } from '../../audit';

import { findTrialRow, listCriteria, type CriterionRow, type TrialRow } from '../trials/service';
import { applyDeduplication as mergeDuplicates, detectDuplicates as findDuplicates, predicateFits } from './duplicates';
import { generateStudyBlocks as generate } from './generator';
import {
  countResultsByVersion,
  findFormRow,
  insertFormRow,
  insertVersionRow,
  listFormRows,
  listVersionRows,
  trialTitles,
  updateFormRow,
  updateVersionBlocks,
  type FormRow,
  type VersionRow,
} from './queries';
import { isUuid } from '../../../contract/ids';

// What other features may read and write of this one (its queries.ts is its own; tests/unit/architecture.test.ts).
export { findFormRow, listVersionRows } from './queries';

type Issue = { path: string; message: string };

/** JSON with object keys sorted: jsonb does not keep key order, so compare blocks this way. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

function fail(issues: Issue[]): never {
  throw badRequest(issues.map((issue) => `${issue.path}: ${issue.message}`).join('; '), issues);
}

/**
 * Rules the contract's shape cannot check: unique block and question ids, links to criteria of the form's
 * trial, tests that fit the question's type, `in` values among the question's options.
 */
export function validateBlocks(blocks: StudyBlock[], criterionIds: ReadonlySet<string>, prefix = 'blocks'): void {
  const issues: Issue[] = [];
  const blockIds = new Set<string>();
  const questionIds = new Set<string>();
  blocks.forEach((block, b) => {
    if (blockIds.has(block.id)) issues.push({ path: `${prefix}.${b}.id`, message: `Block id "${block.id}" is used twice in this form` });
    blockIds.add(block.id);
    block.questions.forEach((question, q) => {
      const at = `${prefix}.${b}.questions.${q}`;
      if (questionIds.has(question.id)) issues.push({ path: `${at}.id`, message: `Question id "${question.id}" is used twice in this form` });
      questionIds.add(question.id);
      const values = (question.options ?? []).map((option) => option.value);
      if (new Set(values).size !== values.length) issues.push({ path: `${at}.options`, message: `Question "${question.id}" repeats an option value` });
      question.criterionLinks.forEach((link, l) => {
        const linkAt = `${at}.criterionLinks.${l}`;
        if (!criterionIds.has(link.criterionId)) {
          issues.push({
            path: `${linkAt}.criterionId`,
            message: `Question "${question.id}" links to criterion "${link.criterionId}", which is not a criterion of this trial`,
          });
        }
        const when = link.when;
        if (!predicateFits(question.type, when)) {
          issues.push({ path: `${linkAt}.when.op`, message: `Question "${question.id}" (${question.type}) cannot be tested with "${when.op}"` });
          return;
        }
        if (when.op === 'in') {
          for (const value of when.values) {
            if (!values.includes(value)) issues.push({ path: `${linkAt}.when.values`, message: `Question "${question.id}" has no option "${value}"` });
          }
        }
        if (question.type === 'number' && 'value' in when) {
          const numbers = when.op === 'between' ? [when.value, when.upper] : [when.value];
          if (numbers.some((value) => typeof value !== 'number'))
            issues.push({ path: `${linkAt}.when.value`, message: `Question "${question.id}" is a number: compare it with numbers` });
        }
        if (question.type === 'date' && 'value' in when && !when.op.startsWith('age_')) {
          const dates = when.op === 'between' ? [when.value, when.upper] : [when.value];
          if (dates.some((value) => typeof value !== 'string' || Number.isNaN(Date.parse(value)))) {
            issues.push({ path: `${linkAt}.when.value`, message: `Question "${question.id}" is a date: compare it with ISO dates (YYYY-MM-DD)` });
          }
        }
      });
    });
  });
  if (issues.length) fail(issues);
}

/** What publishing needs beyond valid blocks: at least one question. */
function validatePublishable(blocks: StudyBlock[], criterionIds: ReadonlySet<string>) {
  if (!blocks.some((block) => block.questions.length > 0)) fail([{ path: 'blocks', message: 'A form needs at least one question to be published' }]);
  validateBlocks(blocks, criterionIds);
}

function coverage(blocks: StudyBlock[], criteria: CriterionRow[]): CriterionCoverage[] {
  return criteria.map((criterion) => ({
    criterionId: criterion.id,
    kind: criterion.kind,
    text: criterion.text,
    questionIds: blocks.flatMap((block) =>
      block.questions.filter((question) => question.criterionLinks.some((link) => link.criterionId === criterion.id)).map((question) => question.id),
    ),
  }));
}

interface Loaded {
  row: FormRow;
  versions: VersionRow[];
  resultCounts: Map<string, number>;
  trialTitle: string;
  criteria: CriterionRow[];
}

function summary({ row, versions, resultCounts, trialTitle, criteria }: Loaded) {
  const current = currentVersion(row, versions);
  const blocks = current.blocks;
  const covered = coverage(blocks, criteria);
  return {
    base: {
      id: row.id,
      organizationId: row.organizationId,
      trialId: row.trialId,
      trialTitle,
      name: row.name,
      status: row.status,
      version: row.currentVersion,
      versions: versions.map((version) => ({
        id: version.id,
        version: version.version,
        createdAt: version.createdAt.toISOString(),
        resultCount: resultCounts.get(version.id) ?? 0,
      })),
      uncoveredCriterionIds: covered.filter((item) => item.questionIds.length === 0).map((item) => item.criterionId),
      publishedAt: row.publishedAt?.toISOString() ?? null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    },
    blocks,
    covered,
  };
}

const toForm = (loaded: Loaded): PrescreenForm => {
  const { base, blocks, covered } = summary(loaded);
  return { ...base, blocks, criteriaCoverage: covered };
};

const toSummary = (loaded: Loaded): PrescreenFormSummary => {
  const { base, blocks } = summary(loaded);
  return { ...base, questionCount: blocks.reduce((total, block) => total + block.questions.length, 0) };
};

function currentVersion(row: FormRow, versions: VersionRow[]): VersionRow {
  const found = versions.find((version) => version.formId === row.id && version.version === row.currentVersion);
  if (!found) throw new Error('prescreen form without its current version');
  return found;
}

async function load(tx: Transaction, rows: FormRow[]): Promise<Loaded[]> {
  const formIds = rows.map((row) => row.id);
  const trialIds = [...new Set(rows.map((row) => row.trialId))];
  const [versions, titles, criteria] = await Promise.all([listVersionRows(tx, formIds), trialTitles(tx, trialIds), listCriteria(tx, trialIds)]);
  const resultCounts = await countResultsByVersion(
    tx,
    versions.map((version) => version.id),
  );
  return rows.map((row) => ({
    row,
    versions: versions.filter((version) => version.formId === row.id),
    resultCounts,
    trialTitle: titles.get(row.trialId) ?? '',
    criteria: criteria.filter((criterion) => criterion.trialId === row.trialId),
  }));
}

/** A trial within the scope, or 404. */
async function trialInScope(tx: Transaction, scope: RequestScope, trialId: string): Promise<TrialRow> {
  const row = isUuid(trialId) ? await findTrialRow(tx, trialId) : undefined;
  if (!row || !canReach(scope, row.organizationId)) throw notFound('Trial not found');
  return row;
}

/** A form within the scope, or 404 (malformed, another organization's and missing alike). */
async function formInScope(tx: Transaction, scope: RequestScope, formId: string): Promise<FormRow> {
  const row = isUuid(formId) ? await findFormRow(tx, formId) : undefined;
  if (!row || !canReach(scope, row.organizationId)) throw notFound('Prescreen form not found');
  return row;
}

const criterionIdsOf = async (tx: Transaction, trialId: string) => new Set((await listCriteria(tx, [trialId])).map((criterion) => criterion.id));

export async function listForms(db: Database, scope: RequestScope, requested: Array<string[] | undefined>, trialId?: string): Promise<PrescreenFormList> {
  const organizationIds = selectOrganizations(scope, ...requested);
  if (trialId !== undefined && !isUuid(trialId)) return { prescreenForms: [], total: 0 };
  return runScoped(db, scope, async (tx) => {
    const rows = await listFormRows(tx, organizationIds, trialId);
    const forms = (await load(tx, rows)).map(toSummary);
    return { prescreenForms: forms, total: forms.length };
  });
}

export async function getForm(db: Database, scope: RequestScope, formId: string): Promise<PrescreenForm> {
  return runScoped(db, scope, async (tx) => toForm((await load(tx, [await formInScope(tx, scope, formId)]))[0]));
}

export async function createForm(db: Database, scope: RequestScope, input: CreatePrescreenFormInput): Promise<PrescreenForm> {
  return runScoped(db, scope, async (tx) => {
    const trial = await trialInScope(tx, scope, input.trialId);
    const blocks = input.blocks ?? [];
    const status: FormStatus = input.status ?? 'draft';
    const criterionIds = await criterionIdsOf(tx, trial.id);
    if (status === 'published') validatePublishable(blocks, criterionIds);
    else validateBlocks(blocks, criterionIds);
    const now = new Date();
    const row = await insertFormRow(tx, {
      organizationId: trial.organizationId,
      trialId: trial.id,
      name: input.name,
      status,
      currentVersion: 1,
      publishedAt: status === 'published' ? now : null,
      createdByUserId: scope.userId,
    });
    await insertVersionRow(tx, { organizationId: row.organizationId, formId: row.id, version: 1, blocks, createdByUserId: scope.userId });
    const audit = { organizationId: row.organizationId, actorUserId: scope.userId, entityType: 'prescreen_form', entityId: row.id };
    await recordAudit(tx, {
      ...audit,
      action: 'prescreen_form.create',
      changes: { fields: Object.keys(input).filter((key) => key !== 'trialId'), status, version: 1 },
    });
    if (status === 'published') await recordAudit(tx, { ...audit, action: 'prescreen_form.publish', changes: { version: 1 } });
    return toForm((await load(tx, [row]))[0]);
  });
}

/**
 * Name, status and blocks. New blocks replace the current version's, unless a prescreen result points at
 * it: then they become version N+1 and the results keep theirs. Publishing checks the form is complete.
 */
export async function updateForm(db: Database, scope: RequestScope, formId: string, input: UpdatePrescreenFormInput): Promise<PrescreenForm> {
  return runScoped(db, scope, async (tx) => {
    const row = await formInScope(tx, scope, formId);
    const [loaded] = await load(tx, [row]);
    const current = currentVersion(row, loaded.versions);
    const criterionIds = new Set(loaded.criteria.map((criterion) => criterion.id));

    const blocksChanged = input.blocks !== undefined && canonical(input.blocks) !== canonical(current.blocks);
    const blocks = blocksChanged ? input.blocks! : current.blocks;
    const status = input.status ?? row.status;
    const publishing = status === 'published' && row.status !== 'published';
    if (blocksChanged) validateBlocks(blocks, criterionIds);
    if (status === 'published' && (publishing || blocksChanged)) validatePublishable(blocks, criterionIds);

    const fields: string[] = [];
    const update: Partial<FormRow> = {};
    if (input.name !== undefined && input.name !== row.name) {
      update.name = input.name;
      fields.push('name');
    }
    if (status !== row.status) {
      update.status = status;
      fields.push('status');
      if (publishing) update.publishedAt = new Date();
    }
    let version = row.currentVersion;
    let newVersion = false;
    if (blocksChanged) {
      fields.push('blocks');
      if ((loaded.resultCounts.get(current.id) ?? 0) > 0) {
        version = Math.max(...loaded.versions.map((item) => item.version)) + 1;
        await insertVersionRow(tx, { organizationId: row.organizationId, formId: row.id, version, blocks, createdByUserId: scope.userId });
        update.currentVersion = version;
        newVersion = true;
      } else {
        await updateVersionBlocks(tx, current.id, blocks);
      }
    }
    if (fields.length === 0) return toForm(loaded);

    const saved = await updateFormRow(tx, row.id, update);
    const audit = { organizationId: row.organizationId, actorUserId: scope.userId, entityType: 'prescreen_form', entityId: row.id };
    await recordAudit(tx, {
      ...audit,
      action: 'prescreen_form.update',
      changes: { fields, version, ...(newVersion ? { previousVersion: row.currentVersion } : {}), ...(update.status ? { from: row.status, to: status } : {}) },
    });
    if (publishing) await recordAudit(tx, { ...audit, action: 'prescreen_form.publish', changes: { version } });
    return toForm((await load(tx, [saved]))[0]);
  });
}

/** Blocks for a trial's criteria; nothing is saved. */
export async function generateStudyBlocks(db: Database, scope: RequestScope, trialId: string): Promise<GenerateStudyBlocksResponse> {
  return runScoped(db, scope, async (tx) => {
    const trial = await trialInScope(tx, scope, trialId);
    const criteria = await listCriteria(tx, [trial.id]);
    return generate({
      criteria: criteria.map((criterion) => ({ ...criterion, rule: criterion.rule ?? null })),
      siteName: trial.sites[0]?.name ?? null,
    });
  });
}

export async function detectDuplicates(db: Database, scope: RequestScope, input: DetectDuplicatesRequest): Promise<DetectDuplicatesResponse> {
  if (input.blocks) return { pairs: findDuplicates(input.blocks) };
  return runScoped(db, scope, async (tx) => {
    const [loaded] = await load(tx, [await formInScope(tx, scope, input.formId!)]);
    const positions = new Map(loaded.criteria.map((criterion) => [criterion.id, criterion.position + 1]));
    const label = (id: string) => (positions.has(id) ? `criterion ${positions.get(id)}` : `criterion ${id}`);
    return { pairs: findDuplicates(currentVersion(loaded.row, loaded.versions).blocks, { criterionLabel: label }) };
  });
}

/** Merges the chosen pairs in the given blocks; reads and saves nothing. */
export function applyDeduplication(input: ApplyDeduplicationRequest): ApplyDeduplicationResponse {
  validateBlocks(
    input.blocks,
    new Set(input.blocks.flatMap((block) => block.questions.flatMap((question) => question.criterionLinks.map((link) => link.criterionId)))),
  );
  return mergeDuplicates(input.blocks, input.pairs);
}
