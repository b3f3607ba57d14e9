import type { MatchClass, MatchOutcome } from '../../../contract/matching';
import { qualifiersHeld, type CriterionRule } from '../../../contract/trials';
import { ageFromBirth, ageFromYears, ageWithin, PAST_CHILDBEARING_YEARS, type PersonAge } from './age';
import type { FactColumns } from './compiled-decode';
import { cohortCriterion } from './cohorts';
import { generalDenialAnswers, isGeneralDenial, relatedToOwnIllness } from './general-denials';
import { compare, unitConversion, type UnitConversion } from './lab-units';
import { againstUpperLimit, intoSpanUnit, upperLimitSpan, type UpperLimitSpan } from './lab-normal-ranges';
import { impliedByCondition } from './implied-measures';
import { isOwnCondition, ownConditionsPerCriterion } from './own-condition';
import { qualifiersContradicted } from './qualifier-opposites';
import { discLevelsOf, levelsAgree } from './spinal-levels';
import { testConfirmedChecks, type TestConfirmedCheck } from './test-confirmed-checks';
import {
  confirmsOnTest,
  matchPerson,
  measureNamed,
  namesRuleConcept,
  nearRuleConcept,
  readsATestResult,
  windowStartOf,
  type MatchCriterion,
  type MatchFact,
  type MatchPerson,
} from './evaluate';
import { DAY_MS, lastedFor, statedUnitDays } from './condition-durations';
import { classAndScore, scorePlans, UNKNOWN_WHEN_RELEVANT } from './score';

/**
 * The match run's evaluation over compact facts (decision 084): the same outcomes as `evaluate.ts`'s
 * `matchPerson(..., { explain: false })`, without a JavaScript object per fact. A slice's facts arrive as bytes
 * per candidate (queries.ts `candidateSlice`, decision 112): per fact the id of its signature (its kind, status,
 * concept, name, unit and value text, kept once per organization), its value and its day. The run reads each
 * signature's words once into a per-run dictionary, and everything a criterion asks of a fact's
 * words (does it name the concept, the lab's measure, hold the qualifiers, another unit) is decided once per
 * signature, not per fact. People are then evaluated over typed arrays: signature, value and day per fact.
 * `evaluate.ts` stays the reference (the evidence screen, what-if and re-matching use it); a unit test compares
 * the two on random people and rules.
 */

/** The separator of a signature's fields: a control character the input guard refuses everywhere. */
export const FIELD = '\x1f';
const NO_DAY = -2147483648;

const KIND_CODES: Record<string, number> = { condition: 0, medication: 1, lab: 2, age: 3, sex: 4, pregnancy: 5, smoking: 6, performance_status: 7 };
const CONDITION = 0;
const MEDICATION = 1;
const LAB = 2;
const AGE = 3;
const SEX = 4;
const PREGNANCY = 5;
const SMOKING = 6;
const PERFORMANCE = 7;
const STATUS_CODES: Record<string, number> = { present: 1, history: 2, absent: 3 };
const PRESENT = 1;
const HISTORY = 2;
const ABSENT = 3;

/** Outcome codes, in the order a result row needs them. */
const MET = 0;
const NOT_MET = 1;
const UNKNOWN = 2;
const NOT_APPLICABLE = 3;
export const OUTCOMES: readonly MatchOutcome[] = ['met', 'not_met', 'unknown', 'not_applicable'];

/** What one criterion asks, resolved once per run. */
type Plan =
  | { type: 'constant'; outcome: number; key: boolean }
  | { type: 'age'; rule: Extract<CriterionRule, { type: 'age' }> }
  | { type: 'sex'; rule: Extract<CriterionRule, { type: 'sex' }> }
  | {
      type: 'presence';
      kind: number;
      wanted: boolean;
      history: boolean;
      since: number | null;
      minDays: number;
      maxDays: number;
      duration: boolean;
      qualified: boolean;
      /** The disc levels the criterion names (spinal-levels.ts), a qualifier too. */
      levels: string[] | null;
      rule: Extract<CriterionRule, { type: 'condition' | 'medication' }>;
      label: string;
      /** A wanted condition: a condition near it in the tree is a hint (evaluate.ts `nearCounts`). */
      nearCounts: boolean;
    }
  | { type: 'lab'; rule: Extract<CriterionRule, { type: 'lab' }> }
  | { type: 'pregnancy' }
  | { type: 'smoking'; smoker: boolean }
  | { type: 'performance'; rule: Extract<CriterionRule, { type: 'performance_status' }> }
  | { type: 'healthy' }
  /** A site check met by the trial's condition reported on a test (test-confirmed-checks.ts). */
  | { type: 'tested'; check: TestConfirmedCheck }
  /** A cohort's criterion (cohorts.ts): `inner` judged for a person whom the plan at `member` (after the criteria) puts in it. */
  | { type: 'cohort'; member: number; inner: Plan };

