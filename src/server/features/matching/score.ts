import type { FactSource, MatchClass } from '../../../contract/matching';
import type { CriterionRule } from '../../../contract/trials';
import { discLevelsOf } from './spinal-levels';

/** What the score reads of a criterion (evaluate.ts `MatchCriterion` has it; kept apart so the two files do not import each other). */
interface MatchCriterion {
  kind: 'inclusion' | 'exclusion';
  rule: CriterionRule | null;
  ruleSource: string | null;
  needsReview: boolean;
  population: string | null;
  text?: string;
}

/**
 * The matcher's calibrated score (issue 31, decision 131): an estimate of the chance that the person is eligible
 * given the evidence, the product over the trial's criteria of the chance each one is satisfied. A criterion met
 * counts 1 (0.9 when its rule is not yet reviewed); one not met counts 0.02 (0.1 when its rule is not yet reviewed:
 * it may be misread); one unknown counts a prior that depends on its kind and on how complete the person's source
 * is: a full clinical note lists the serious conditions a person has, so an exclusion of one the note does not
 * mention is probably clear (0.95), a CSV row says much less (0.85). The prior never shows as an outcome: the
 * criterion stays unknown in the evidence. The run (`compiled.ts`) and the reference (`evaluate.ts`) both read the
 * per-criterion plans made here once per trial, so they give the same number.
 */

/** How complete a person's source is: a clinical note, a health record (FHIR), or anything partial (a CSV row, answers). */
export type Completeness = 'note' | 'record' | 'partial';
export const COMPLETENESS: readonly Completeness[] = ['note', 'record', 'partial'];
export const NOTE = 0;
export const RECORD = 1;
export const PARTIAL = 2;

/** A person's completeness from their facts' sources: any note makes it a note; else any health record. */
export function completenessOf(facts: ReadonlyArray<{ source: FactSource }>): number {
  let best = PARTIAL;
  for (const fact of facts) {
    if (fact.source === 'note') return NOTE;
    if (fact.source === 'fhir') best = RECORD;
  }
  return best;
}

/** What one criterion's outcomes weigh, as natural logarithms, decided once per trial. */
export interface ScorePlan {
  met: number;
  notMet: number;
  /** Per completeness (NOTE, RECORD, PARTIAL). */
  unknown: readonly [number, number, number];
  /**
   * Unknown although a fact names the condition or medicine (its severity, duration or currency not said: "has a
   * slipped disc; lumbar?"): a condition the trial wants is then usually met, one it excludes often present. Null
   * for other rules.
   */
  unknownNamed: number | null;
  /** A "not met" excludes: the rule is reviewed (an unreviewed one lowers the score and flags). */
  excludes: boolean;
  /** An exclusion of a condition a complete source would mention: "not mentioned" in the explanation. */
  silentExclusion: boolean;
  /** The trial's condition itself (its target, or a reviewed inclusion that asks for it plainly). */
  relevance: boolean;
  /**
   * Another inclusion that wants a condition (a form, a stage, a symptom of the trial's): left unknown, it is
   * usually met by a person who has the trial's condition, so its chance then is `UNKNOWN_WHEN_RELEVANT`; for a
   * person who does not, its own prior (the relevance criterion already carries that doubt once).
   */
  dependsOnRelevance: boolean;
}

/**
 * The chance a criterion is satisfied although a rule not yet reviewed says not met (decision 179): on the labelled
 * set's development part, 8 of the 9 such outcomes a label decides agree with it, so about 1 in 10 (0.25 before).
 */
export const UNREVIEWED_NOT_MET = 0.1;

/** The chance an inclusion wanting a condition is met, unknown, for a person who has the trial's condition. */
export const UNKNOWN_WHEN_RELEVANT = Math.log(0.8);

const ln = Math.log;
const chances = (note: number, record: number, partial: number): readonly [number, number, number] => [ln(note), ln(record), ln(partial)];

