import { KIDNEY_STAGE_EGFR, KIDNEY_STAGE_LABEL } from '../../../contract/kidney-disease-stage';
import type { CriterionRule } from '../../../contract/trials';
import { meshIdByName } from '../trials/vocabulary';
import { isA } from './concept-hierarchy';
import { unitConversion } from './lab-units';

/**
 * A measure a diagnosis bounds by its own definition (decision 285), for a lab criterion the record has no value of:
 * - an adult with obesity has a BMI of 30 or more (the WHO definition; a child's obesity is a percentile, so adults
 *   only; abdominal obesity is a waist, not a BMI, and is left out);
 * - a person said not to have diabetes at all ("no diabetes", not "no type 1 diabetes") has an HbA1c under 6.5%, the
 *   level that diagnoses it.
 * The criterion is decided only where every value the bound allows gives the same answer: obesity meets "BMI >= 27"
 * and fails "BMI < 25", and leaves "BMI < 35" or "BMI <= 30" unknown; no diabetes clears "HbA1c >= 8%" and leaves
 * "HbA1c <= 6%" unknown. Shared by evaluate.ts and the compiled run, so both read a fact the same way.
 */
interface Bound {
  /** The MeSH heading whose fact implies it. */
  heading: string;
  status: 'present' | 'absent';
  /** Only the heading itself ("no diabetes"), not a narrower concept ("no type 1 diabetes"). */
  exactly: boolean;
  /** Headings under it that do not imply it. */
  except: readonly string[];
  measure: string;
  unit: string;
  /** Values from `low` (inclusive) to `high` (exclusive); null is open. */
  low: number | null;
  high: number | null;
  adultsOnly: boolean;
}

const BOUNDS: readonly Bound[] = [
  {
    heading: 'Obesity',
    status: 'present',
    exactly: false,
    except: ['Obesity, Abdominal', 'Pediatric Obesity'],
    measure: 'BMI',
    unit: 'kg/m2',
    low: 30,
    high: null,
    adultsOnly: true,
  },
  { heading: 'Diabetes Mellitus', status: 'absent', exactly: true, except: [], measure: 'HbA1c', unit: '%', low: null, high: 6.5, adultsOnly: false },
];

type LabRule = Extract<CriterionRule, { type: 'lab' }>;
export interface ImpliedAnswer {
  outcome: 'met' | 'not_met';
  adultsOnly: boolean;
  /** The bound in words, for the evidence ("BMI at least 30 kg/m2"). */
  words: string;
}

/** Whether the fact is one the bound speaks of. */
function implies(bound: Bound, fact: { conceptId: string | null; status: string | null }): boolean {
  if (!fact.conceptId || fact.status !== bound.status) return false;
  const heading = meshIdByName(bound.heading);
  if (!heading) return false;
  if (bound.exactly) return fact.conceptId === heading || (isA(fact.conceptId, heading) && isA(heading, fact.conceptId));
  if (!isA(fact.conceptId, heading)) return false;
  for (const other of bound.except) {
    const id = meshIdByName(other);
    if (id && isA(fact.conceptId, id)) return false;
  }
  return true;
}

/** Whether every value in [low, high) passes the rule (`every`), or none does, in the rule's unit. */
function decide(rule: LabRule, low: number | null, high: number | null): 'met' | 'not_met' | null {
  const { comparator, value } = rule;
  const upper = rule.upperValue ?? value;
  switch (comparator) {
    case '>=':
      return low !== null && low >= value ? 'met' : high !== null && high <= value ? 'not_met' : null;
    case '>':
      return low !== null && low > value ? 'met' : high !== null && high <= value ? 'not_met' : null;
    case '<=':
    case '<':
      return high !== null && high <= value ? 'met' : low !== null && (comparator === '<' ? low >= value : low > value) ? 'not_met' : null;
    case 'between':
      if (low !== null && high !== null && low >= value && high <= upper) return 'met';
      return (low !== null && low > upper) || (high !== null && high <= value) ? 'not_met' : null;
    case '=':
      return null;
  }
}

/**
 * A chronic kidney disease whose stage the fact's name carries ("kidney disease (CKD stage 4)", note-details.ts) has the
 * eGFR KDIGO defines the stage by (decision 379): stage 4 fails "eGFR >= 30" and meets "eGFR < 45".
 */
function kidneyStageBound(rule: LabRule, fact: { status: string | null; name?: string }): ImpliedAnswer | null {
  if (rule.measure !== 'eGFR' || fact.status !== 'present' || !fact.name) return null;
  const stage = KIDNEY_STAGE_LABEL.exec(fact.name)?.[1];
  const rate = stage ? KIDNEY_STAGE_EGFR[stage] : undefined;
  const convert = rate ? unitConversion('eGFR', 'mL/min/1.73m2', rule.unit) : null;
  if (!rate || !convert) return null;
  const outcome = decide(rule, convert(rate[0]), convert(rate[1]));
  return outcome ? { outcome, adultsOnly: false, words: `eGFR ${rate[0]} to under ${rate[1]} mL/min/1.73m2 (CKD stage ${stage})` } : null;
}

/** What a condition fact says of a lab criterion by the bound its diagnosis sets, or null (no bound, or not decided). */
export function impliedByCondition(rule: LabRule, fact: { conceptId: string | null; status: string | null; name?: string }): ImpliedAnswer | null {
  if (rule.relativeTo) return null;
  const staged = kidneyStageBound(rule, fact);
  if (staged) return staged;
  for (const bound of BOUNDS) {
    if (bound.measure !== rule.measure || !implies(bound, fact)) continue;
    const convert = unitConversion(bound.measure, bound.unit, rule.unit);
    if (!convert) return null;
    const outcome = decide(rule, bound.low === null ? null : convert(bound.low), bound.high === null ? null : convert(bound.high));
    if (!outcome) return null;
    const words = bound.low !== null ? `${bound.measure} at least ${bound.low} ${bound.unit}` : `${bound.measure} under ${bound.high}${bound.unit}`;
    return { outcome, adultsOnly: bound.adultsOnly, words };
  }
  return null;
}
