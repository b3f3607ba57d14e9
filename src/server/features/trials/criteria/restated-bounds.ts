import type { CriterionRule } from '../../../../contract/trials';
import { canonical, type Measure } from './measures';
import { COMPARATOR, comparatorOf, NUMBER, toNumber, WORD_COMPARATOR } from './text';

/** A lab bound written again in another unit of its measure, which says nothing more (decision 361). */

/**
 * "HbA1c ≥ 7.0% (53 mmol/mol)", "creatinine > 1.5 mg/dL (133 µmol/L)", "HbA1c 7.0-10.0 percent (53-86 millimoles per
 * mole [mmol/mol])": a parenthesis right after the bound that gives the same value(s) in another unit of the measure says
 * nothing more, so the rule's span reaches over it (hand-check S's pass). Only when every number converts to the rule's
 * own value within 3%; any other number in the parenthesis is left to a person.
 */
export function sameValueAfter(measure: Measure, rule: Extract<CriterionRule, { type: 'lab' }>, text: string, end: number): number {
  // "6.5 percent (48 mmol/mol)": a unit in words is not in the bound's span. "Hemoglobin ≥ 9 g/dL or ≥ 5.6 mmol/L": the
  // same bound restated after "or", with the rule's own comparator or none (decision 361).
  const parenthesis =
    /^(?:\s*per\s*cent)?\s*\(([^()]{1,80})\)/i.exec(text.slice(end)) ??
    new RegExp(String.raw`^\s*(?:or|/)\s*((?:${COMPARATOR})?\s*${NUMBER}\s*[^\s,;.()]{1,12})`, 'i').exec(text.slice(end));
  if (!parenthesis || !measure.convert || rule.relativeTo) return end;
  if (!parenthesis[0].includes('(') && !sameComparator(parenthesis[1], text.slice(0, end))) return end;
  const inner = parenthesis[1].replace(/\[([^\]]*)\]/g, ' $1 ');
  const unitPattern = (key: string) => new RegExp(String.raw`(?<=^|[\s\d])${key.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?![a-z])`, 'gi');
  const unit = [...Object.keys(measure.convert), ...(measure.unit ? [measure.unit] : [])].find((key) => unitPattern(key).test(inner));
  // The unit's own digits ("/mm3", "10^9/L") are no value.
  if (!unit) return end;
  const withoutUnit = inner.replace(unitPattern(unit), ' ');
  // Only the value again: "(≥ 75 x 10^9/L if lymphoma involves the marrow)" is a second bound for some people.
  if (!RESTATED_ONLY.test(withoutUnit.replace(new RegExp(NUMBER, 'g'), ' '))) return end;
  const numbers = [...withoutUnit.matchAll(new RegExp(NUMBER, 'g'))].map((match) => toNumber(match[1]));
  const wanted = rule.comparator === 'between' ? [rule.value, rule.upperValue] : [rule.value];
  if (numbers.length !== wanted.length) return end;
  const same = numbers.every((number, index) => {
    const target = wanted[index];
    const value = canonical(measure, number, unit).value;
    return target !== undefined && Math.abs(value - target) <= Math.abs(target) * 0.03;
  });
  return same ? end + parenthesis[0].length : end;
}

/** What a restatement holds beside its numbers and unit: comparators, a range's dash, the unit in words. */
const RESTATED_ONLY =
  /^(?:[\s≤≥<>=≦≧~≈,:–-]|\b(?:or|to|and|approximately|approx|about|per|cent|percent|milli\w*|micro\w*|nano\w*|moles?|litres?|liters?|grams?|units?|international|cubic|mm3|mm³)\b|\[|\])*$/i;

/** Whether a restated bound's comparator, if it writes one, is the bound's own: "or ≥ 5.6 mmol/L" after "≥ 9 g/dL". */
function sameComparator(restated: string, before: string): boolean {
  const written = new RegExp(String.raw`^\s*${COMPARATOR}`, 'i').exec(restated)?.[1];
  const own = [...before.matchAll(new RegExp(String.raw`${COMPARATOR}|\b${WORD_COMPARATOR}`, 'gi'))].at(-1);
  return written === undefined || (own !== undefined && comparatorOf(written) === comparatorOf(own[1] ?? own[2]));
}