/** The chance a criterion the evidence leaves unknown is satisfied, by its kind (note, record, partial). */
function unknownChances(criterion: MatchCriterion): readonly [number, number, number] {
  const rule = criterion.rule;
  const usable = rule && !(criterion.ruleSource === 'llm' && criterion.needsReview);
  // Without a rule: what the development part's labels show of criteria a note decides (inclusions 93% met, exclusions 100%).
  if (!usable || !rule) return criterion.kind === 'exclusion' ? chances(0.97, 0.97, 0.97) : chances(0.92, 0.92, 0.92);
  switch (rule.type) {
    case 'condition':
      // The trial's condition (target-condition.ts): a full note that does not name it is rarely about someone who has it.
      if (criterion.ruleSource === 'target') return chances(0.1, 0.2, 0.35);
      if (criterion.ruleSource === 'target-open') return chances(0.5, 0.5, 0.5);
      // Wanted: a note that does not say it makes it less likely; not wanted: a note that does not say it, probably clear.
      return rule.present ? chances(0.4, 0.45, 0.55) : rule.within ? chances(0.9, 0.9, 0.85) : chances(0.95, 0.93, 0.85);
    case 'medication':
      return rule.taking ? chances(0.4, 0.45, 0.55) : chances(0.92, 0.92, 0.85);
    case 'age':
    case 'sex':
      return chances(0.7, 0.7, 0.7);
    case 'lab':
    case 'performance_status':
      return chances(0.75, 0.75, 0.75);
    case 'pregnancy':
      return chances(0.97, 0.97, 0.97);
    case 'smoking':
      return rule.smoker ? chances(0.35, 0.35, 0.35) : chances(0.8, 0.8, 0.8);
    case 'healthy_volunteers':
      return chances(0.95, 0.95, 0.95);
    case 'contraception':
    case 'site_judgement':
      return chances(0.97, 0.97, 0.97);
  }
}

/** The chance for a criterion left unknown by a fact that names its condition or medicine (see `unknownNamed`). */
function namedChance(criterion: MatchCriterion): number | null {
  const rule = criterion.rule;
  if (!rule || (rule.type !== 'condition' && rule.type !== 'medication') || (criterion.ruleSource === 'llm' && criterion.needsReview)) return null;
  const wanted = rule.type === 'condition' ? rule.present : rule.taking;
  return wanted ? ln(0.75) : ln(0.5);
}

export function scorePlanOf(criterion: MatchCriterion): ScorePlan {
  const unreviewed = criterion.needsReview && criterion.ruleSource !== 'structured' && !criterion.ruleSource?.startsWith('target');
  const rule = criterion.rule;
  const unknown = unknownChances(criterion);
  return {
    // Met never weighs below unknown (decision 205): an unreviewed exclusion a note clears ("no prior biologic") would
    // otherwise count 0.9 where the same note's silence counts 0.95, and reading more would rank the person lower.
    met: unreviewed ? Math.max(ln(0.9), ...unknown) : 0,
    notMet: unreviewed ? ln(UNREVIEWED_NOT_MET) : ln(0.02),
    unknown,
    unknownNamed: namedChance(criterion),
    excludes: !unreviewed,
    silentExclusion: criterion.kind === 'exclusion' && rule?.type === 'condition' && !rule.present && !criterion.population,
    relevance: isRelevance(criterion),
    dependsOnRelevance: criterion.kind === 'inclusion' && rule?.type === 'condition' && rule.present && !criterion.population && !isRelevance(criterion),
  };
}

/** The trial's condition as a criterion: its target (target-condition.ts), or a reviewed inclusion asking for a condition plainly. */
function isRelevance(criterion: MatchCriterion): boolean {
  const rule = criterion.rule;
  if (criterion.ruleSource?.startsWith('target')) return true;
  if (criterion.kind !== 'inclusion' || criterion.population || criterion.needsReview || rule?.type !== 'condition' || !rule.present) return false;
  return !rule.qualifiers?.length && !rule.duration && !rule.within && !discLevelsOf(criterion);
}

const plansCache = new WeakMap<readonly MatchCriterion[], ScorePlan[]>();
/** The plans of a trial's criteria, kept per criteria list (the same list is evaluated for many people). */
export function scorePlans(criteria: readonly MatchCriterion[]): ScorePlan[] {
  let plans = plansCache.get(criteria);
  if (!plans) plansCache.set(criteria, (plans = criteria.map(scorePlanOf)));
  return plans;
}

