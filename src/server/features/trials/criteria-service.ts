import type { CriterionRule, ReparseResult, SuggestionsResult } from '../../../contract/trials';
import { runScoped, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import { AppError } from '../../http/errors';
import { CriteriaReaderError, type CriteriaReader, type RuleProposal } from '../../integrations/llm/criteria-reader';
import type { AppConfig } from '../../config';
import { recordActivity } from '../../activity';
import { recordAudit, rowChange } from '../../audit';

import { readWithAlternatives, recordVocabulary, trialConceptsOf } from './criteria';
import { ALLERGY_PREFIX, STUDY_MEDICINE_PREFIX } from './vocabulary';
import { listCriteria, updateCriterionRule, updateTrialRow } from './queries';
import { findInScope, loadTrial } from './trial-record';

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
    // The trial's own conditions: what "symptoms" or "pain" with no condition named are about.
    const trialConcepts = trialConceptsOf(row.conditions ?? [], vocabulary);
    const changes: ReparseResult['changes'] = [];
    let unchanged = 0;
    let kept = 0;
    // Read in order, as the import does: the items of an "at least one of the following" list are read together.
    // The trial's own medicines: the trial row keeps no interventions, so the names an import read are taken back from
    // the rules that carry them ("an allergy to finerenone" keeps reading so; decision 108).
    const studyMedicines = [
      ...new Set(
        criteria.flatMap((criterion) =>
          (criterion.rule && 'concepts' in criterion.rule ? (criterion.rule.concepts ?? []) : [])
            .map((concept) => concept.id.replace(ALLERGY_PREFIX, ''))
            .filter((id) => id.startsWith(STUDY_MEDICINE_PREFIX))
            .map((id) => id.slice(STUDY_MEDICINE_PREFIX.length)),
        ),
      ),
    ];
    const reads = readWithAlternatives(criteria, { vocabulary, trialConcepts, studyMedicines });
    for (const [index, criterion] of criteria.entries()) {
      if (criterion.ruleSource === 'manual' || criterion.ruleSource === 'structured') {
        kept++;
        continue;
      }
      const read = reads[index];
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
      await recordAudit(tx, rowChange(scope.userId, row, 'trial.reparse', 'trial', { changed: changes.length, unchanged, kept }));
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
    throw new AppError(
      409,
      'No language model is connected: ask an administrator to connect one to get suggestions for the unread criteria',
      'LLM_NOT_CONFIGURED',
    );
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
      await recordAudit(
        tx,
        rowChange(scope.userId, row, 'trial.suggest_rules', 'trial', { model: reader.model, asked: unread.length, suggested: suggested.length }),
      );
    }
    const saved = suggested.length ? await updateTrialRow(tx, row.id, {}) : row;
    return { trial: await loadTrial(tx, saved), model: reader.model, asked: unread.length, suggested, unread: left };
  });
}
