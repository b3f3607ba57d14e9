import { describe, expect, it } from 'vitest';
import { evaluateCriterion, type MatchFact, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { noteFacts, ruleCriterion } from '../../support/match-facts';

/**
 * Decision 376: an antibody to a virus that a test finds is the infection, ever: it stays after a cured or cleared
 * infection. In criteria and in notes alike. New wording, not a record's.
 */

const today = new Date('2026-06-15T12:00:00Z');
const person = (facts: MatchFact[]): MatchPerson => ({ dateOfBirth: '1970-01-01', sex: 'female', facts });
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});

describe('an antibody to a virus in a criterion', () => {
  it('is hepatitis C ever had, however the antibody is written', () => {
    for (const text of [
      'Reactive hepatitis C virus antibody',
      'Anti-HCV antibody positive at screening',
      'HCV Ab reactive',
      'Positive for antibodies to hepatitis C',
    ]) {
      const { rule, needsReview } = read('exclusion', text);
      expect(rule, text).toMatchObject({ type: 'condition', present: false, history: true, concepts: [{ id: 'cohortly:hepatitis-c' }] });
      expect(needsReview, text).toBe(false);
    }
  });

  it('is hepatitis B ever had only for its core antibody; the surface antibody a vaccine gives stays unread', () => {
    expect(read('exclusion', 'Hepatitis B virus core antibody positive').rule).toMatchObject({ history: true, concepts: [{ id: 'cohortly:hepatitis-b' }] });
    expect(read('exclusion', 'Reactive anti-HBc').rule).toMatchObject({ history: true, concepts: [{ id: 'cohortly:hepatitis-b' }] });
    expect(read('exclusion', 'Positive hepatitis B antibodies').needsReview).toBe(true);
  });

  it('is HIV itself, now, which does not clear', () => {
    const { rule, needsReview } = read('exclusion', 'HIV-1/2 antibodies reactive');
    expect(rule).toMatchObject({ type: 'condition', present: false, concepts: [{ id: 'cohortly:hiv' }] });
    expect(rule).not.toHaveProperty('history');
    expect(needsReview).toBe(false);
  });

  it('negative in an inclusion is never having had the infection', () => {
    const { rule, needsReview } = read('inclusion', 'Hepatitis C antibody negative');
    expect(rule).toMatchObject({ present: false, history: true, concepts: [{ id: 'cohortly:hepatitis-c' }] });
    expect(needsReview).toBe(false);
  });

  it('beside an infection read as now, leaves the one rule to a person: it cannot hold both times', () => {
    const { needsReview, reasons } = read('exclusion', 'HBsAg positive or anti-HCV positive');
    expect(needsReview).toBe(true);
    expect(reasons).toContain('everAndNow');
  });

  it('given as a treatment, or a medicine against the virus, is a medicine, never a test', () => {
    expect(read('exclusion', 'Prior HIV antibody therapy').rule).not.toMatchObject({ concepts: [{ id: 'cohortly:hiv' }] });
    expect(read('exclusion', 'Previous anti-HCV drugs').rule).not.toMatchObject({ concepts: [{ id: 'cohortly:hepatitis-c' }] });
  });
});

describe('an antibody to a virus in a note', () => {
  it('is the infection had, not had now', () => {
    const facts = noteFacts('Screening serology: hepatitis C antibody reactive. HCV RNA not detected.', today);
    expect(facts.find((fact) => fact.conceptId === 'cohortly:hepatitis-c')).toMatchObject({ status: 'history' });
  });

  it('meets an exclusion of ever having hepatitis C, and not one of hepatitis C now', () => {
    const facts = noteFacts('Anti-HCV positive; treated with sofosbuvir in 2019 with cure.', today);
    const ever = read('exclusion', 'Anti-HCV antibody positive').rule!;
    const now = read('exclusion', 'Active hepatitis C infection').rule!;
    expect(evaluateCriterion(ruleCriterion(ever, 'exclusion'), person(facts), today).outcome).toBe('not_met');
    expect(evaluateCriterion(ruleCriterion(now, 'exclusion'), person(facts), today).outcome).not.toBe('not_met');
  });

  it("keeps HIV's antibody as HIV now", () => {
    const facts = noteFacts('HIV antibodies reactive, on dolutegravir.', today);
    expect(facts.find((fact) => fact.conceptId === 'cohortly:hiv')).toMatchObject({ status: 'present' });
  });
});
