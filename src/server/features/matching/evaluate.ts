import type { MatchClass, MatchOutcome } from '../../../contract/matching';
import {
  QUALIFIER_WORDS,
  qualifiersHeld,
  type ConditionDuration,
  type ConditionQualifier,
  type CriterionRule,
  type TimeWindow,
} from '../../../contract/trials';
import type { FactKind, FactSource, FactStatus } from '../../../contract/matching';
import { durationText, lasted } from './condition-durations';
import { ageFromBirth, ageFromYears, ageWithin, ageWords, boundWords, PAST_CHILDBEARING_YEARS, type PersonAge } from './age';
import { deniedForPart, deniedWith, isA, nearInTree, onlyThroughSymptoms, showsByDefinition } from './concept-hierarchy';
import { operationInGroup } from './operations';
import { impliedByCondition } from './implied-measures';
import { generalDenialAnswers, isGeneralDenial, relatedToOwnIllness } from './general-denials';
import { compare, unitConversion } from './lab-units';
import { againstUpperLimit, intoSpanUnit, upperLimitSpan } from './lab-normal-ranges';
import { qualifiersContradicted } from './qualifier-opposites';
import { discLevelsOf, levelsAgree } from './spinal-levels';
import { isOwnCondition, ownConditionsPerCriterion } from './own-condition';
import { exceptedFact } from './rule-exceptions';
import { cohortCriterion } from './cohorts';
import { testAnswers, testNamed } from './clinical-tests';
import { testConfirmedChecks, type TestConfirmedCheck } from './test-confirmed-checks';
import { classAndScore, completenessOf, explainScore, scorePlans, UNKNOWN_WHEN_RELEVANT } from './score';
import { withoutExample } from '../trials/vocabulary';
import { isPainScore } from '../trials/criteria';

/**
 * The trial matcher's rules: one candidate's facts against one trial's criterion rules. Pure and
 * deterministic (the caller passes `today`). Outcomes are in eligibility terms, like the rules themselves
 * (an exclusion "History of MI" is the rule "no MI, ever"): `met` means the person meets what the trial asks
 * of them on that criterion, `not_met` that they do not. docs/decisions/025-candidate-facts-and-matching.md.
 */

export interface MatchFact {
  id: string;
  kind: FactKind;
  conceptId: string | null;
  name: string;
  status: FactStatus | null;
  value: number | null;
  unit: string | null;
  valueText: string | null;
  observedOn: string | null;
  source: FactSource;
}

export interface MatchPerson {
  dateOfBirth: string | null;
  sex: string;
  facts: MatchFact[];
  /** How complete the person's source is (score.ts NOTE, RECORD, PARTIAL); from the facts' sources when not given. */
  completeness?: number;
}

export interface MatchCriterion {
  id: string;
  kind: 'inclusion' | 'exclusion';
  rule: CriterionRule | null;
  ruleSource: string | null;
  needsReview: boolean;
  population: string | null;
  /** The criterion's words, where the caller has them: disc levels are read from them (spinal-levels.ts). */
  text?: string;
}

export interface CriterionOutcome {
  criterionId: string;
  outcome: MatchOutcome;
  /** A clinical fact the trial needs to know (who the trial is for): unknown ones make a match "possible", not "likely". */
  key: boolean;
  /** Why, in a sentence a coordinator reads: "Age 58 (date of birth) is within 18-65". */
  reason: string;
  /** The fact that decided it, when one did. */
  factId: string | null;
}

export interface PersonMatch {
  matchClass: MatchClass;
  /** The chance of eligibility given the evidence (score.ts). */
  score: number;
  /** The class and score in plain words (empty unless explained). */
  summary: string;
  /** Criteria not met only by a rule not yet reviewed: they lower the score and flag, they do not exclude. */
  flagged: number;
  outcomes: CriterionOutcome[];
  metCount: number;
  notMetIds: string[];
  unknownIds: string[];
}

/** Whole years between a YYYY-MM-DD birth date and today (UTC). */
export function ageOn(dateOfBirth: string, today: Date): number {
  const [year, month, day] = dateOfBirth.split('-').map(Number);
  let age = today.getUTCFullYear() - year;
  if (today.getUTCMonth() + 1 < month || (today.getUTCMonth() + 1 === month && today.getUTCDate() < day)) age--;
  return age;
}

function windowStart(window: TimeWindow, today: Date): Date {
  const start = new Date(today);
  if (window.unit === 'days') start.setUTCDate(start.getUTCDate() - window.value);
  else if (window.unit === 'weeks') start.setUTCDate(start.getUTCDate() - window.value * 7);
  else if (window.unit === 'months') start.setUTCMonth(start.getUTCMonth() - window.value);
  else start.setUTCFullYear(start.getUTCFullYear() - window.value);
  return start;
}

const FILLER = new Set(['a', 'an', 'the', 'of', 'or', 'and', 'such', 'as', 'any']);
const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
/** Word sets are computed once per name: the matcher asks the same few names about every person. */
const wordCache = new Map<string, Set<string>>();
function wordsOf(text: string): Set<string> {
  let found = wordCache.get(text);
  if (!found) {
    if (wordCache.size > 50_000) wordCache.clear();
    wordCache.set(text, (found = words(text)));
  }
  return found;
}
const requiredCache = new Map<string, string[]>();
function requiredWords(name: string): string[] {
  let found = requiredCache.get(name);
  if (!found) requiredCache.set(name, (found = [...words(name)].filter((word) => !FILLER.has(word))));
  return found;
}