/**
 * The plans of a trial's criteria, then one per cohort a criterion applies to (who is in it, decision 218): a cohort's
 * plan has its own flags per signature, like a criterion's, and is judged only through the criterion that names it.
 */
function plansOf(criteria: readonly MatchCriterion[], today: Date): Plan[] {
  const tested = testConfirmedChecks(criteria);
  const plans: Plan[] = criteria.map((criterion, i) => planOf(criterion, today, tested[i]));
  for (const [i, criterion] of criteria.entries()) {
    const cohort = criterion.population ? cohortCriterion(criterion.population) : null;
    if (!cohort) continue;
    plans.push(planOf(cohort, today));
    plans[i] = { type: 'cohort', member: plans.length - 1, inner: planOf({ ...criterion, population: null }, today) };
  }
  return plans;
}

function planOf(criterion: MatchCriterion, today: Date, tested: TestConfirmedCheck | null = null): Plan {
  // The same guards, in the same order, as evaluate.ts `evaluateCriterion` and `judge`.
  if (criterion.population) return { type: 'constant', outcome: NOT_APPLICABLE, key: false };
  const rule = criterion.rule;
  if (!rule || readsATestResult(criterion)) return { type: 'constant', outcome: UNKNOWN, key: false };
  if (criterion.ruleSource === 'llm' && criterion.needsReview) return { type: 'constant', outcome: UNKNOWN, key: false };
  switch (rule.type) {
    case 'age':
      return { type: 'age', rule };
    case 'sex':
      return rule.sex === 'all' ? { type: 'constant', outcome: MET, key: false } : { type: 'sex', rule };
    case 'condition':
    case 'medication': {
      const duration = rule.type === 'condition' && rule.duration && (rule.duration.minDays || rule.duration.maxDays) ? rule.duration : null;
      const levels = rule.type === 'condition' ? discLevelsOf(criterion) : null;
      return {
        type: 'presence',
        kind: rule.type === 'condition' ? CONDITION : MEDICATION,
        wanted: rule.type === 'condition' ? rule.present : rule.taking,
        history: Boolean(rule.history),
        since: rule.within ? windowStartOf(rule.within, today).getTime() : null,
        minDays: duration?.minDays ?? 0,
        maxDays: duration?.maxDays ?? 0,
        duration: duration !== null,
        qualified: rule.type === 'condition' && (Boolean(rule.qualifiers?.length) || levels !== null),
        levels,
        rule,
        label: rule.concepts?.[0]?.name ?? (rule.type === 'condition' ? rule.condition : rule.medication),
        nearCounts: rule.type === 'condition' && rule.present,
      };
    }
    case 'lab':
      return rule.relativeTo === 'LLN' ? { type: 'constant', outcome: UNKNOWN, key: false } : { type: 'lab', rule };
    case 'pregnancy':
      return rule.allowed ? { type: 'constant', outcome: NOT_APPLICABLE, key: false } : { type: 'pregnancy' };
    case 'smoking':
      return { type: 'smoking', smoker: rule.smoker };
    case 'performance_status':
      return { type: 'performance', rule };
    case 'healthy_volunteers':
      return rule.accepted ? { type: 'constant', outcome: MET, key: false } : { type: 'healthy' };
    case 'contraception':
      return rule.required ? { type: 'constant', outcome: UNKNOWN, key: false } : { type: 'constant', outcome: NOT_APPLICABLE, key: false };
    case 'site_judgement':
      if (rule.reason === 'permission') return { type: 'constant', outcome: MET, key: false };
      return tested ? { type: 'tested', check: tested } : { type: 'constant', outcome: UNKNOWN, key: false };
  }
}

const RELEVANCE = 1;
const DEPENDS_ON_RELEVANCE = 2;

/** Per signature and criterion: bit 1, the fact is one the criterion reads (names its concept, its measure, its scale); bit 2, it holds the qualifiers / is in another unit. */
const READS = 1;
const SECOND = 2;
/** A general denial ("otherwise healthy") that answers the exclusion (general-denials.ts). */
const GENERAL = 4;
/** A condition the person has that is related to the exclusion's: "otherwise healthy" does not answer it. */
const OWN_ILLNESS = 8;
/** A condition near a wanted one in the tree (evaluate.ts `nearRuleConcept`). */
const NEAR = 16;
/** A condition whose name says an excluding qualifier (the other side, another part of the spine: qualifier-opposites.ts). */
const OPPOSITE = 32;
/** A condition whose diagnosis bounds a lab criterion's measure (implied-measures.ts): met, not met, for adults only. */
const IMPLIED_MET = 64;
const IMPLIED_NOT_MET = 128;
const IMPLIED = IMPLIED_MET | IMPLIED_NOT_MET;
const IMPLIED_ADULTS = 256;

