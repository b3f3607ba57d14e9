import { describe, expect, it } from 'vitest';
import { evaluateCriterion, type MatchFact, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { noteFacts, ruleCriterion } from '../../support/match-facts';

/**
 * Decision 379: a chronic kidney disease's stage 3a to 5 is the eGFR KDIGO defines it by, in a criterion and in a note;
 * a note's stage beside another condition is no cancer's stage. New wording.
 */

const today = new Date('2026-06-15T12:00:00Z');
const person = (facts: MatchFact[]): MatchPerson => ({ dateOfBirth: '1955-01-01', sex: 'female', facts });
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});
const egfr = { type: 'lab', measure: 'eGFR', unit: 'mL/min/1.73m2' };

describe("a chronic kidney disease's stage", () => {
  it('is the eGFR below its stages, however the stages are written', () => {
    expect(read('exclusion', 'Known CKD stage 4-5')).toMatchObject({ rule: { ...egfr, comparator: '>=', value: 30 }, needsReview: false });
    expect(read('exclusion', 'Stage V chronic renal failure')).toMatchObject({ rule: { ...egfr, comparator: '>=', value: 15 }, needsReview: false });
    expect(read('exclusion', 'Chronic kidney disease at stage 3a or worse')).toMatchObject({ rule: { ...egfr, comparator: '>=', value: 60 } });
    expect(read('inclusion', 'Chronic kidney disease stage ≥ 3b')).toMatchObject({ rule: { ...egfr, comparator: '<', value: 45 }, needsReview: false });
  });

  it('is a range of the eGFR in an inclusion, and a person reads an excluded middle range', () => {
    expect(read('inclusion', 'CKD stages 3a through 4')).toMatchObject({ rule: { ...egfr, comparator: 'between', value: 15, upperValue: 59 } });
    expect(read('exclusion', 'CKD stage 3b')).toMatchObject({ needsReview: true });
  });

  it('leaves stages 1 and 2, which an eGFR cannot say, and a rate written beside it, to the other readers', () => {
    expect(read('inclusion', 'CKD stage 2 to 4')).not.toMatchObject({ rule: egfr });
    expect(read('exclusion', 'CKD stage 4 (creatinine clearance under 30 mL/min)')).not.toMatchObject({ rule: { measure: 'eGFR' } });
  });

  it("is decided by a note's eGFR", () => {
    const rule = read('exclusion', 'Chronic kidney disease stage 4 or higher').rule!;
    const outcome = (note: string) => evaluateCriterion(ruleCriterion(rule, 'exclusion'), person(noteFacts(note, today)), today).outcome;
    expect(outcome('CKD with eGFR 24 mL/min/1.73 m2 last week.')).toBe('not_met');
    expect(outcome('Kidney function normal, eGFR 78 mL/min/1.73 m2.')).toBe('met');
  });
});

describe("a note's chronic kidney disease stage", () => {
  it('is written into the fact, and decides an eGFR criterion the record has no value for', () => {
    const facts = noteFacts('Medical history: type 2 diabetes, CKD stage IV, gout.', today);
    expect(facts.find((fact) => fact.kind === 'condition' && /kidney/.test(fact.name))?.name).toContain('CKD stage 4');
    const outcome = (text: string) => evaluateCriterion(ruleCriterion(read('exclusion', text).rule!, 'exclusion'), person(facts), today).outcome;
    expect(outcome('eGFR below 30 mL/min/1.73 m2')).toBe('not_met');
    expect(outcome('eGFR under 10 mL/min/1.73 m2')).toBe('met');
    // Stage 4 is 15 to 29: a bound inside it is not decided by the stage.
    expect(outcome('eGFR under 20 mL/min/1.73 m2')).toBe('unknown');
  });

  it("is no cancer's stage for the condition after it", () => {
    const facts = noteFacts('History of CKD stage 4, prostate cancer treated in 2015.', today);
    expect(facts.find((fact) => /prostate/.test(fact.name))?.name).not.toMatch(/metastatic/);
  });
});