/**
 * Whether a fact names one of the rule's concepts: the same concept id, or a fact at least as specific by its
 * words ("type 2 diabetes mellitus" is a "diabetes mellitus"; "asthma" is not a "severe asthma").
 */
export function factNames(fact: Pick<MatchFact, 'conceptId' | 'name'>, concepts: ReadonlyArray<{ id: string; name: string }>, fallbackName: string): boolean {
  // Loops, not closures: asked for every fact of every person in a run.
  // The same concept, or a more specific one ("NSTEMI" names "myocardial infarction"; concept-hierarchy.ts).
  // A symptom is not the nervous system disease MeSH files it under (concept-hierarchy.ts `onlyThroughSymptoms`).
  if (fact.conceptId)
    for (const concept of concepts)
      if (concept.id === fact.conceptId || (isA(fact.conceptId, concept.id) && !onlyThroughSymptoms(fact.conceptId, concept.id))) return true;
  const factWords = wordsOf(withoutExample(fact.name));
  if (concepts.length === 0) return hasEvery(factWords, requiredWords(fallbackName));
  for (const concept of concepts) if (hasEvery(factWords, requiredWords(concept.name))) return true;
  return false;
}

/** Whether the set holds every word (and there is at least one). */
function hasEvery(set: Set<string>, required: readonly string[]): boolean {
  if (required.length === 0) return false;
  for (const word of required) if (!set.has(word)) return false;
  return true;
}

/** A fact whose every word is in the concept's name: the fact is the broader one ("diabetes" of "type 2 diabetes"). */
function deniesBroader(fact: Pick<MatchFact, 'name'>, concepts: ReadonlyArray<{ name: string }>, fallbackName: string): boolean {
  const factWords = requiredWords(fact.name);
  if (factWords.length === 0) return false;
  if (concepts.length === 0) return hasEvery(wordsOf(fallbackName), factWords);
  for (const concept of concepts) if (hasEvery(wordsOf(concept.name), factWords)) return true;
  return false;
}

const SOURCE_WORDS: Record<FactSource, string> = {
  prescreen: 'prescreen answer',
  import: 'imported file',
  fhir: 'health record',
  note: 'clinical note',
  manual: 'entered by staff',
};
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** A fact's calendar date as staff read it ("1 Feb 2026"), never the stored "2026-02-01". */
const dayWords = (day: string) => {
  const [year, month, date] = day.slice(0, 10).split('-').map(Number);
  return year && month && date ? `${date} ${MONTHS[month - 1]} ${year}` : day;
};
const from = (fact: MatchFact) => `${SOURCE_WORDS[fact.source]}${fact.observedOn ? `, ${dayWords(fact.observedOn)}` : ''}`;

/** The newest fact first (undated facts last), so "the latest value" is the first match. */
const newestFirst = (a: MatchFact, b: MatchFact) => (b.observedOn ?? '').localeCompare(a.observedOn ?? '');

/** A person's facts by kind, newest first: built once per person, read by every criterion. */
type FactIndex = Map<FactKind, MatchFact[]>;
function indexFacts(facts: MatchFact[]): FactIndex {
  const index: FactIndex = new Map();
  for (const fact of facts) {
    const list = index.get(fact.kind);
    if (list) list.push(fact);
    else index.set(fact.kind, [fact]);
  }
  for (const list of index.values()) if (list.length > 1) list.sort(newestFirst);
  return index;
}
const NONE: MatchFact[] = [];

type Judgement = Omit<CriterionOutcome, 'criterionId'>;
const unknown = (reason: string, key: boolean, factId: string | null = null): Judgement => ({ outcome: 'unknown', reason, factId, key });

function inWindow(fact: MatchFact, since: Date | null): boolean {
  return !since || !fact.observedOn || new Date(`${fact.observedOn}T00:00:00Z`) >= since;
}

/** Whether a fact names the rule's concept, or is a denial broader than it ("no diabetes" rules out type 2 diabetes). */
export function namesRuleConcept(
  fact: Pick<MatchFact, 'conceptId' | 'name' | 'status'>,
  rule: {
    concepts?: Array<{ id: string; name: string }>;
    except?: Array<{ id: string }>;
    present?: boolean;
    taking?: boolean;
    qualifiers?: readonly string[];
  },
  label: string,
): boolean {
  const concepts = rule.concepts ?? NO_CONCEPTS;
  if (isGeneralDenial(fact)) return false;
  // "Other than asthma": a fact of what the rule excepts is not the rule's (rule-exceptions.ts, decision 202).
  // A past operation is one of the group a rule names ("any surgery", "spine surgery"; operations.ts, decision 306).
  if (fact.status !== 'absent')
    return (
      (factNames(fact, concepts, label) ||
        (rule.present === true && showsWanted(fact, concepts)) ||
        (fact.status === 'history' && pastOperationOf(fact, concepts))) &&
      !exceptedFact(fact.conceptId, rule.except)
    );
  // A denial speaks for its concept and everything under it, never for a broader one: "no cirrhosis" is not "no liver disease".
  // A group's members without a heading (decision 205) only where the denial can clear the person, never fail them.
  const clears = rule.present === false || rule.taking === false;
  return sameConcept(fact, concepts) || deniesBroader(fact, concepts, label) || deniesAncestor(fact, concepts, clears) || (clears && deniesPart(fact, rule));
}

