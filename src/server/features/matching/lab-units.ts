import type { CriterionRule } from '../../../contract/trials';
import { isPainScore, MEASURES, normalizeUnit } from '../trials/criteria';

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
export function unitConversion(measureName: string, factUnit: string | null | undefined, ruleUnit: string | null | undefined): UnitConversion | null {
  if (factUnit === ruleUnit || (!factUnit && !ruleUnit)) return SAME;
  // A region's pain score ("leg pain score", decision 350) is on the pain score's scale.
  const measure = isPainScore(measureName) ? 'pain score' : measureName;
  // One side without its unit: the measure's own unit is meant, unless it has none ("FEV1 1.8" may be litres, the
  // criterion's "FEV1 60-85%" is of predicted): then the two cannot be compared.
  if (!factUnit || !ruleUnit) return withoutOwnUnit(measure) || !inTable(measure) ? null : SAME;
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
  if (!measure) return analyteConversion(measureName, factUnit, ruleUnit);
  if (!measure.unit) return null;
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

const inTable = (measureName: string) => MEASURES.some((item) => item.name === measureName);

/**
 * Units of one kind, by their factor into the kind's base (decision 304): any analyte's value converts between units of
 * one kind whatever the analyte ("ng/mL" is "µg/L", "mg/dL" is 10 "mg/L", "mIU/L" is "µIU/mL"). Mass and amount never
 * convert into each other (that needs the analyte's molar mass), nor a percentage or a count into anything else.
 */
const UNIT_KINDS: Record<string, Record<string, number>> = {
  mass: {
    'g/L': 1,
    'g/dL': 10,
    'mg/dL': 0.01,
    'mg/L': 0.001,
    'µg/mL': 0.001,
    'µg/dL': 1e-5,
    'µg/L': 1e-6,
    'ng/mL': 1e-6,
    'ng/dL': 1e-8,
    'ng/L': 1e-9,
    'pg/mL': 1e-9,
  },
  amount: { 'mol/L': 1, 'mmol/L': 1e-3, 'µmol/L': 1e-6, 'nmol/L': 1e-9, 'pmol/L': 1e-12 },
  // Units and international units per volume, as laboratories write them interchangeably (an enzyme's U/L is its IU/L).
  units: { 'U/L': 1, 'U/mL': 1000, 'IU/mL': 1000, 'mU/L': 1e-3, 'mIU/L': 1e-3, 'mIU/mL': 1, 'µIU/mL': 1e-3 },
  count: { '/µL': 1, '/mm3': 1, 'cells/µL': 1, '10^9/L': 1000, '10^3/µL': 1000 },
};

/**
 * Monovalent ions, whose milliequivalents are their millimoles: the one conversion between amount and charge that needs
 * nothing of the analyte but its charge.
 */
const MONOVALENT = new Set(['sodium', 'chlorides', 'bicarbonates', 'lithium']);

function analyteConversion(measureName: string, factUnit: string, ruleUnit: string): UnitConversion | null {
  const charge = (unit: string) => (unit === 'mEq/L' && MONOVALENT.has(measureName) ? 'mmol/L' : unit);
  const from = charge(normalizeUnit(factUnit) ?? factUnit);
  const to = charge(normalizeUnit(ruleUnit) ?? ruleUnit);
  if (from === to) return SAME;
  for (const kind of Object.values(UNIT_KINDS)) {
    if (kind[from] === undefined || kind[to] === undefined) continue;
    const factor = kind[from] / kind[to];
    return (value) => Math.round(value * factor * 1e6) / 1e6;
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
