import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion, type MatchFact, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { againstUpperLimit, upperLimitSpan } from '../../../src/server/features/matching/lab-normal-ranges';
import { matchFact, ruleCriterion } from '../../support/match-facts';

// Decision 251. Values and rules written for this file.
const today = new Date('2026-06-15T12:00:00Z');
const fact = matchFact('fhir');
const lab = (name: string, value: number, unit: string | null): MatchFact => fact({ kind: 'lab', name, value, unit });
const age = (years: number): MatchFact => fact({ kind: 'age', name: 'age', value: years, unit: 'years' });
const person = (facts: MatchFact[], dateOfBirth: string | null = null): MatchPerson => ({ dateOfBirth, sex: 'female', facts });
const uln = (measure: string, comparator: '<=' | '<' | '>' | '>=' | 'between', value: number, upperValue?: number): CriterionRule => ({
  type: 'lab',
  measure,
  comparator,
  value,
  ...(upperValue === undefined ? {} : { upperValue }),
  relativeTo: 'ULN',
});
const outcomeOf = (rule: CriterionRule, who: MatchPerson) => evaluateCriterion(ruleCriterion(rule), who, today).outcome;

describe('a lab criterion against the upper limit of normal', () => {
  it('is met or not where every adult laboratory limit gives the same answer', () => {
    // AST 40 U/L is at most 1.6 x any limit from 25 to 50: within "<= 3 x ULN"; 400 U/L is at least 8 x: outside.
    expect(outcomeOf(uln('AST', '<=', 3), person([age(44), lab('AST', 40, 'U/L')]))).toBe('met');
    expect(outcomeOf(uln('AST', '<=', 3), person([age(44), lab('AST', 400, 'U/L')]))).toBe('not_met');
    // "ALT/AST" reads either, each against its own limits.
    expect(outcomeOf(uln('ALT/AST', '<=', 2.5), person([age(61), lab('ALT', 30, 'U/L')]))).toBe('met');
  });

  it('stays unknown where the laboratory limit decides', () => {
    // ALT 90 U/L is 1.6 x a limit of 56 and 4.7 x a limit of 19: "<= 3 x ULN" depends on the laboratory.
    expect(outcomeOf(uln('ALT', '<=', 3), person([age(44), lab('ALT', 90, 'U/L')]))).toBe('unknown');
  });

  it('converts the unit first, and leaves a unit it cannot convert unknown', () => {
    // 30 umol/L is 1.75 mg/dL: above every bilirubin limit from 0.9 to 1.5 mg/dL, so not within "<= 1 x ULN".
    expect(outcomeOf(uln('bilirubin', '<=', 1), person([age(50), lab('bilirubin', 30, 'µmol/L')]))).toBe('not_met');
    expect(outcomeOf(uln('bilirubin', '<=', 1), person([age(50), lab('bilirubin', 30, 'furlongs')]))).toBe('unknown');
  });

  it('is only read for an adult', () => {
    expect(outcomeOf(uln('AST', '<=', 3), person([age(9), lab('AST', 40, 'U/L')]))).toBe('unknown');
    expect(outcomeOf(uln('AST', '<=', 3), person([lab('AST', 40, 'U/L')]))).toBe('unknown');
    expect(outcomeOf(uln('AST', '<=', 3), person([lab('AST', 40, 'U/L')], '1970-03-02'))).toBe('met');
  });

  it('leaves a measure without a span of limits, and a multiple of the lower limit, unknown', () => {
    expect(outcomeOf(uln('lipase', '<=', 3), person([age(44), lab('lipase', 20, 'U/L')]))).toBe('unknown');
    const lower: CriterionRule = { type: 'lab', measure: 'AST', comparator: '>=', value: 1, relativeTo: 'LLN' };
    expect(outcomeOf(lower, person([age(44), lab('AST', 40, 'U/L')]))).toBe('unknown');
  });

  it('decides a range of multiples only when the whole span falls in or out of it', () => {
    const creatinine = upperLimitSpan('creatinine')!;
    expect(againstUpperLimit(uln('creatinine', 'between', 1, 3) as never, 2.6, creatinine)).toBe('unknown');
    expect(againstUpperLimit(uln('creatinine', 'between', 1, 3) as never, 1.6, creatinine)).toBe('met');
    expect(againstUpperLimit(uln('creatinine', 'between', 1, 3) as never, 0.6, creatinine)).toBe('not_met');
  });
});