/** A condition that shows a wanted one by its definition (concept-hierarchy.ts `showsByDefinition`): sciatica is leg pain. */
function showsWanted(fact: Pick<MatchFact, 'conceptId'>, concepts: ReadonlyArray<{ id: string }>): boolean {
  if (!fact.conceptId) return false;
  for (const concept of concepts) if (showsByDefinition(fact.conceptId, concept.id)) return true;
  return false;
}

/** "No prior neck surgery" for a rule of cervical spine surgery (concept-hierarchy.ts `deniedForPart`, decision 284). */
function deniesPart(fact: Pick<MatchFact, 'conceptId'>, rule: { concepts?: Array<{ id: string }>; qualifiers?: readonly string[] }): boolean {
  if (!fact.conceptId || !rule.qualifiers?.length) return false;
  for (const concept of rule.concepts ?? NO_CONCEPTS) if (deniedForPart(concept.id, fact.conceptId, rule.qualifiers)) return true;
  return false;
}

/** A fact whose concept is near one of the rule's in MeSH's tree (concept-hierarchy.ts `nearInTree`). */
export function nearRuleConcept(fact: Pick<MatchFact, 'conceptId'>, rule: { concepts?: Array<{ id: string }> }): boolean {
  if (!fact.conceptId) return false;
  for (const concept of rule.concepts ?? NO_CONCEPTS) if (nearInTree(fact.conceptId, concept.id)) return true;
  return false;
}

function sameConcept(fact: Pick<MatchFact, 'conceptId'>, concepts: ReadonlyArray<{ id: string }>): boolean {
  if (!fact.conceptId) return false;
  for (const concept of concepts) if (concept.id === fact.conceptId) return true;
  return false;
}

/**
 * A denial of a concept's ancestor in the hierarchy: "no liver disease" rules out cirrhosis, "no heart disease" a heart
 * attack, "no prior spine surgery" a diskectomy (concept-hierarchy.ts `deniedWith`, decision 205).
 */
function deniesAncestor(fact: Pick<MatchFact, 'conceptId'>, concepts: ReadonlyArray<{ id: string }>, groups: boolean): boolean {
  if (!fact.conceptId) return false;
  for (const concept of concepts)
    if (groups ? deniedWith(concept.id, fact.conceptId) || operationInGroup(concept.id, fact.conceptId) : isA(concept.id, fact.conceptId)) return true;
  return false;
}

/** A past operation's fact under the group of operations a rule names (operations.ts). */
function pastOperationOf(fact: Pick<MatchFact, 'conceptId'>, concepts: ReadonlyArray<{ id: string }>): boolean {
  if (!fact.conceptId) return false;
  for (const concept of concepts) if (operationInGroup(fact.conceptId, concept.id)) return true;
  return false;
}
const NO_CONCEPTS: Array<{ id: string; name: string }> = [];

/** A window's first day for today, kept per window object: the same for every person of a run. */
const windowStarts = new WeakMap<TimeWindow, { today: number; start: Date }>();
export function windowStartOf(window: TimeWindow, today: Date): Date {
  const known = windowStarts.get(window);
  if (known && known.today === today.getTime()) return known.start;
  const start = windowStart(window, today);
  windowStarts.set(window, { today: today.getTime(), start });
  return start;
}