/**
 * A person's class and score from their criteria's tally: a reviewed criterion not met excludes; "likely" needs every
 * key criterion (the trial's condition, age, sex, the labs it names) met and no unreviewed rule failed; otherwise
 * "possible". The score is the chance of eligibility, to three decimals.
 */
export function classAndScore(excluding: number, keyUnknown: boolean, flagged: number, logChance: number): { matchClass: MatchClass; score: number } {
  const matchClass: MatchClass = excluding > 0 ? 'excluded' : keyUnknown || flagged > 0 ? 'possible' : 'likely';
  return { matchClass, score: Math.round(Math.exp(logChance) * 1000) / 1000 };
}

const COMPLETENESS_WORDS = ['a full clinical note', 'the health record', 'what is on file'];
const CLASS_WORDS: Record<MatchClass, string> = { likely: 'Likely eligible', possible: 'Possibly eligible', excluded: 'Excluded' };

/** One criterion's outcome as the explanation reads it. */
export interface ExplainedOutcome {
  outcome: 'met' | 'not_met' | 'unknown' | 'not_applicable';
  key: boolean;
  reason: string;
  factId: string | null;
}

/**
 * The score in plain words: "Likely eligible (62%): has a slipped (herniated) disc (clinical note), age 45 (clinical
 * note); 6 exclusions not mentioned in a full clinical note". The reasons are the criteria's own sentences.
 */
export function explainScore(
  result: { matchClass: MatchClass; score: number },
  outcomes: readonly ExplainedOutcome[],
  plans: readonly ScorePlan[],
  completeness: number,
): string {
  const parts: string[] = [];
  const excluding: string[] = [];
  const flagged: string[] = [];
  const keyMet: string[] = [];
  let keyUnknown = 0;
  let silent = 0;
  let otherUnknown = 0;
  for (let i = 0; i < outcomes.length; i++) {
    const item = outcomes[i];
    // Two criteria can say the same thing (the record's age range and the text's "aged 18 or over"): said once.
    if (item.outcome === 'not_met') pushOnce(plans[i].excludes ? excluding : flagged, item.reason);
    else if (item.outcome === 'met' && item.key && item.factId) pushOnce(keyMet, lowerFirst(item.reason));
    else if (item.outcome === 'unknown') {
      if (item.key) keyUnknown++;
      else if (plans[i].silentExclusion) silent++;
      else otherUnknown++;
    }
  }
  if (excluding.length)
    parts.push(`not met: ${excluding.slice(0, 2).map(lowerFirst).join('; ')}${excluding.length > 2 ? ` and ${excluding.length - 2} more` : ''}`);
  if (keyMet.length) parts.push(keyMet.slice(0, 3).join(', '));
  if (flagged.length)
    parts.push(`${count(flagged.length, 'rule')} not yet reviewed ${flagged.length === 1 ? 'says' : 'say'} not met: ${lowerFirst(flagged[0])}`);
  if (keyUnknown) parts.push(`${count(keyUnknown, 'key criterion', 'key criteria')} not known`);
  if (silent) parts.push(`${count(silent, 'exclusion')} not mentioned in ${COMPLETENESS_WORDS[completeness]}`);
  if (otherUnknown) parts.push(`${count(otherUnknown, 'other criterion', 'other criteria')} to check`);
  return `${CLASS_WORDS[result.matchClass]} (${Math.round(result.score * 100)}% chance): ${parts.join('; ') || 'nothing on record decides'}`;
}

const pushOnce = (list: string[], reason: string) => {
  if (!list.includes(reason)) list.push(reason);
};
const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
/** "Age 61" reads "age 61" inside a sentence; an acronym ("BMI 38", "HbA1c", "eGFR") keeps its letters. */
const lowerFirst = (text: string) => (text && !/^[A-Za-z][A-Z0-9]/.test(text) ? text[0].toLowerCase() + text.slice(1) : text);
