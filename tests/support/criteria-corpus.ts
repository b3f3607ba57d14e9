import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Papa from 'papaparse';
import type { Question } from '../../src/contract/prescreen-forms';
import type { DraftCriterion } from '../../src/contract/trials';
import { draftFromStudy } from '../../src/server/features/trials/ctgov';
import { generateStudyBlocks } from '../../src/server/features/prescreen-forms/generator';
import { AGE_OF_MAJORITY } from '../../src/server/features/trials/criteria/age';

/**
 * The criteria-reading metrics of issue 10 over a set of ClinicalTrials.gov records (docs/criteria-reading.md).
 * The checks here are written independently of the parser, so the parser cannot pass them by agreeing with
 * itself: a placeholder or heading is recognized by its text, an age rule's bounds must sit next to an age word.
 */

export const SHARED_STUDIES = path.resolve(process.cwd(), '../shared/data/ctgov/studies.json');

export function loadSharedStudies(): unknown[] | null {
  return existsSync(SHARED_STUDIES) ? (JSON.parse(readFileSync(SHARED_STUDIES, 'utf8')) as unknown[]) : null;
}

/** The development / evaluation split of the shared records (issue 30; tests/fixtures/ctgov/evaluation-split.json, seed recorded there). */
export const EVALUATION_SPLIT = JSON.parse(readFileSync(path.resolve(process.cwd(), 'tests/fixtures/ctgov/evaluation-split.json'), 'utf8')) as {
  seed: number;
  development: string[];
  evaluation: string[];
};

const nctIdOf = (study: unknown) => (study as { protocolSection?: { identificationModule?: { nctId?: string } } }).protocolSection?.identificationModule?.nctId;

/** One half of the shared records: 'development' (what the reader may be tuned on) or 'evaluation' (never tuned on). */
export function studiesOfPart(studies: unknown[], part: 'development' | 'evaluation'): unknown[] {
  const ids = new Set(EVALUATION_SPLIT[part]);
  return studies.filter((study) => ids.has(nctIdOf(study) ?? ''));
}

export const SHARED_CRITERIA_PARSING = path.resolve(process.cwd(), '../shared/data/criteria-parsing/clinical_trials.csv');

/**
 * The records of the Clinical-Trial-Parser set (../shared/data/criteria-parsing/clinical_trials.csv: id, title,
 * conditions, eligibility text) as minimal study records. The file's rows include its header written again
 * mid-file; a row whose id is no NCT id is not a record.
 */
export function loadCriteriaParsingStudies(): unknown[] | null {
  if (!existsSync(SHARED_CRITERIA_PARSING)) return null;
  const rows = Papa.parse<string[]>(readFileSync(SHARED_CRITERIA_PARSING, 'utf8'), { skipEmptyLines: true }).data.slice(1);
  return rows
    .filter((row) => /^NCT\d{8}$/.test(row[0] ?? ''))
    .map(([nctId, title, , conditions, eligibilityCriteria]) => ({
      protocolSection: {
        identificationModule: { nctId, briefTitle: title },
        conditionsModule: { conditions: (conditions ?? '').split('|').filter(Boolean) },
        eligibilityModule: { eligibilityCriteria },
      },
    }));
}

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Text that is not a criterion: empty/punctuation, "None", "n/a", a bare heading or lead-in ending in ":". */
export function isPlaceholderOrHeading(text: string): boolean {
  const value = squash(text);
  if (!/[a-z0-9]/i.test(value)) return true;
  if (/^(?:none|nil|n\/?a|na|not applicable|no exclusion criteria|no inclusion criteria|not specified|none specified)\.?$/i.test(value)) return true;
  if (/^(?:key |main |general )?(?:inclusion|exclusion)s?(?: criteria| criterion)?:?$/i.test(value)) return true;
  // A lead-in or heading on its own: ends with a colon, nothing after it.
  if (/:$/.test(value)) return true;
  return false;
}

const AGE_WORD = /\b(?:age[ds]?|years?|yrs?|y\/?o|yoa|old|older|younger|months?|adults?|children|minors|birthday)\b|\+/i;
const NOT_AGE_UNIT = /^\s*(?:%|bpm|beats|\/min|mmhg|mg|g\/|kg|cm|mm|ml|points?|score|cells|x\s*10|times|pack|cigarettes|weeks? (?:of|ago)|days?)\b/i;

/** An age rule read from text is sound when each bound is a number in the text that sits next to an age word. */
export function ageRuleFromNonAgeNumber(criterion: DraftCriterion): boolean {
  if (criterion.rule?.type !== 'age' || criterion.ruleSource === 'structured') return false;
  const text = criterion.text;
  const bounds = [criterion.rule.minYears, criterion.rule.maxYears].filter((value): value is number => value !== null);
  // "All adult patients", "of legal age": the age of majority read from words, with no number to mistake (decision 300).
  if (!/\d/.test(text) && bounds.every((bound) => bound === AGE_OF_MAJORITY)) return false;
  for (const bound of bounds) {
    // An exclusion's bound is the excluded age's neighbour in whole years ("18 or younger" excluded -> at least 19).
    const candidates = [bound, bound - 1, bound + 1, Math.round(bound * 12), Math.round(bound * 52)].map(String);
    let ok = false;
    for (const value of candidates) {
      const pattern = new RegExp(String.raw`(?<![\d.,])${value}(?![\d.,]\d)`, 'g');
      for (const match of text.matchAll(pattern)) {
        const before = text.slice(Math.max(0, match.index - 40), match.index);
        const after = text.slice(match.index + match[0].length, match.index + match[0].length + 25);
        if (NOT_AGE_UNIT.test(after)) continue;
        if (AGE_WORD.test(before) || AGE_WORD.test(after)) ok = true;
      }
    }
    if (!ok) return true;
  }
  return false;
}