function presenceRule(
  facts: FactIndex,
  kind: 'condition' | 'medication',
  rule: { concepts?: Array<{ id: string; name: string }>; within?: TimeWindow; history?: boolean; duration?: ConditionDuration },
  label: string,
  wanted: boolean,
  today: Date,
  explain: boolean,
  own: readonly string[] | null = null,
  /** A condition next to a wanted one in MeSH's tree leaves it unknown with that fact named (conditions only). */
  nearCounts = false,
): Judgement {
  // Wanting the condition or medicine makes it a key fact (who the trial is for); not wanting it does not.
  const key = wanted;
  // A denial also counts when it is broader than the concept: "no diabetes" rules out type 2 diabetes.
  let current: MatchFact | undefined;
  let past: MatchFact | undefined;
  let denied: MatchFact | undefined;
  // The first (newest) named fact of each status, in one pass and without closures (the hot path of a run).
  let general: MatchFact | undefined;
  let near: MatchFact | undefined;
  let ownIllness = false;
  for (const fact of facts.get(kind) ?? NONE) {
    if (isGeneralDenial(fact)) {
      general ??= fact;
      continue;
    }
    // A broad exclusion is not decided by the trial's own condition (own-condition.ts), nor kept by it from what
    // "otherwise healthy" says of the rest: the migraine a migraine trial is for leaves "no neurological disease" answered.
    if (own !== null && fact.status !== 'absent' && isOwnCondition(fact.conceptId, own)) continue;
    if (!wanted && kind === 'condition' && fact.status !== 'absent' && !ownIllness) ownIllness = relatedToOwnIllness(fact.conceptId, rule.concepts);
    if (fact.status === 'present' ? current : fact.status === 'history' ? past : fact.status === 'absent' ? denied : true) continue;
    if (!namesRuleConcept(fact, rule, label)) {
      if (nearCounts && !near && fact.status !== 'absent' && nearRuleConcept(fact, rule)) near = fact;
      continue;
    }
    if (fact.status === 'present') current = fact;
    else if (fact.status === 'history') past = fact;
    else denied = fact;
  }
  const verb = kind === 'condition' ? { now: 'Has', before: 'Had', no: 'Does not have' } : { now: 'Takes', before: 'Took', no: 'Does not take' };
  const since = rule.within ? windowStartOf(rule.within, today) : null;
  const window = rule.within ? ` in the last ${rule.within.value} ${rule.within.unit}` : '';
  const duration = rule.duration && (rule.duration.minDays || rule.duration.maxDays) ? rule.duration : null;
  if (duration && (current || (past && rule.history))) {
    // "Low back pain for at least 3 months": having it is not enough; how long decides, or nothing does.
    const fact = (current ?? past)!;
    const how = lasted(fact, duration, today);
    const since = fact.observedOn ? `since ${fact.observedOn} or earlier` : 'since when is not recorded';
    const lastedOk = how === 'yes';
    if (how === 'unknown')
      return {
        outcome: 'unknown',
        reason: explain ? `${verb.now} ${fact.name} (${from(fact)}); ${since}: ${durationText(duration)}?` : '',
        factId: fact.id,
        key,
      };
    const meets = wanted === lastedOk;
    return {
      outcome: meets ? 'met' : 'not_met',
      reason: explain ? `${verb.now} ${fact.name} ${since} (${from(fact)}): ${lastedOk ? '' : 'not '}${durationText(duration)}` : '',
      factId: fact.id,
      key,
    };
  }
  if (wanted) {
    // The trial wants people who have it (or had it, for "history of").
    if (current) return { outcome: 'met', reason: explain ? `${verb.now} ${current.name} (${from(current)})` : '', factId: current.id, key };
    if (past && rule.history) return { outcome: 'met', reason: explain ? `${verb.before} ${past.name} (${from(past)})` : '', factId: past.id, key };
    if (past) return { outcome: 'unknown', reason: explain ? `${verb.before} ${past.name} (${from(past)}); is it current?` : '', factId: past.id, key };
    if (denied) return { outcome: 'not_met', reason: explain ? `${verb.no} ${label} (${from(denied)})` : '', factId: denied.id, key };
    // A condition next to the wanted one in the tree: a hint, never the condition (decision 164).
    if (near)
      return {
        outcome: 'unknown',
        reason: explain ? `${verb.now} ${near.name} (${from(near)}), close to ${label}: is it ${label}?` : '',
        factId: near.id,
        key,
      };
    return unknown(explain ? `Nothing on record about ${label}` : '', key);
  }
  // The trial wants people who do not have it (now, ever for "history of", or within a window).
  if (current) {
    // A condition that is present now but began before the window: whether "in the last 6 months" means it began then
    // or was present then is the criterion's to say, so it stays unknown. A medicine taken now is taken within any
    // washout window, however long ago it was started (its date is the start): not met.
    if (!inWindow(current, since) && kind === 'condition')
      return {
        outcome: 'unknown',
        reason: explain ? `${verb.now} ${current.name}, since before the last ${rule.within?.value} ${rule.within?.unit} (${from(current)})` : '',
        factId: current.id,
        key,
      };
    if (!inWindow(current, since))
      return { outcome: 'not_met', reason: explain ? `${verb.now} ${current.name} now, started earlier (${from(current)})` : '', factId: current.id, key };
    return { outcome: 'not_met', reason: explain ? `${verb.now} ${current.name} (${from(current)})` : '', factId: current.id, key };
  }
  if (past) {
    if (rule.within) {
      if (!past.observedOn)
        return { outcome: 'unknown', reason: explain ? `${verb.before} ${past.name}; when is not recorded (${from(past)})` : '', factId: past.id, key };
      return inWindow(past, since)
        ? { outcome: 'not_met', reason: explain ? `${verb.before} ${past.name}${window} (${from(past)})` : '', factId: past.id, key }
        : {
            outcome: 'met',
            reason: explain ? `${verb.before} ${past.name}, longer ago than ${rule.within.value} ${rule.within.unit} (${from(past)})` : '',
            factId: past.id,
            key,
          };
    }
    if (rule.history) return { outcome: 'not_met', reason: explain ? `${verb.before} ${past.name} (${from(past)})` : '', factId: past.id, key };
    return { outcome: 'met', reason: explain ? `${verb.before} ${past.name}, not now (${from(past)})` : '', factId: past.id, key };
  }
  if (denied) return { outcome: 'met', reason: explain ? `${verb.no} ${label} (${from(denied)})` : '', factId: denied.id, key };
  // "Otherwise healthy", "takes no medicines" (general-denials.ts): the exclusions of what the note does not name.
  if (general && !ownIllness && generalDenialAnswers(kind, rule))
    return {
      outcome: 'met',
      reason: explain ? `${kind === 'condition' ? 'Otherwise healthy' : 'Takes no regular medicines'}: nothing of ${label} (${from(general)})` : '',
      factId: general.id,
      key,
    };
  return unknown(explain ? `Nothing on record about ${label}` : '', key);
}