export interface CompiledTrial {
  criteria: readonly MatchCriterion[];
  ids: string[];
  plans: Plan[];
  /** Plans per signature in `sigFlags`: the criteria, then their cohorts (`plansOf`). */
  n: number;
  todayMs: number;
  today: Date;
  /** Signature text -> id, and per id: kind, status, the value text, and a flags byte per criterion. */
  signatures: Map<string, number>;
  /** A signature's row id in `candidate_fact_signature` -> its id here. */
  signatureIds: Map<number, number>;
  sigKind: number[];
  sigStatus: number[];
  sigValueText: Array<string | null>;
  /** Per signature: the days of one unit of a length a note states on a condition (evaluate.ts `statedUnitDays`), else 0. */
  sigUnitDays: number[];
  /** Per signature: a lab fact's span of upper limits of normal (lab-normal-ranges.ts), else null. */
  sigSpan: Array<UpperLimitSpan | null>;
  sigFlags: number[];
  /** Per signature and criterion (as `sigFlags`): a lab fact's conversion into the criterion's unit, where one is needed. */
  sigConvert: Array<UnitConversion | null>;
  /**
   * Per signature, the criteria whose judgement a fact of it can change (decision 113): a criterion no fact of a
   * person touches has the outcome it has for a person with no facts, decided once per run (`blank`), unless it
   * reads the record's age or sex.
   */
  sigCriteria: number[][];
  /** Per criterion: its outcome and key for a person with no facts, or -1 when it reads the record (age, sex, pregnancy). */
  blankOutcome: Int8Array;
  blankKey: Uint8Array;
  /** Per criterion, the serial of the last person a fact of whom touched it (`matchCompact`). */
  touched: Int32Array;
  ages: Map<string, PersonAge>;
  /** The run's criterion id lists, one shared array per distinct list (see `IdList`). */
  lists: IdList;
  /** score.ts's weights per criterion (natural logarithms): met, not met, unknown per completeness (3 a criterion), and whether a not met excludes. */
  metChance: Float64Array;
  notMetChance: Float64Array;
  unknownChance: Float64Array;
  /** score.ts `unknownNamed`, NaN where the rule has none. */
  unknownNamedChance: Float64Array;
  excludes: Uint8Array;
  /** score.ts `relevance` (1) and `dependsOnRelevance` (2) per criterion. */
  relevanceRole: Uint8Array;
  /** Per criterion: the trial's own condition a broad exclusion does not read (own-condition.ts), or null. */
  own: Array<readonly string[] | null>;
}

/**
 * A criterion id list shared by every person with that list (decision 104): a slice of 25,000 people has a few
 * hundred distinct lists, so a person's lists cost no allocation, and the slice's write sends each distinct list
 * once. A trie over criterion positions, in criterion order; `ids` is frozen (everyone with the list holds it).
 */
interface IdList {
  ids: readonly string[];
  /** The list with one more criterion, by that criterion's position. */
  longer: Array<IdList | undefined>;
}
const idListOf = (ids: readonly string[]): IdList => ({ ids: Object.freeze(ids) as readonly string[], longer: [] });
function longerList(trial: CompiledTrial, list: IdList, criterion: number): IdList {
  const found = list.longer[criterion];
  if (found) return found;
  const longer = idListOf([...list.ids, trial.ids[criterion]]);
  list.longer[criterion] = longer;
  return longer;
}

export function compileTrial(criteria: readonly MatchCriterion[], today: Date): CompiledTrial {
  const plans = plansOf(criteria, today);
  const trial: CompiledTrial = {
    criteria,
    ids: criteria.map((criterion) => criterion.id),
    plans,
    n: plans.length,
    todayMs: today.getTime(),
    today,
    signatures: new Map(),
    signatureIds: new Map(),
    sigKind: [],
    sigStatus: [],
    sigValueText: [],
    sigUnitDays: [],
    sigSpan: [],
    sigFlags: [],
    sigConvert: [],
    sigCriteria: [],
    blankOutcome: new Int8Array(plans.length),
    blankKey: new Uint8Array(plans.length),
    touched: new Int32Array(plans.length).fill(-1),
    ages: new Map(),
    lists: idListOf([]),
    metChance: new Float64Array(criteria.length),
    notMetChance: new Float64Array(criteria.length),
    unknownChance: new Float64Array(criteria.length * 3),
    unknownNamedChance: new Float64Array(criteria.length),
    excludes: new Uint8Array(criteria.length),
    relevanceRole: new Uint8Array(criteria.length),
    // A cohort's plan reads every fact as an inclusion does: no own condition to pass over.
    own: [...ownConditionsPerCriterion(criteria, scorePlans(criteria)), ...plans.slice(criteria.length).map(() => null)],
  };
  for (const [i, plan] of scorePlans(criteria).entries()) {
    trial.metChance[i] = plan.met;
    trial.notMetChance[i] = plan.notMet;
    for (let c = 0; c < 3; c++) trial.unknownChance[i * 3 + c] = plan.unknown[c];
    trial.unknownNamedChance[i] = plan.unknownNamed ?? Number.NaN;
    trial.excludes[i] = plan.excludes ? 1 : 0;
    trial.relevanceRole[i] = plan.relevance ? RELEVANCE : plan.dependsOnRelevance ? DEPENDS_ON_RELEVANCE : 0;
  }
  // Each criterion judged once for a person with no facts and no record: what it answers for anyone it reads no
  // fact of. Criteria that read the record (date of birth, sex) are judged per person.
  const blank: CompactPerson = { dateOfBirth: null, sex: 'unknown', completeness: 2, start: 0, end: 0, columns: NO_FACTS };
  for (const [criterion, plan] of trial.plans.entries()) {
    // A cohort's criterion is judged for each person (its cohort's plan and its own both read facts).
    if (plan.type === 'age' || plan.type === 'sex' || plan.type === 'pregnancy' || plan.type === 'cohort') {
      trial.blankOutcome[criterion] = -1;
      continue;
    }
    judgeCompact(trial, blank, plan, criterion);
    trial.blankOutcome[criterion] = outcome;
    trial.blankKey[criterion] = key ? 1 : 0;
  }
  return trial;
}

