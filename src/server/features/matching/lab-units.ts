import type { CriterionRule } from '../../../contract/trials';
import { MEASURES, normalizeUnit } from '../trials/criteria';

/**
 * A lab value in the unit a criterion is written in (issue 31): a creatinine of 97 µmol/L from a FHIR record is
 * 1.1 mg/dL for "creatinine <= 1.5 mg/dL", an HbA1c of 64 mmol/mol is 8.0% for "HbA1c >= 7%". Conversions come from
 * the measures table the readers share (`trials/criteria/measures.ts`), in either direction where the factor is a
 * number; a unit the table cannot convert leaves the criterion unknown, never guessed.
 */
export type UnitConversion = (value: number) => number;

const SAME: UnitConversion = (value) => value;
const cache = new Map<string, UnitConversion | null>();

/** The conversion from the fact's unit to the rule's for this measure, `SAME` when they agree or one is absent, null when none is known. */
export function unitConversion(measure: string, factUnit: string | null | undefined, ruleUnit: string | null | undefined): UnitConversion | null {
  if (factUnit === ruleUnit || (!factUnit && !ruleUnit)) return SAME;
  // One side without its unit: the measure's own unit is meant, unless it has none ("FEV1 1.8" may be litres, the
  // criterion's "FEV1 60-85%" is of predicted): then the two cannot be compared.
  if (!factUnit || !ruleUnit) return withoutOwnUnit(measure) ? null : SAME;
  const key = `${measure}\x1f${factUnit}\x1f${ruleUnit}`;
  let found = cache.get(key);
  if (found === undefined) cache.set(key, (found = conversionOf(measure, factUnit, ruleUnit)));
  return found;
}

const ownUnitless = new Map<string, boolean>();
/** A measure written in more than one scale and none its own (FEV1, FVC: litres or percent of predicted). */
function withoutOwnUnit(measureName: string): boolean {
  let found = ownUnitless.get(measureName);
  if (found === undefined) {
    const measure = MEASURES.find((item) => item.name === measureName);
    ownUnitless.set(measureName, (found = Boolean(measure && !measure.unit && !measure.unitless && !measure.bare)));
  }
  return found;
}

function conversionOf(measureName: string, factUnit: string, ruleUnit: string): UnitConversion | null {
  const measure = MEASURES.find((item) => item.name === measureName);
  if (!measure?.unit) return null;
  const from = normalizeUnit(factUnit) ?? factUnit;
  const to = normalizeUnit(ruleUnit) ?? ruleUnit;
  if (from === to) return SAME;
  const into = (unit: string) => measure.convert?.[unit];
  const round = (value: number) => Math.round(value * 1000) / 1000;
  if (to === measure.unit) {
    const factor = into(from);
    if (factor === undefined) return null;
    return typeof factor === 'function' ? (value) => round(factor(value)) : (value) => round(value * factor);
  }
  if (from === measure.unit) {
    const factor = into(to);
    return typeof factor === 'number' ? (value) => round(value / factor) : null;
  }
  return null;
}

/** Whether a value (in the rule's unit) meets a lab rule's bound. */
export function compare(value: number, rule: Extract<CriterionRule, { type: 'lab' }>): boolean {
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