/**
 * A rule with qualifiers ("severe osteoporosis", "lumbar disc herniation"; decision 077) decided by a fact that the person
 * has the condition: the fact proves the qualifiers only when its name says them ("severe osteoporosis", or a prescreen
 * answer to the qualified question). When its name says an excluding qualifier (the other side, another part of the
 * spine; decision 183) the qualified condition is not had. Otherwise the outcome that rests on the qualifier is
 * unknown, never "not met" and never "met". A denial or a window decides as before: no osteoporosis is no severe osteoporosis.
 */
function qualifiedJudgement(
  judged: Judgement,
  facts: FactIndex,
  qualifiers: readonly ConditionQualifier[],
  levels: readonly string[] | null,
  wanted: boolean,
  explain: boolean,
): Judgement {
  if (judged.outcome !== (wanted ? 'met' : 'not_met') || !judged.factId) return judged;
  const fact = (facts.get('condition') ?? NONE).find((item) => item.id === judged.factId);
  if (!fact || fact.status === 'absent') return judged;
  const level = levels ? levelsAgree(fact.name, levels) : 'in';
  if (qualifiersHeld(fact.name, qualifiers) && level === 'in') return judged;
  const words = [...qualifiers.map((qualifier) => QUALIFIER_WORDS[qualifier].label), ...(levels ? [levels.join(' or ')] : [])].join(', ');
  // The fact says the other side, part of the spine or disc level (qualifier-opposites.ts, spinal-levels.ts): the
  // qualified condition is not had.
  if (qualifiersContradicted(fact.name, qualifiers) || level === 'out')
    return { ...judged, outcome: wanted ? 'not_met' : 'met', reason: explain ? `${judged.reason}, not ${words}` : '' };
  return { ...judged, outcome: 'unknown', reason: explain ? `${judged.reason}; ${words}?` : '' };
}

const COMPARATOR_WORDS: Record<Extract<CriterionRule, { type: 'lab' }>['comparator'], string> = {
  '<': 'below',
  '<=': 'at most',
  '>': 'above',
  '>=': 'at least',
  '=': 'exactly',
  between: 'between',
};
/** A threshold in words ("at least 27", "7-10"), as staff read it in the evidence. */
const bound = (rule: Extract<CriterionRule, { type: 'lab' }>) =>
  rule.comparator === 'between' ? `${rule.value}-${rule.upperValue}` : `${COMPARATOR_WORDS[rule.comparator]} ${rule.value}`;

/**
 * "ALT/AST" is either; names compare without case. A pain score of no region is met by any region's ("leg pain
 * score"); a region's is met only by its own (decision 350): a note's "pain 7/10" may be another pain.
 */
export function measureNamed(measure: string, name: string): boolean {
  if (measure === name) return true;
  const lower = name.toLowerCase();
  if (measure === 'pain score') return isPainScore(lower);
  return measure === 'ALT/AST' ? lower === 'alt' || lower === 'ast' : measure.toLowerCase() === lower;
}

/** The person's age by the record's date of birth, else the newest age fact (as an age rule reads it). */
function personAge(person: MatchPerson, facts: FactIndex, today: Date): PersonAge | null {
  const ageFact = of(facts, 'age').find((fact) => fact.value != null);
  return person.dateOfBirth ? ageFromBirth(person.dateOfBirth, today) : ageFact?.value != null ? ageFromYears(ageFact.value) : null;
}

/** Whether the person is 18 or older. */
function isAdult(person: MatchPerson, facts: FactIndex, today: Date): boolean {
  const age = personAge(person, facts, today);
  return age !== null && age.years >= 18;
}

/**
 * A lab rule written as a multiple of the lab's upper limit of normal (decision 251): decided where every adult
 * laboratory's limit gives the same answer (lab-normal-ranges.ts), else unknown, never a key criterion.
 */
function againstNormalRange(rule: Extract<CriterionRule, { type: 'lab' }>, person: MatchPerson, facts: FactIndex, today: Date, explain: boolean): Judgement {
  const asked = explain ? `Needs the lab's normal range (${rule.measure} ${bound(rule)} x ${rule.relativeTo})` : '';
  const latest = of(facts, 'lab').find((fact) => fact.value != null && measureNamed(rule.measure, fact.name));
  const span = latest ? upperLimitSpan(latest.name) : null;
  const convert = latest && span ? intoSpanUnit(span, latest.unit) : null;
  if (!latest || latest.value == null || !span || !convert || !isAdult(person, facts, today)) return unknown(asked, false);
  const outcome = againstUpperLimit(rule, convert(latest.value), span);
  if (outcome === 'unknown') return unknown(asked, false);
  const words = `${outcome === 'met' ? '' : 'not '}${bound(rule)} x ULN under any adult laboratory's limit (${span.low}-${span.high} ${span.unit})`;
  return {
    outcome,
    reason: explain ? `${latest.name} ${latest.value}${latest.unit ? ` ${latest.unit}` : ''} (${from(latest)}): ${words}` : '',
    factId: latest.id,
    key: false,
  };
}

/**
 * A lab criterion without a value on record, decided by a diagnosis that bounds the measure (implied-measures.ts,
 * decision 285): "obese" meets "BMI >= 27" for an adult, "no diabetes" clears "HbA1c >= 8%". Else unknown.
 */