const NO_FACTS: FactColumns = { sig: new Int32Array(0), value: new Float64Array(0), hasValue: new Uint8Array(0), day: new Int32Array(0) };

/**
 * Whether a criterion's judgement reads facts of this signature: exactly the tests `presence`, `newestOf` and the
 * sex fallback apply before looking at a fact's value or day (decision 113). Age and sex read the record first and
 * are always judged; listed here too so a person without a date of birth or sex is judged on their facts.
 */
function reads(plan: Plan, kind: number, status: number, flags: number, valueText: string | null): boolean {
  switch (plan.type) {
    case 'presence':
      return kind === plan.kind && (flags & (READS | GENERAL | NEAR)) !== 0;
    case 'lab':
      return (kind === LAB && (flags & READS) !== 0) || (kind === CONDITION && (flags & IMPLIED) !== 0);
    case 'performance':
      return kind === PERFORMANCE && (flags & READS) !== 0;
    case 'smoking':
      return kind === SMOKING;
    case 'healthy':
      return kind === CONDITION && status === PRESENT;
    case 'tested':
      return kind === CONDITION && (flags & READS) !== 0;
    case 'pregnancy':
      return kind === PREGNANCY || kind === AGE;
    case 'age':
      return kind === AGE;
    case 'sex':
      return kind === SEX && valueText !== null;
    case 'constant':
    case 'cohort':
      return false;
  }
}

/** Adds a signature to the run's dictionary, deciding once what each criterion makes of its words. */
/** evaluate.ts `qualifiedJudgement`: SECOND when the name holds every qualifier and a wanted level, OPPOSITE when it says an excluding one. */
function qualifierFlags(name: string, qualifiers: NonNullable<Extract<CriterionRule, { type: 'condition' }>['qualifiers']>, levels: string[] | null): number {
  const level = levels ? levelsAgree(name, levels) : 'in';
  if (qualifiersHeld(name, qualifiers) && level === 'in') return SECOND;
  return qualifiersContradicted(name, qualifiers) || level === 'out' ? OPPOSITE : 0;
}

