import type { CriterionRule } from '../../../contract/trials';
import { compare, unitConversion, type UnitConversion } from './lab-units';

/**
 * A lab criterion written against the lab's upper limit of normal ("ALT <= 2.5 x ULN", "total bilirubin > 1.5 x ULN")
 * decided from a value alone where every adult laboratory's limit gives the same answer (decision 251). Laboratories
 * set their own limits, so the matcher does not pick one: it takes the span of the limits adult laboratories use
 * (low and high, below) and decides only when the value is on the same side of the multiple at both ends; anywhere
 * in between it stays unknown, as before. ALT 78 U/L meets "ALT <= 5 x ULN" under any limit from 19 to 56 U/L; ALT
 * 120 U/L for "ALT <= 2.5 x ULN" is met under a limit of 56 and not under 19: unknown. Only for adults (children's and
 * infants' limits differ), and only for the measures below; "x LLN" stays unknown.
 *
 * The spans are wide on purpose: ALT's lowest is the sex-specific healthy limit of the ACG guideline (19 U/L for
 * women), its highest a common laboratory's (56 U/L); AST 25-50 U/L; total bilirubin 0.9-1.5 mg/dL (17-21 umol/L is
 * the usual); creatinine 0.8-1.5 mg/dL (a woman's limit near 0.9, a man's 1.2-1.3).
 */
export interface UpperLimitSpan {
  measure: string;
  low: number;
  high: number;
  unit: string;
}

const SPANS: readonly UpperLimitSpan[] = [
  { measure: 'ALT', low: 19, high: 56, unit: 'U/L' },
  { measure: 'AST', low: 25, high: 50, unit: 'U/L' },
  { measure: 'bilirubin', low: 0.9, high: 1.5, unit: 'mg/dL' },
  { measure: 'creatinine', low: 0.8, high: 1.5, unit: 'mg/dL' },
];

/** The span of upper limits for a lab fact's measure (its name, "ALT" or "alt"), or null when none is kept. */
export function upperLimitSpan(factName: string): UpperLimitSpan | null {
  const name = factName.toLowerCase();
  return SPANS.find((span) => span.measure.toLowerCase() === name) ?? null;
}

/** The conversion of a fact's value into its span's unit, or null when its unit does not convert. */
export function intoSpanUnit(span: UpperLimitSpan, factUnit: string | null): UnitConversion | null {
  return unitConversion(span.measure, factUnit, span.unit);
}

type Lab = Extract<CriterionRule, { type: 'lab' }>;

/**
 * A value (in the span's unit) against a rule written as a multiple of the upper limit: 'met' or 'not_met' when the
 * answer is the same at every limit of the span, else 'unknown'.
 */
export function againstUpperLimit(rule: Lab, value: number, span: UpperLimitSpan): 'met' | 'not_met' | 'unknown' {
  if (rule.relativeTo !== 'ULN' || value < 0) return 'unknown';
  // The smallest multiple the value can be (under the highest limit) and the largest (under the lowest).
  const least = value / span.high;
  const most = value / span.low;
  if (rule.comparator === 'between') {
    const upper = rule.upperValue ?? rule.value;
    if (least >= rule.value && most <= upper) return 'met';
    return most < rule.value || least > upper ? 'not_met' : 'unknown';
  }
  if (rule.comparator === '=') return 'unknown';
  const atLeast = compare(least, rule);
  const atMost = compare(most, rule);
  if (atLeast && atMost) return 'met';
  return !atLeast && !atMost ? 'not_met' : 'unknown';
}