function impliedJudgement(rule: Extract<CriterionRule, { type: 'lab' }>, person: MatchPerson, facts: FactIndex, today: Date, explain: boolean): Judgement {
  for (const fact of of(facts, 'condition')) {
    const implied = impliedByCondition(rule, fact);
    if (!implied || (implied.adultsOnly && !isAdult(person, facts, today))) continue;
    const verb = fact.status === 'absent' ? 'Does not have' : 'Has';
    const reason = explain ? `${verb} ${fact.name} (${from(fact)}): ${implied.words}; the trial needs ${bound(rule)}${rule.unit ? ` ${rule.unit}` : ''}` : '';
    return { outcome: implied.outcome, reason, factId: fact.id, key: true };
  }
  return unknown(explain ? `No ${rule.measure} on record` : '', true);
}

// No closures in the hot path: the server runs under tsx, whose keepNames wraps every named closure per call.
function of(facts: FactIndex, kind: FactKind): MatchFact[] {
  return facts.get(kind) ?? NONE;
}

function judge(
  rule: CriterionRule,
  person: MatchPerson,
  facts: FactIndex,
  today: Date,
  explain: boolean,
  own: readonly string[] | null,
  levels: readonly string[] | null,
): Judgement {
  switch (rule.type) {
    case 'age': {
      const ageFact = of(facts, 'age').find((fact) => fact.value != null);
      // An infant's age stays a fraction of a year (age.ts): 5 months meets ">= 3 months".
      const age = person.dateOfBirth ? ageFromBirth(person.dateOfBirth, today) : ageFact?.value != null ? ageFromYears(ageFact.value) : null;
      const source = person.dateOfBirth ? 'date of birth' : ageFact ? from(ageFact) : '';
      const range =
        rule.minYears != null && rule.maxYears != null
          ? `${boundWords(rule.minYears)}-${boundWords(rule.maxYears)}`
          : rule.minYears != null
            ? `at least ${boundWords(rule.minYears)}`
            : `at most ${boundWords(rule.maxYears!)}`;
      if (age == null) return unknown('Age not known', true);
      const inRange = ageWithin(age, rule.minYears, rule.maxYears);
      return {
        outcome: inRange ? 'met' : 'not_met',
        reason: explain ? `Age ${ageWords(age)} (${source}) ${inRange ? 'is' : 'is not'} ${range}` : '',
        factId: person.dateOfBirth ? null : (ageFact?.id ?? null),
        key: true,
      };
    }
    case 'sex': {
      // Everyone meets a criterion that asks nothing of them (decision 142): counted as met, never as key.
      if (rule.sex === 'all') return { outcome: 'met', reason: 'Open to all sexes', factId: null, key: false };
      const sexFact = of(facts, 'sex').find((fact) => fact.valueText);
      const sex = person.sex === 'female' || person.sex === 'male' ? person.sex : (sexFact?.valueText ?? null);
      if (!sex) return unknown('Sex not known', true);
      return {
        outcome: sex === rule.sex ? 'met' : 'not_met',
        reason: explain ? `Sex ${sex}; the trial takes ${rule.sex} participants` : '',
        factId: person.sex === sex ? null : (sexFact?.id ?? null),
        key: true,
      };
    }
    case 'condition': {
      const judged = presenceRule(facts, 'condition', rule, rule.concepts?.[0]?.name ?? rule.condition, rule.present, today, explain, own, true);
      return rule.qualifiers?.length || levels ? qualifiedJudgement(judged, facts, rule.qualifiers ?? [], levels, rule.present, explain) : judged;
    }
    case 'medication':
      return presenceRule(facts, 'medication', rule, rule.concepts?.[0]?.name ?? rule.medication, rule.taking, today, explain);
    case 'lab': {
      if (rule.relativeTo) return againstNormalRange(rule, person, facts, today, explain);
      const latest = of(facts, 'lab').find((fact) => fact.value != null && measureNamed(rule.measure, fact.name));
      if (!latest || latest.value == null) return impliedJudgement(rule, person, facts, today, explain);
      // In the criterion's unit (lab-units.ts); a unit that does not convert leaves it unknown.
      const convert = unitConversion(rule.measure, latest.unit, rule.unit);
      if (!convert) return unknown(explain ? `${rule.measure} on record is in ${latest.unit}, the criterion in ${rule.unit}` : '', true, latest.id);
      const value = convert(latest.value);
      const ok = compare(value, rule);
      const unit = (value: string | null | undefined) => (value ? ` ${value}` : '');
      const converted = value === latest.value || !rule.unit ? '' : ` (${value} ${rule.unit})`;
      return {
        outcome: ok ? 'met' : 'not_met',
        reason: explain
          ? `${rule.measure} ${latest.value}${unit(latest.unit)}${converted} (${from(latest)}); the trial needs ${bound(rule)}${unit(rule.unit)}`
          : '',
        factId: latest.id,
        key: true,
      };
    }
    case 'pregnancy': {
      if (rule.allowed) return { outcome: 'not_applicable', reason: 'Pregnancy allowed', factId: null, key: false };
      if (person.sex === 'male') return { outcome: 'met', reason: 'Male: not pregnant', factId: null, key: false };
      // A record without its sex: the note's or the record's sex fact says it (as for a sex criterion).
      if (person.sex !== 'female') {
        const sexFact = of(facts, 'sex').find((fact) => fact.valueText);
        if (sexFact?.valueText === 'male')
          return { outcome: 'met', reason: explain ? `Male: not pregnant (${from(sexFact)})` : '', factId: sexFact.id, key: false };
      }
      const fact = of(facts, 'pregnancy')[0];
      if (!fact) {
        const age = personAge(person, facts, today);
        if (age && age.years >= PAST_CHILDBEARING_YEARS)
          return { outcome: 'met', reason: explain ? `Age ${age.years}: past childbearing age, not pregnant` : '', factId: null, key: false };
        return unknown('Pregnancy not known (asked at prescreen)', false);
      }
      return fact.status === 'present'
        ? { outcome: 'not_met', reason: explain ? `Pregnant (${from(fact)})` : '', factId: fact.id, key: false }
        : { outcome: 'met', reason: explain ? `Not pregnant (${from(fact)})` : '', factId: fact.id, key: false };
    }
    case 'smoking': {
      const fact = of(facts, 'smoking')[0];
      if (!fact) return unknown('Smoking not known', rule.smoker);
      const smokes = fact.status === 'present';
      const said = smokes ? 'Smokes' : fact.status === 'history' ? 'Former smoker' : 'Never smoked';
      return { outcome: smokes === rule.smoker ? 'met' : 'not_met', reason: explain ? `${said} (${from(fact)})` : '', factId: fact.id, key: rule.smoker };
    }
    case 'performance_status': {
      const fact = of(facts, 'performance_status').find((item) => item.value != null && (item.valueText ?? rule.scale) === rule.scale);
      if (!fact || fact.value == null) return unknown(explain ? `${rule.scale} not on record` : '', true);
      const ok = (rule.min == null || fact.value >= rule.min) && (rule.max == null || fact.value <= rule.max);
      return { outcome: ok ? 'met' : 'not_met', reason: explain ? `${rule.scale} ${fact.value} (${from(fact)})` : '', factId: fact.id, key: true };
    }
    case 'healthy_volunteers': {
      if (rule.accepted) return { outcome: 'met', reason: 'Healthy volunteers accepted', factId: null, key: false };
      const condition = of(facts, 'condition').find((fact) => fact.status === 'present');
      return condition
        ? { outcome: 'met', reason: explain ? `Has ${condition.name} (${from(condition)})` : '', factId: condition.id, key: false }
        : unknown('No current condition on record', false);
    }
    case 'contraception':
      return rule.required
        ? unknown('Willingness to use contraception is asked at prescreen', false)
        : { outcome: 'not_applicable', reason: 'Not required', factId: null, key: false };
    case 'site_judgement':
      // A permission refuses no one (decision 333); every other site check is staff's.
      return rule.reason === 'permission'
        ? { outcome: 'met', reason: 'Only allows something: refuses no one', factId: null, key: false }
        : unknown('Decided by site staff, never automatically', false);
  }
}