function addSignature(trial: CompiledTrial, key: string, fields: string[]): number {
  const [kind, status, conceptId, name, unit, valueText] = fields;
  const id = trial.sigKind.length;
  const kindCode = KIND_CODES[kind] ?? -1;
  const statusCode = STATUS_CODES[status] ?? 0;
  const text = valueText === '' ? null : valueText.slice(1);
  trial.signatures.set(key, id);
  trial.sigKind.push(kindCode);
  trial.sigStatus.push(statusCode);
  trial.sigValueText.push(text);
  trial.sigUnitDays.push(kindCode === CONDITION ? statedUnitDays(unit || null) : 0);
  const span = kindCode === LAB ? upperLimitSpan(name) : null;
  trial.sigSpan.push(span);
  const fact = { conceptId: conceptId || null, name, status: (status || null) as MatchFact['status'] } as MatchFact;
  const touches: number[] = [];
  for (const [criterion, planned] of trial.plans.entries()) {
    // A cohort's criterion reads facts as its own rule does; who is in the cohort has flags of its own (`member`).
    const plan = planned.type === 'cohort' ? planned.inner : planned;
    let flags = 0;
    let convert: UnitConversion | null = null;
    if (plan.type === 'presence' && kindCode === plan.kind) {
      const own = trial.own[criterion];
      // A broad exclusion does not read the trial's own condition (own-condition.ts), as evaluate.ts.
      const skipped = own !== null && statusCode !== ABSENT && !isGeneralDenial(fact) && isOwnCondition(fact.conceptId, own);
      if (!skipped && namesRuleConcept(fact, plan.rule, plan.label)) flags |= READS;
      else if (plan.nearCounts && statusCode !== ABSENT && nearRuleConcept(fact, plan.rule)) flags |= NEAR;
      else if (!plan.wanted && isGeneralDenial(fact) && generalDenialAnswers(plan.rule.type, plan.rule)) flags |= GENERAL;
      if (
        !plan.wanted &&
        !skipped &&
        kindCode === CONDITION &&
        statusCode !== ABSENT &&
        !isGeneralDenial(fact) &&
        relatedToOwnIllness(fact.conceptId, plan.rule.concepts)
      )
        flags |= OWN_ILLNESS;
      if (plan.qualified && plan.rule.type === 'condition') flags |= qualifierFlags(name, plan.rule.qualifiers ?? [], plan.levels);
    } else if (plan.type === 'lab' && kindCode === LAB) {
      if (measureNamed(plan.rule.measure, name)) flags |= READS;
      if (plan.rule.relativeTo) {
        // Into the unit of the measure's span of upper limits (evaluate.ts `againstNormalRange`), else unknown.
        convert = span ? intoSpanUnit(span, unit || null) : null;
        if (!convert) flags |= SECOND;
      } else if ((plan.rule.unit || unit) && unit !== (plan.rule.unit ?? '')) {
        // Another unit, or one side without its unit: converted where the measures table can (lab-units.ts), else
        // unknown (SECOND).
        convert = unitConversion(plan.rule.measure, unit, plan.rule.unit);
        if (!convert) flags |= SECOND;
      }
    } else if (plan.type === 'lab' && kindCode === CONDITION) {
      flags |= impliedFlags(plan.rule, fact);
    } else if (plan.type === 'performance' && kindCode === PERFORMANCE) {
      if ((text ?? plan.rule.scale) === plan.rule.scale) flags |= READS;
    } else if (plan.type === 'tested' && kindCode === CONDITION) {
      if (confirmsOnTest(plan.check, { ...fact, kind: 'condition', valueText: text })) flags |= READS;
    }
    trial.sigFlags.push(flags);
    trial.sigConvert.push(convert);
    if (reads(planned, kindCode, statusCode, flags, text)) touches.push(criterion);
  }
  trial.sigCriteria.push(touches);
  return id;
}

/** One candidate of a slice: the record's basics and where their facts are, or their facts as objects (`person`) when the compact text could not be read. */
export interface CompactPerson {
  dateOfBirth: string | null;
  sex: string;
  /** score.ts's completeness code of the person's source (NOTE, RECORD, PARTIAL). */
  completeness: number;
  start: number;
  end: number;
  columns: FactColumns;
  person?: MatchPerson;
}

export { decodeFacts, type FactColumns, PACKED_FACT_BYTES, type PackedSlice } from './compiled-decode';

/**
 * Adds signatures read from `candidate_fact_signature` (kind, status, concept id, name, unit, value text joined by
 * chr(31)) to the run's dictionary. A text that does not split into its six fields (a field holding the separator,
 * which the app never writes) is left out: the facts naming it are read as rows instead.
 */
export function addSignatures(trial: CompiledTrial, rows: ReadonlyArray<{ id: number; signature: string }>): void {
  for (const { id, signature } of rows) {
    const fields = signature.split(FIELD);
    if (fields.length !== 6) continue;
    trial.signatureIds.set(id, trial.signatures.get(signature) ?? addSignature(trial, signature, fields));
  }
}

/** A person's result, in the shape a run writes; the id lists may be shared with other people (read only). */
export interface CompactMatch {
  matchClass: MatchClass;
  score: number;
  metCount: number;
  notMetIds: readonly string[];
  unknownIds: readonly string[];
}

/** evaluate.ts `inWindow`: undated facts and rules without a window are in it. */
function inWindow(plan: { since: number | null }, factDay: number): boolean {
  return plan.since === null || factDay === NO_DAY || factDay * DAY_MS >= plan.since;
}

/** Outcome and key of the criterion just judged (module state: no object per criterion and person). */
let outcome = 0;
let key = false;
/** The decided fact's index (or -1). */
let decided = -1;

/** The newest fact of a kind passing a test: the first of the newest day, as evaluate.ts's stable sort takes it. */
function newestOf(trial: CompiledTrial, c: CompactPerson, kind: number, status: number, criterion: number, flag: number, needsValue: boolean): number {
  const { sig, day, hasValue } = c.columns;
  const { sigKind, sigStatus, sigFlags, n } = trial;
  let best = -1;
  let bestDay = 0;
  for (let i = c.start; i < c.end; i++) {
    const s = sig[i];
    if (sigKind[s] !== kind) continue;
    if (status !== 0 && sigStatus[s] !== status) continue;
    if (flag !== 0 && (sigFlags[s * n + criterion] & flag) === 0) continue;
    if (needsValue && hasValue[i] === 0) continue;
    const d = day[i];
    if (best < 0 || d > bestDay) {
      best = i;
      bestDay = d;
    }
  }
  return best;
}

