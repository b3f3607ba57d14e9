import { analyteLabUnit, analyteOfLabel } from '../trials/criteria';

/**
 * A FHIR Observation's value of an analyte the measures table does not hold (decision 308): "Prostate specific Ag
 * [Mass/volume] in Serum or Plasma" 6.2 ng/mL is a lab fact "prostate-specific antigen" 6.2 ng/mL, under the name the
 * criteria reader gives the analyte (decision 304), so the matcher compares it with "PSA > 4 ng/mL". Only a blood
 * level: a LOINC name of another sample ("in Urine"), a ratio, or a component with more than the analyte's name (a
 * free fraction, "Cholesterol in HDL", "Calcium.ionized") gives nothing; nor does a value without a laboratory unit or
 * with a bound ("<0.1").
 */

export interface AnalyteValue {
  name: string;
  value: number;
  unit: string;
}

/** LOINC's long common name: "Component [Property] in System", then perhaps "by Method". */
const LOINC_NAME = /^(.+?)\s*\[([^\]]+)\]\s*(?:in|of)\s+(.+?)(?:\s+by\s+.+)?$/i;
/** The systems that are the blood. */
const BLOOD = /^(?:serum or plasma|serum|plasma|blood|(?:arterial|venous|capillary|mixed venous) blood|serum, plasma or blood)$/i;
/** LOINC's abbreviations in a component, as criteria write the words. */
const LOINC_WORDS: ReadonlyArray<[RegExp, string]> = [[/\bAg\b/g, 'antigen']];
/** Plain names of a sample or a derived figure that is not the blood's level (the table's reader refuses them too). */
const NOT_A_BLOOD_LEVEL = /\b(?:urine|urinary|stool|feces|cerebrospinal|csf|sputum|saliva|percentile|ratio|index|free|ionized|per age)\b|\//i;

/** The analyte a code's words name as its blood level, or null. */
function analyteOfDisplay(display: string) {
  const loinc = LOINC_NAME.exec(display.trim());
  // A bracketed property not in LOINC's order ("MCV [Entitic volume] by Automated count") names no sample: not read.
  if (!loinc) return NOT_A_BLOOD_LEVEL.test(display) || display.includes('[') ? null : analyteOfLabel(display);
  const [, component, property, system] = loinc;
  if (!BLOOD.test(system.trim()) || /ratio/i.test(property)) return null;
  // "Cholesterol.total" is the cholesterol criteria bound; any other LOINC qualifier (".ionized", ".cardiac") is not read.
  let words = component.replace(/\.total$/i, '');
  for (const [pattern, replacement] of LOINC_WORDS) words = words.replace(pattern, replacement);
  const synonyms: string[] = [];
  const named = analyteOfLabel(words.replace(/\s*\(([^()]*)\)/g, (_, inner: string) => (synonyms.push(inner), '')));
  return named && synonyms.every((synonym) => sameAnalyte(synonym, named.analyte.ui)) ? named : null;
}

/**
 * A bracketed synonym LOINC writes after a component: a symbol ("Estradiol (E2)", "Thyroxine (T4)") or the same
 * analyte's other name ("Cobalamin (Vitamin B12)"). Any other word ("(ionized)") is another measure.
 */
const sameAnalyte = (synonym: string, ui: string) => /^[A-Z][A-Z0-9]{0,4}$/.test(synonym.trim()) || analyteOfLabel(synonym)?.analyte.ui === ui;

/** A UCUM unit code as laboratories write it: "[IU]/L" is "IU/L", "u[IU]/mL" "µIU/mL", "10*3/uL" "10^3/µL", "{cells}/uL" "/µL". */
function ucumWritten(unit: string): string {
  return unit
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[IU\]/g, 'IU')
    .replace(/10\*(\d)/g, '10^$1');
}

/** The analyte value an Observation's code and quantity give, or null. */
export function analyteValueOf(display: string | null, quantity: { value?: number; unit?: string; code?: string; comparator?: string }): AnalyteValue | null {
  if (!display || typeof quantity.value !== 'number' || quantity.comparator) return null;
  const mention = analyteOfDisplay(display);
  if (!mention) return null;
  const written = quantity.code ?? quantity.unit;
  const unit = written ? analyteLabUnit(mention, ucumWritten(written)) : null;
  return unit ? { name: mention.analyte.name, value: quantity.value, unit } : null;
}