const SPINAL_LEVEL = /\b[CTLS]\d{1,2}\b/;

/**
 * Whether a condition fact meets a test-confirmed site check (decision 250): asserted, reported on a test the check
 * asks for (the fact's value text, note-test-findings.ts), naming its condition, with the part of the spine and the
 * level it asks. Shared with the compiled matcher.
 */
export function confirmsOnTest(check: TestConfirmedCheck, fact: Pick<MatchFact, 'kind' | 'conceptId' | 'name' | 'status' | 'valueText'>): boolean {
  if (fact.kind !== 'condition' || (fact.status !== 'present' && fact.status !== 'history')) return false;
  const reported = testNamed(fact.valueText);
  if (!reported || !check.tests.some((asked) => testAnswers(reported, asked)) || !factNames(fact, check.concepts, check.label)) return false;
  return qualifiersHeld(fact.name, check.qualifiers) && (!check.level || SPINAL_LEVEL.test(fact.name));
}

/** A test-confirmed site check: met by a fact that confirms it, else the site's, as any site check. */
function testConfirmed(check: TestConfirmedCheck, facts: FactIndex, explain: boolean): Judgement {
  for (const fact of of(facts, 'condition'))
    if (confirmsOnTest(check, fact))
      return { outcome: 'met', reason: explain ? `Has ${fact.name}, shown on ${fact.valueText} (${from(fact)})` : '', factId: fact.id, key: false };
  return unknown('Decided by site staff, never automatically', false);
}

/** A test's words around a substance: "ANA positive (titer >= 1:80)", "tested positive for HBs antibody", "protein-creatinine ratio" (never "antigen": a vaccine is one). */
const TEST_WORDS = /\b(?:positiv\w*|negativ\w*|seropositiv\w*|seronegativ\w*|titers?|titres?|ratios?|assays?|tested)\b/i;

/**
 * Whether a medicine rule names a substance the criterion measures (decision 232): "ANA positive", "urine
 * protein-creatinine ratio >= 3.5", "tested positive for HBs antibody" were read as the medicines antinuclear
 * antibodies, creatinine and antibodies, and a person on a monoclonal antibody would fail the last one. Such a rule,
 * as the criteria reader read it and no one has reviewed, decides nothing: the criterion is asked, as one without a
 * rule. A rule a person wrote or accepted is theirs. Shared with the compiled matcher (`planOf`).
 */