function presence(trial: CompiledTrial, c: CompactPerson, plan: Extract<Plan, { type: 'presence' }>, criterion: number): void {
  // The newest fact naming the concept of each status, in one pass (evaluate.ts `presenceRule`).
  const { sig, day } = c.columns;
  const { sigKind, sigStatus, sigFlags, n } = trial;
  let current = -1;
  let past = -1;
  let denied = -1;
  let general = -1;
  let near = -1;
  let ownIllness = false;
  for (let i = c.start; i < c.end; i++) {
    const s = sig[i];
    if (sigKind[s] !== plan.kind) continue;
    const flags = sigFlags[s * n + criterion];
    if ((flags & GENERAL) !== 0 && general < 0) general = i;
    if ((flags & NEAR) !== 0 && (near < 0 || day[i] > day[near])) near = i;
    if ((flags & OWN_ILLNESS) !== 0) ownIllness = true;
    if ((flags & READS) === 0) continue;
    const status = sigStatus[s];
    if (status === PRESENT) {
      if (current < 0 || day[i] > day[current]) current = i;
    } else if (status === HISTORY) {
      if (past < 0 || day[i] > day[past]) past = i;
    } else if (status === ABSENT) {
      if (denied < 0 || day[i] > day[denied]) denied = i;
    }
  }
  key = plan.wanted;
  if (plan.duration && (current >= 0 || (past >= 0 && plan.history))) {
    const fact = current >= 0 ? current : past;
    decided = fact;
    // evaluate.ts `lasted`: only a dated current condition tells how long it has lasted.
    let how = UNKNOWN;
    if (day[fact] !== NO_DAY && trial.sigStatus[c.columns.sig[fact]] === PRESENT) {
      const known = Math.floor((trial.todayMs - day[fact] * DAY_MS) / DAY_MS);
      const unitDays = c.columns.hasValue[fact] ? trial.sigUnitDays[c.columns.sig[fact]] : 0;
      const lastedOk = lastedFor(known, unitDays, { minDays: plan.minDays, maxDays: plan.maxDays });
      how = lastedOk === 'yes' ? MET : lastedOk === 'no' ? NOT_MET : UNKNOWN;
    }
    outcome = how === UNKNOWN ? UNKNOWN : plan.wanted === (how === MET) ? MET : NOT_MET;
    return;
  }
  if (plan.wanted) {
    if (current >= 0) return void ((outcome = MET), (decided = current));
    if (past >= 0) return void ((outcome = plan.history ? MET : UNKNOWN), (decided = past));
    if (denied >= 0) return void ((outcome = NOT_MET), (decided = denied));
    return void ((outcome = UNKNOWN), (decided = near));
  }
  // evaluate.ts: a condition present now that began before the window stays unknown; a medicine taken now is within it.
  if (current >= 0) return void ((outcome = inWindow(plan, day[current]) || plan.kind !== CONDITION ? NOT_MET : UNKNOWN), (decided = current));
  if (past >= 0) {
    decided = past;
    if (plan.since !== null) outcome = day[past] === NO_DAY ? UNKNOWN : inWindow(plan, day[past]) ? NOT_MET : MET;
    else outcome = plan.history ? NOT_MET : MET;
    return;
  }
  if (denied >= 0) return void ((outcome = MET), (decided = denied));
  // evaluate.ts: a general denial answers the exclusion last.
  if (general >= 0 && !ownIllness) return void ((outcome = MET), (decided = general));
  outcome = UNKNOWN;
  decided = -1;
}

/** The record's sex, else the newest sex fact's value (evaluate.ts: `find((fact) => fact.valueText)`). */
function sexOf(trial: CompiledTrial, c: CompactPerson): string | null {
  if (c.sex === 'female' || c.sex === 'male') return c.sex;
  const { sig, day } = c.columns;
  let best = -1;
  let bestDay = 0;
  for (let i = c.start; i < c.end; i++) {
    const s = sig[i];
    if (trial.sigKind[s] !== SEX || !trial.sigValueText[s]) continue;
    if (best < 0 || day[i] > bestDay) {
      best = i;
      bestDay = day[i];
    }
  }
  return best >= 0 ? trial.sigValueText[sig[best]] : null;
}