const words = (text: string) =>
  squash(text)
    .toLowerCase()
    .replace(/[^a-z0-9 ]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean);

/** A question that copies its criterion: the criterion's words (at least 6 of them, in order) inside the wording. */
export function isVerbatim(question: Question, criterionTexts: string[]): boolean {
  if (question.source === 'criterion_text') return true;
  const wording = ` ${words(question.wording.chat.en).join(' ')} `;
  return criterionTexts.some((text) => {
    const criterion = words(text);
    return criterion.length >= 6 && wording.includes(` ${criterion.join(' ')} `);
  });
}

export interface CorpusMetrics {
  records: number;
  criteria: number;
  withRule: number;
  withRuleNotJudgement: number;
  noReview: number;
  placeholders: string[];
  nonAgeAges: string[];
  patientQuestions: number;
  verbatimQuestions: number;
  siteReviewItems: number;
  /** Criteria read from the text that a patient question in plain words (not their own text) asks about. */
  askedInPlainWords: number;
  longQuestions: number;
  spanishMissing: number;
  /** Patient questions marked for staff to write their Spanish wording (a term with no Spanish name). */
  spanishToWrite: number;
}

/** Reads every record and generates its prescreen form; counts over the criteria read from the text. */
export function measureCorpus(studies: unknown[]): CorpusMetrics {
  const metrics: CorpusMetrics = {
    records: studies.length,
    criteria: 0,
    withRule: 0,
    withRuleNotJudgement: 0,
    noReview: 0,
    placeholders: [],
    nonAgeAges: [],
    patientQuestions: 0,
    verbatimQuestions: 0,
    siteReviewItems: 0,
    askedInPlainWords: 0,
    longQuestions: 0,
    spanishMissing: 0,
    spanishToWrite: 0,
  };
  for (const study of studies) {
    const draft = draftFromStudy(study);
    const fromText = draft.criteria.filter((criterion) => criterion.ruleSource !== 'structured');
    for (const criterion of fromText) {
      metrics.criteria++;
      if (criterion.rule) metrics.withRule++;
      if (criterion.rule && (criterion.rule.type as string) !== 'site_judgement') metrics.withRuleNotJudgement++;
      if (criterion.rule && !criterion.needsReview) metrics.noReview++;
      if (isPlaceholderOrHeading(criterion.text)) metrics.placeholders.push(`${draft.nctId}: ${criterion.text}`);
      if (ageRuleFromNonAgeNumber(criterion)) metrics.nonAgeAges.push(`${draft.nctId}: ${criterion.text} -> ${JSON.stringify(criterion.rule)}`);
    }
    const criteria = draft.criteria.map((criterion, index) => ({ ...criterion, id: `c${index}`, position: index }));
    const { blocks } = generateStudyBlocks({ criteria, siteName: draft.sites[0]?.name ?? null });
    const asked = new Set<string>();
    for (const question of blocks.flatMap((block) => block.questions)) {
      if ((question as { audience?: string }).audience === 'site') {
        metrics.siteReviewItems++;
        continue;
      }
      metrics.patientQuestions++;
      const linked = new Set(question.criterionLinks.map((link) => link.criterionId));
      const texts = criteria.filter((criterion) => linked.has(criterion.id)).map((criterion) => criterion.text);
      if (isVerbatim(question, texts)) metrics.verbatimQuestions++;
      else for (const id of linked) asked.add(id);
      if (words(question.wording.chat.en).length > 20) metrics.longQuestions++;
      // A question marked needsSpanish has no Spanish on purpose (no Spanish name for its term, decision 223).
      if (!question.wording.chat.es) metrics[question.needsSpanish ? 'spanishToWrite' : 'spanishMissing']++;
    }
    metrics.askedInPlainWords += criteria.filter((criterion) => criterion.ruleSource !== 'structured' && asked.has(criterion.id)).length;
  }
  return metrics;
}

const percent = (part: number, whole: number) => (whole ? Math.round((part / whole) * 1000) / 10 : 0);

export function formatMetrics(metrics: CorpusMetrics): string {
  return [
    `records: ${metrics.records}, criteria read from text: ${metrics.criteria}`,
    `criteria with a machine rule: ${metrics.withRule} (${percent(metrics.withRule, metrics.criteria)}%); without site_judgement: ${percent(metrics.withRuleNotJudgement, metrics.criteria)}%`,
    `rules needing no review: ${metrics.noReview} (${percent(metrics.noReview, metrics.criteria)}% of criteria)`,
    `patient questions: ${metrics.patientQuestions}, verbatim criterion text: ${metrics.verbatimQuestions} (${percent(metrics.verbatimQuestions, metrics.patientQuestions)}%), over 20 words: ${metrics.longQuestions}, without Spanish: ${metrics.spanishMissing}, Spanish for staff to write: ${metrics.spanishToWrite}; site_review items: ${metrics.siteReviewItems}`,
    `criteria asked of the patient in plain words: ${metrics.askedInPlainWords} (${percent(metrics.askedInPlainWords, metrics.criteria)}%)`,
    `placeholder/heading criteria: ${metrics.placeholders.length}`,
    `age rules from non-age numbers: ${metrics.nonAgeAges.length}`,
  ].join('\n');
}

export const share = (part: number, whole: number) => (whole ? part / whole : 0);