export function readsATestResult(criterion: MatchCriterion): boolean {
  const rule = criterion.rule;
  if (rule?.type !== 'medication' || !criterion.text || criterion.ruleSource !== 'text' || !criterion.needsReview) return false;
  const span = rule.span ?? { start: 0, end: criterion.text.length };
  return TEST_WORDS.test(criterion.text.slice(Math.max(0, span.start - 30), span.end + 30));
}

/** One criterion for one person. A proposal not yet accepted (a language model's) never decides. */
export function evaluateCriterion(
  criterion: MatchCriterion,
  person: MatchPerson,
  today: Date,
  facts: FactIndex = indexFacts(person.facts),
  explain = true,
  /** The trial's own condition, for a broad exclusion (own-condition.ts). */
  own: readonly string[] | null = null,
  /** A site check asking for the trial's condition confirmed by a test (test-confirmed-checks.ts). */
  tested: TestConfirmedCheck | null = null,
): CriterionOutcome {
  if (criterion.population) {
    // Judged for the people of its cohort only (cohorts.ts, decision 218): in it by a met inclusion, else not applicable.
    const cohort = cohortCriterion(criterion.population);
    const member = cohort ? judge(cohort.rule, person, facts, today, explain, null, null) : null;
    if (member?.outcome !== 'met') {
      const why = explain && member && member.outcome === 'not_met' ? `; ${member.reason}` : '';
      return {
        criterionId: criterion.id,
        outcome: 'not_applicable',
        key: false,
        reason: explain ? `Applies to ${criterion.population} only${why}` : '',
        factId: null,
      };
    }
    const judgement = evaluateCriterion({ ...criterion, population: null }, person, today, facts, explain, own);
    if (explain) judgement.reason = `${judgement.reason} (${criterion.population}: ${member.reason})`;
    return judgement;
  }
  if (!criterion.rule)
    return { criterionId: criterion.id, outcome: 'unknown', key: false, reason: 'No rule read from this criterion: asked at prescreen', factId: null };
  if (readsATestResult(criterion))
    return { criterionId: criterion.id, outcome: 'unknown', key: false, reason: 'A test result, not a medicine: asked at prescreen', factId: null };
  if (criterion.ruleSource === 'llm' && criterion.needsReview)
    return { criterionId: criterion.id, outcome: 'unknown', key: false, reason: 'The rule is a suggestion not yet accepted', factId: null };
  if (tested && criterion.rule.type === 'site_judgement') return { criterionId: criterion.id, ...testConfirmed(tested, facts, explain) };
  const judgement = judge(criterion.rule, person, facts, today, explain, own, discLevelsOf(criterion)) as CriterionOutcome;
  judgement.criterionId = criterion.id;
  return judgement;
}

/**
 * A person against a trial's criteria: excluded when a reviewed criterion is not met (listing which), likely
 * eligible when every key criterion is met and no unreviewed rule failed, otherwise possibly eligible. The score is
 * the chance of eligibility given the evidence (score.ts), each criterion weighing by its outcome, its kind and how
 * complete the person's source is.
 */
export function matchPerson(
  criteria: readonly MatchCriterion[],
  person: MatchPerson,
  today: Date,
  { explain = true }: { explain?: boolean } = {},
): PersonMatch {
  const facts = indexFacts(person.facts);
  const plans = scorePlans(criteria);
  const own = ownConditionsPerCriterion(criteria, plans);
  const tested = testConfirmedChecks(criteria);
  const completeness = person.completeness ?? completenessOf(person.facts);
  const outcomes: CriterionOutcome[] = new Array(criteria.length);
  const notMetIds: string[] = [];
  const unknownIds: string[] = [];
  let keyUnknown = false;
  let metCount = 0;
  let excluding = 0;
  let flagged = 0;
  let chance = 0;
  let relevant = false;
  let dependent = 0;
  let dependentCount = 0;
  // One pass, no closures: this runs for every person of a match run.
  for (let i = 0; i < criteria.length; i++) {
    const item = (outcomes[i] = evaluateCriterion(criteria[i], person, today, facts, explain, own[i], tested[i]));
    const plan = plans[i];
    if (plan.relevance && item.outcome === 'met') relevant = true;
    if (item.outcome === 'unknown' && plan.dependsOnRelevance && item.factId === null) {
      // Weighed once the person's relevance is known (score.ts `dependsOnRelevance`).
      unknownIds.push(item.criterionId);
      if (item.key) keyUnknown = true;
      dependent += plan.unknown[completeness];
      dependentCount++;
    } else if (item.outcome === 'not_met') {
      notMetIds.push(item.criterionId);
      if (plan.excludes) excluding++;
      else flagged++;
      chance += plan.notMet;
    } else if (item.outcome === 'unknown') {
      unknownIds.push(item.criterionId);
      if (item.key) keyUnknown = true;
      chance += item.factId !== null && plan.unknownNamed !== null ? plan.unknownNamed : plan.unknown[completeness];
    } else if (item.outcome === 'met') {
      metCount++;
      chance += plan.met;
    }
  }
  chance += relevant ? dependentCount * UNKNOWN_WHEN_RELEVANT : dependent;
  const result = classAndScore(excluding, keyUnknown, flagged, chance);
  const summary = explain ? explainScore(result, outcomes, plans, completeness) : '';
  return { ...result, summary, flagged, outcomes, metCount, notMetIds, unknownIds };
}

export const CLASS_RANK: Record<MatchClass, number> = { likely: 0, possible: 1, excluded: 2 };
