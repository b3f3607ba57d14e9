import type { MatchClass, MatchOutcome } from '../../../contract/matching';
import type { CriterionRule, TimeWindow } from '../../../contract/trials';
import type { FactKind, FactSource, FactStatus } from '../../../contract/matching';

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
}

export interface MatchCriterion {
  id: string;
  kind: 'inclusion' | 'exclusion';
  rule: CriterionRule | null;
  ruleSource: string | null;
  needsReview: boolean;
  population: string | null;
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
  score: number;
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

const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
const FILLER = new Set(['a', 'an', 'the', 'of', 'or', 'and', 'such', 'as', 'any']);

/**
 * Whether a fact names one of the rule's concepts: the same concept id, or a fact at least as specific by its
 * words ("type 2 diabetes mellitus" is a "diabetes mellitus"; "asthma" is not a "severe asthma").
 */
export function factNames(fact: Pick<MatchFact, 'conceptId' | 'name'>, concepts: ReadonlyArray<{ id: string; name: string }>, fallbackName: string): boolean {
  if (fact.conceptId && concepts.some((concept) => concept.id === fact.conceptId)) return true;
  const factWords = words(fact.name);
  const names = concepts.length ? concepts.map((concept) => concept.name) : [fallbackName];
  return names.some((name) => {
    const required = [...words(name)].filter((word) => !FILLER.has(word));
    return required.length > 0 && required.every((word) => factWords.has(word));
  });
}

const SOURCE_WORDS: Record<FactSource, string> = { prescreen: 'prescreen answer', import: 'imported file', fhir: 'health record', note: 'clinical note', manual: 'entered by staff' };
const from = (fact: MatchFact) => `${SOURCE_WORDS[fact.source]}${fact.observedOn ? `, ${fact.observedOn}` : ''}`;

/** The newest fact first (undated facts last), so "the latest value" is the first match. */
function newestFirst(facts: MatchFact[]): MatchFact[] {
  return [...facts].sort((a, b) => (b.observedOn ?? '').localeCompare(a.observedOn ?? ''));
}

type Judgement = Omit<CriterionOutcome, 'criterionId' | 'key'>;
const unknown = (reason: string): Judgement => ({ outcome: 'unknown', reason, factId: null });

function presenceRule(
  facts: MatchFact[],
  kind: 'condition' | 'medication',
  rule: { concepts?: Array<{ id: string; name: string }>; within?: TimeWindow; history?: boolean },
  label: string,
  wanted: boolean,
  today: Date,
): Judgement {
  const named = newestFirst(facts.filter((fact) => fact.kind === kind && factNames(fact, rule.concepts ?? [], label)));
  const verb = kind === 'condition' ? { now: 'Has', before: 'Had', no: 'Does not have' } : { now: 'Takes', before: 'Took', no: 'Does not take' };
  const current = named.find((fact) => fact.status === 'present');
  const past = named.find((fact) => fact.status === 'history');
  const denied = named.find((fact) => fact.status === 'absent');
  const inWindow = (fact: MatchFact) => !rule.within || !fact.observedOn || new Date(`${fact.observedOn}T00:00:00Z`) >= windowStart(rule.within, today);
  const window = rule.within ? ` in the last ${rule.within.value} ${rule.within.unit}` : '';
  if (wanted) {
    // The trial wants people who have it (or had it, for "history of").
    if (current) return { outcome: 'met', reason: `${verb.now} ${current.name} (${from(current)})`, factId: current.id };
    if (past && rule.history) return { outcome: 'met', reason: `${verb.before} ${past.name} (${from(past)})`, factId: past.id };
    if (past) return { outcome: 'unknown', reason: `${verb.before} ${past.name} (${from(past)}); is it current?`, factId: past.id };
    if (denied) return { outcome: 'not_met', reason: `${verb.no} ${label} (${from(denied)})`, factId: denied.id };
    return unknown(`Nothing on record about ${label}`);
  }
  // The trial wants people who do not have it (now, ever for "history of", or within a window).
  if (current) {
    if (!inWindow(current)) return { outcome: 'met', reason: `${verb.now} ${current.name} but not${window} (${from(current)})`, factId: current.id };
    return { outcome: 'not_met', reason: `${verb.now} ${current.name} (${from(current)})`, factId: current.id };
  }
  if (past) {
    if (rule.within) {
      if (!past.observedOn) return { outcome: 'unknown', reason: `${verb.before} ${past.name}; when is not recorded (${from(past)})`, factId: past.id };
      return inWindow(past)
        ? { outcome: 'not_met', reason: `${verb.before} ${past.name}${window} (${from(past)})`, factId: past.id }
        : { outcome: 'met', reason: `${verb.before} ${past.name}, longer ago than ${rule.within.value} ${rule.within.unit} (${from(past)})`, factId: past.id };
    }
    if (rule.history) return { outcome: 'not_met', reason: `${verb.before} ${past.name} (${from(past)})`, factId: past.id };
    return { outcome: 'met', reason: `${verb.before} ${past.name}, not now (${from(past)})`, factId: past.id };
  }
  if (denied) return { outcome: 'met', reason: `${verb.no} ${label} (${from(denied)})`, factId: denied.id };
  return unknown(`Nothing on record about ${label}`);
}

function compare(value: number, rule: Extract<CriterionRule, { type: 'lab' }>): boolean {
  switch (rule.comparator) {
    case '<':
      return value < rule.value;
    case '<=':
      return value <= rule.value;
    case '>':
      return value > rule.value;
    case '>=':
      return value >= rule.value;
    case '=':
      return value === rule.value;
    case 'between':
      return value >= rule.value && value <= (rule.upperValue ?? rule.value);
  }
}

const bound = (rule: Extract<CriterionRule, { type: 'lab' }>) =>
  rule.comparator === 'between' ? `${rule.value}-${rule.upperValue}` : `${rule.comparator} ${rule.value}`;

function judge(rule: CriterionRule, person: MatchPerson, today: Date): Judgement & { key: boolean } {
  const facts = person.facts;
  switch (rule.type) {
    case 'age': {
      const ageFact = newestFirst(facts.filter((fact) => fact.kind === 'age' && fact.value != null))[0];
      const age = person.dateOfBirth ? ageOn(person.dateOfBirth, today) : ageFact?.value != null ? Math.floor(ageFact.value) : null;
      const source = person.dateOfBirth ? 'date of birth' : ageFact ? from(ageFact) : '';
      const range = rule.minYears != null && rule.maxYears != null ? `${rule.minYears}-${rule.maxYears}` : rule.minYears != null ? `at least ${rule.minYears}` : `at most ${rule.maxYears}`;
      if (age == null) return { ...unknown('Age not known'), key: true };
      const inRange = (rule.minYears == null || age >= rule.minYears) && (rule.maxYears == null || age <= rule.maxYears);
      return { outcome: inRange ? 'met' : 'not_met', reason: `Age ${age} (${source}) ${inRange ? 'is' : 'is not'} ${range}`, factId: person.dateOfBirth ? null : (ageFact?.id ?? null), key: true };
    }
    case 'sex': {
      if (rule.sex === 'all') return { outcome: 'not_applicable', reason: 'Open to all sexes', factId: null, key: false };
      const sexFact = facts.find((fact) => fact.kind === 'sex' && fact.valueText);
      const sex = person.sex === 'female' || person.sex === 'male' ? person.sex : (sexFact?.valueText ?? null);
      if (!sex) return { ...unknown('Sex not known'), key: true };
      return { outcome: sex === rule.sex ? 'met' : 'not_met', reason: `Sex ${sex}; the trial takes ${rule.sex} participants`, factId: person.sex === sex ? null : (sexFact?.id ?? null), key: true };
    }
    case 'condition':
      return { ...presenceRule(facts, 'condition', rule, rule.concepts?.[0]?.name ?? rule.condition, rule.present, today), key: rule.present };
    case 'medication':
      return { ...presenceRule(facts, 'medication', rule, rule.concepts?.[0]?.name ?? rule.medication, rule.taking, today), key: rule.taking };
    case 'lab': {
      if (rule.relativeTo) return { ...unknown(`Needs the lab's normal range (${rule.measure} ${bound(rule)} x ${rule.relativeTo})`), key: false };
      const measures = rule.measure === 'ALT/AST' ? ['alt', 'ast'] : [rule.measure.toLowerCase()];
      const values = newestFirst(facts.filter((fact) => fact.kind === 'lab' && fact.value != null && measures.includes(fact.name.toLowerCase())));
      const latest = values[0];
      if (!latest || latest.value == null) return { ...unknown(`No ${rule.measure} on record`), key: true };
      if (rule.unit && latest.unit && latest.unit !== rule.unit) return { ...unknown(`${rule.measure} on record is in ${latest.unit}, the criterion in ${rule.unit}`), factId: latest.id, key: true };
      const ok = compare(latest.value, rule);
      return { outcome: ok ? 'met' : 'not_met', reason: `${rule.measure} ${latest.value}${latest.unit ? ` ${latest.unit}` : ''} (${from(latest)}); the trial needs ${bound(rule)}${rule.unit ? ` ${rule.unit}` : ''}`, factId: latest.id, key: true };
    }
    case 'pregnancy': {
      if (rule.allowed) return { outcome: 'not_applicable', reason: 'Pregnancy allowed', factId: null, key: false };
      if (person.sex === 'male') return { outcome: 'met', reason: 'Male: not pregnant', factId: null, key: false };
      const fact = newestFirst(facts.filter((item) => item.kind === 'pregnancy'))[0];
      if (!fact) return { ...unknown('Pregnancy not known (asked at prescreen)'), key: false };
      return fact.status === 'present'
        ? { outcome: 'not_met', reason: `Pregnant (${from(fact)})`, factId: fact.id, key: false }
        : { outcome: 'met', reason: `Not pregnant (${from(fact)})`, factId: fact.id, key: false };
    }
    case 'smoking': {
      const fact = newestFirst(facts.filter((item) => item.kind === 'smoking'))[0];
      if (!fact) return { ...unknown('Smoking not known'), key: rule.smoker };
      const smokes = fact.status === 'present';
      const said = smokes ? 'Smokes' : fact.status === 'history' ? 'Former smoker' : 'Never smoked';
      return { outcome: smokes === rule.smoker ? 'met' : 'not_met', reason: `${said} (${from(fact)})`, factId: fact.id, key: rule.smoker };
    }
    case 'performance_status': {
      const fact = newestFirst(facts.filter((item) => item.kind === 'performance_status' && item.value != null && (item.valueText ?? rule.scale) === rule.scale))[0];
      if (!fact || fact.value == null) return { ...unknown(`${rule.scale} not on record`), key: true };
      const ok = (rule.min == null || fact.value >= rule.min) && (rule.max == null || fact.value <= rule.max);
      return { outcome: ok ? 'met' : 'not_met', reason: `${rule.scale} ${fact.value} (${from(fact)})`, factId: fact.id, key: true };
    }
    case 'healthy_volunteers': {
      if (rule.accepted) return { outcome: 'not_applicable', reason: 'Healthy volunteers accepted', factId: null, key: false };
      const condition = facts.find((fact) => fact.kind === 'condition' && fact.status === 'present');
      return condition
        ? { outcome: 'met', reason: `Has ${condition.name} (${from(condition)})`, factId: condition.id, key: false }
        : { ...unknown('No current condition on record'), key: false };
    }
    case 'contraception':
      return rule.required ? { ...unknown('Willingness to use contraception is asked at prescreen'), key: false } : { outcome: 'not_applicable', reason: 'Not required', factId: null, key: false };
    case 'site_judgement':
      return { ...unknown('Decided by site staff, never automatically'), key: false };
  }
}

/** One criterion for one person. A proposal not yet accepted (a language model's) never decides. */
export function evaluateCriterion(criterion: MatchCriterion, person: MatchPerson, today: Date): CriterionOutcome {
  if (criterion.population) return { criterionId: criterion.id, outcome: 'not_applicable', key: false, reason: `Applies to ${criterion.population} only`, factId: null };
  if (!criterion.rule) return { criterionId: criterion.id, outcome: 'unknown', key: false, reason: 'No rule read from this criterion: asked at prescreen', factId: null };
  if (criterion.ruleSource === 'llm' && criterion.needsReview) return { criterionId: criterion.id, outcome: 'unknown', key: false, reason: 'The rule is a suggestion not yet accepted', factId: null };
  const { key, ...judgement } = judge(criterion.rule, person, today);
  return { criterionId: criterion.id, key, ...judgement };
}

/**
 * A person against a trial: excluded when any criterion is not met (listing which), likely eligible when no
 * key fact is unknown, otherwise possibly eligible. The score (0..1) ranks within a class: the share of
 * deciding criteria met, key facts counting double.
 */
export function matchPerson(criteria: readonly MatchCriterion[], person: MatchPerson, today: Date): PersonMatch {
  const outcomes = criteria.map((criterion) => evaluateCriterion(criterion, person, today));
  const notMetIds = outcomes.filter((item) => item.outcome === 'not_met').map((item) => item.criterionId);
  const unknownIds = outcomes.filter((item) => item.outcome === 'unknown').map((item) => item.criterionId);
  const keyUnknown = outcomes.some((item) => item.outcome === 'unknown' && item.key);
  let weight = 0;
  let met = 0;
  for (const item of outcomes) {
    if (item.outcome === 'not_applicable') continue;
    const w = item.key ? 2 : 1;
    weight += w;
    if (item.outcome === 'met') met += w;
  }
  const score = weight === 0 ? 0 : Math.round((met / weight) * 1000) / 1000;
  const matchClass: MatchClass = notMetIds.length > 0 ? 'excluded' : keyUnknown ? 'possible' : 'likely';
  return { matchClass, score, outcomes, metCount: outcomes.filter((item) => item.outcome === 'met').length, notMetIds, unknownIds };
}

export const CLASS_RANK: Record<MatchClass, number> = { likely: 0, possible: 1, excluded: 2 };