/** evaluate.ts `impliedJudgement`: no value on record, the newest condition whose diagnosis bounds the measure. */
function impliedOutcome(trial: CompiledTrial, c: CompactPerson, criterion: number): void {
  const fact = newestOf(trial, c, CONDITION, 0, criterion, IMPLIED, false);
  const flags = fact < 0 ? 0 : trial.sigFlags[c.columns.sig[fact] * trial.n + criterion];
  const answers = fact >= 0 && ((flags & IMPLIED_ADULTS) === 0 || isAdultCompact(trial, c, criterion));
  outcome = !answers ? UNKNOWN : (flags & IMPLIED_MET) !== 0 ? MET : NOT_MET;
}

/** The implied-measure flags of a condition signature for a lab criterion (implied-measures.ts). */
function impliedFlags(rule: Extract<CriterionRule, { type: 'lab' }>, fact: MatchFact): number {
  const implied = impliedByCondition(rule, fact);
  if (!implied) return 0;
  return (implied.outcome === 'met' ? IMPLIED_MET : IMPLIED_NOT_MET) | (implied.adultsOnly ? IMPLIED_ADULTS : 0);
}

/** evaluate.ts `personAge`: the record's date of birth, else the newest age fact with a value. */
function ageCompact(trial: CompiledTrial, c: CompactPerson, criterion: number): PersonAge | null {
  if (c.dateOfBirth) {
    let known = trial.ages.get(c.dateOfBirth);
    if (known === undefined) trial.ages.set(c.dateOfBirth, (known = ageFromBirth(c.dateOfBirth, trial.today)));
    return known;
  }
  const fact = newestOf(trial, c, AGE, 0, criterion, 0, true);
  // A fraction of a year stays one (age.ts): an infant is never 0.
  return fact >= 0 ? ageFromYears(c.columns.value[fact]) : null;
}

/** evaluate.ts `isAdult`. */
function isAdultCompact(trial: CompiledTrial, c: CompactPerson, criterion: number): boolean {
  const age = ageCompact(trial, c, criterion);
  return age !== null && age.years >= 18;
}

function judgeCompact(trial: CompiledTrial, c: CompactPerson, plan: Plan, criterion: number): void {
  const { sig, value } = c.columns;
  decided = -1;
  switch (plan.type) {
    case 'constant':
      outcome = plan.outcome;
      key = plan.key;
      return;
    case 'age': {
      key = true;
      const age = ageCompact(trial, c, criterion);
      if (age === null) return void (outcome = UNKNOWN);
      outcome = ageWithin(age, plan.rule.minYears, plan.rule.maxYears) ? MET : NOT_MET;
      return;
    }
    case 'sex': {
      key = true;
      const sex = sexOf(trial, c);
      outcome = !sex ? UNKNOWN : sex === plan.rule.sex ? MET : NOT_MET;
      return;
    }
    case 'presence':
      presence(trial, c, plan, criterion);
      // evaluate.ts `qualifiedJudgement`: a deciding "has it" fact proves the qualifiers only when its name says them.
      if (plan.qualified && decided >= 0 && outcome === (plan.wanted ? MET : NOT_MET)) {
        const s = sig[decided];
        const flags = trial.sigFlags[s * trial.n + criterion];
        if (trial.sigStatus[s] !== ABSENT && (flags & SECOND) === 0) outcome = (flags & OPPOSITE) !== 0 ? (plan.wanted ? NOT_MET : MET) : UNKNOWN;
      }
      return;
    case 'lab': {
      key = !plan.rule.relativeTo;
      const fact = newestOf(trial, c, LAB, 0, criterion, READS, true);
      if (fact < 0) {
        impliedOutcome(trial, c, criterion);
        return;
      }
      const at = sig[fact] * trial.n + criterion;
      if ((trial.sigFlags[at] & SECOND) !== 0) return void (outcome = UNKNOWN);
      const convert = trial.sigConvert[at];
      if (plan.rule.relativeTo) {
        // evaluate.ts `againstNormalRange`: adults only, decided where every limit of the span agrees.
        const span = trial.sigSpan[sig[fact]];
        const answer =
          span && isAdultCompact(trial, c, criterion) ? againstUpperLimit(plan.rule, convert ? convert(value[fact]) : value[fact], span) : 'unknown';
        outcome = answer === 'met' ? MET : answer === 'not_met' ? NOT_MET : UNKNOWN;
        decided = outcome === UNKNOWN ? -1 : fact;
        return;
      }
      outcome = compare(convert ? convert(value[fact]) : value[fact], plan.rule) ? MET : NOT_MET;
      return;
    }
    case 'pregnancy': {
      key = false;
      // evaluate.ts: the record's sex, else a sex fact's.
      if (c.sex === 'male' || (c.sex !== 'female' && sexOf(trial, c) === 'male')) return void ((outcome = MET), (decided = -1));
      const fact = newestOf(trial, c, PREGNANCY, 0, criterion, 0, false);
      if (fact < 0) {
        // evaluate.ts: a woman past childbearing age is not pregnant.
        const age = ageCompact(trial, c, criterion);
        outcome = age && age.years >= PAST_CHILDBEARING_YEARS ? MET : UNKNOWN;
        return;
      }
      outcome = trial.sigStatus[sig[fact]] === PRESENT ? NOT_MET : MET;
      return;
    }
    case 'smoking': {
      key = plan.smoker;
      const fact = newestOf(trial, c, SMOKING, 0, criterion, 0, false);
      outcome = fact < 0 ? UNKNOWN : (trial.sigStatus[sig[fact]] === PRESENT) === plan.smoker ? MET : NOT_MET;
      return;
    }
    case 'performance': {
      key = true;
      const fact = newestOf(trial, c, PERFORMANCE, 0, criterion, READS, true);
      if (fact < 0) return void (outcome = UNKNOWN);
      const v = value[fact];
      const { min, max } = plan.rule;
      outcome = (min == null || v >= min) && (max == null || v <= max) ? MET : NOT_MET;
      return;
    }
    case 'healthy': {
      key = false;
      outcome = newestOf(trial, c, CONDITION, PRESENT, criterion, 0, false) >= 0 ? MET : UNKNOWN;
      return;
    }
    case 'tested': {
      key = false;
      decided = newestOf(trial, c, CONDITION, 0, criterion, READS, false);
      outcome = decided >= 0 ? MET : UNKNOWN;
      return;
    }
    case 'cohort': {
      // evaluate.ts: in the cohort by a met inclusion, then judged as any criterion; else not applicable.
      judgeCompact(trial, c, trial.plans[plan.member], plan.member);
      if (outcome !== MET) return void ((outcome = NOT_APPLICABLE), (key = false), (decided = -1));
      judgeCompact(trial, c, plan.inner, criterion);
      return;
    }
  }
}

