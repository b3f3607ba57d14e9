import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion } from '../../../src/server/features/matching/evaluate';
import { analyteValueOf } from '../../../src/server/features/matching/fhir-analytes';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { noteFacts, ruleCriterion } from '../../support/match-facts';

/** Decision 335: NT-proBNP is an analyte of its own, never BNP, from a criterion, a note and a FHIR record. New wording. */
const today = new Date('2026-06-15T12:00:00Z');
const ruleOf = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});

describe('NT-proBNP', () => {
  it('is read as its own lab however a criterion writes it, with no review', () => {
    for (const text of ['NT-proBNP of 400 pg/mL or more', 'N-terminal pro-B-type natriuretic peptide at least 400 pg/mL', 'NTproBNP >= 400 ng/L']) {
      const read = ruleOf('inclusion', text);
      expect(read.rule, text).toMatchObject({ type: 'lab', measure: 'NT-proBNP', comparator: '>=', value: 400 });
      expect(read.needsReview, text).toBe(false);
    }
  });

  it('is never BNP, and BNP stays BNP', () => {
    expect(ruleOf('inclusion', 'N-terminal pro-brain natriuretic peptide above 900 pg/mL').rule).not.toMatchObject({ measure: 'brain natriuretic peptide' });
    expect(ruleOf('inclusion', 'BNP above 150 pg/mL').rule).toMatchObject({ type: 'lab', measure: 'brain natriuretic peptide' });
  });

  it('decides a criterion from a note, across pg/mL and ng/L', () => {
    const rule = ruleOf('inclusion', 'NT-proBNP of 400 pg/mL or more').rule as CriterionRule;
    const person = (note: string) => ({ dateOfBirth: '1950-03-01', sex: 'male' as const, facts: noteFacts(note, today) });
    expect(evaluateCriterion(ruleCriterion(rule), person('Admitted with decompensated heart failure; NT-proBNP 2,140 pg/mL.'), today).outcome).toBe('met');
    expect(evaluateCriterion(ruleCriterion(rule), person('Outpatient review. NT-pro BNP was 180 ng/L, BNP 60 pg/mL.'), today).outcome).toBe('not_met');
    expect(evaluateCriterion(ruleCriterion(rule), person('Outpatient review. BNP 600 pg/mL.'), today).outcome).toBe('unknown');
  });

  it('is read from a FHIR Observation named by its LOINC name, in blood only', () => {
    expect(analyteValueOf('Natriuretic peptide.B prohormone N-Terminal [Mass/volume] in Serum or Plasma', { value: 812, unit: 'pg/mL' })).toEqual({
      name: 'NT-proBNP',
      value: 812,
      unit: 'pg/mL',
    });
    expect(analyteValueOf('Natriuretic peptide.B prohormone N-Terminal [Mass/volume] in Urine', { value: 812, unit: 'pg/mL' })).toBeNull();
  });
});