/** Counts the people `matchCompact` evaluates, to mark the criteria each one's facts touch (a wrapped serial marks a criterion touched wrongly at worst, which judges it in full). */
let personSerial = 0;

/** One person against the compiled trial: evaluate.ts `matchPerson`'s class, score and lists. */
export function matchCompact(trial: CompiledTrial, c: CompactPerson): CompactMatch {
  if (c.person) return matchPerson(trial.criteria, c.person, trial.today, { explain: false });
  let notMet = trial.lists;
  let unknown = trial.lists;
  let keyUnknown = false;
  let metCount = 0;
  let excluding = 0;
  let flagged = 0;
  let chance = 0;
  let relevant = false;
  let dependent = 0;
  let dependentCount = 0;
  // The criteria this person's facts touch; the others answer as for a person with no facts.
  const serial = (personSerial = (personSerial + 1) | 0);
  const { sig } = c.columns;
  const { sigCriteria, touched, blankOutcome, blankKey, metChance, notMetChance, unknownChance, unknownNamedChance, excludes, relevanceRole } = trial;
  const completeness = c.completeness;
  for (let f = c.start; f < c.end; f++) {
    const criteria = sigCriteria[sig[f]];
    for (let k = 0; k < criteria.length; k++) touched[criteria[k]] = serial;
  }
  for (let i = 0; i < trial.ids.length; i++) {
    if (blankOutcome[i] >= 0 && touched[i] !== serial) {
      outcome = blankOutcome[i];
      key = blankKey[i] === 1;
      decided = -1;
    } else judgeCompact(trial, c, trial.plans[i], i);
    const role = relevanceRole[i];
    if (role === RELEVANCE && outcome === MET) relevant = true;
    if (outcome === UNKNOWN && role === DEPENDS_ON_RELEVANCE && decided < 0) {
      // evaluate.ts: weighed once the person's relevance is known.
      unknown = longerList(trial, unknown, i);
      if (key) keyUnknown = true;
      dependent += unknownChance[i * 3 + completeness];
      dependentCount++;
    } else if (outcome === NOT_MET) {
      notMet = longerList(trial, notMet, i);
      if (excludes[i] === 1) excluding++;
      else flagged++;
      chance += notMetChance[i];
    } else if (outcome === UNKNOWN) {
      unknown = longerList(trial, unknown, i);
      if (key) keyUnknown = true;
      // A fact named the condition or medicine without deciding it (evaluate.ts: an unknown outcome with a fact).
      const named = unknownNamedChance[i];
      chance += decided >= 0 && !Number.isNaN(named) ? named : unknownChance[i * 3 + completeness];
    } else if (outcome === MET) {
      metCount++;
      chance += metChance[i];
    }
  }
  chance += relevant ? dependentCount * UNKNOWN_WHEN_RELEVANT : dependent;
  // One object of one shape per person (a spread of classAndScore's answer cost a copy and a second object each).
  const { matchClass, score } = classAndScore(excluding, keyUnknown, flagged, chance);
  return { matchClass, score, metCount, notMetIds: notMet.ids, unknownIds: unknown.ids };
}
