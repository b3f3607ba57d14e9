import { describe, expect, it } from 'vitest';
import type { ConditionQualifier, CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion, type MatchCriterion } from '../../../src/server/features/matching/evaluate';
import { extractNoteFacts } from '../../../src/server/features/matching/note-extractor';
import { matchFact } from '../../support/match-facts';

// Decision 231. Every note below is written for this file (not copied from the labelled set).
const today = new Date('2026-06-15T12:00:00Z');
const facts = (text: string) => extractNoteFacts(`29-year-old woman. ${text}`, { today });
const named = (text: string, disease: RegExp) => facts(text).find((fact) => fact.kind === 'condition' && disease.test(fact.name))?.name;

describe('a severity written on the disease’s own scale', () => {
  it.each([
    ['Hidradenitis suppurativa of the groin, Hurley stage I.', /hidradenitis/, 'hidradenitis suppurativa (mild)'],
    ['Known hidradenitis suppurativa. Examination: Hurley III disease in both axillae.', /hidradenitis/, 'hidradenitis suppurativa (severe)'],
    ['Ulcerative colitis, on mesalamine. Full Mayo score of 11 at colonoscopy.', /colitis/, 'ulcerative colitis (severe)'],
    ['Ulcerative colitis flaring; partial Mayo score 4.', /colitis/, 'ulcerative colitis (mild)'],
    ["Crohn's disease of the terminal ileum with a CDAI of 280.", /crohn/i, /moderate/],
    ['COPD, GOLD stage 2, uses a tiotropium inhaler.', /obstructive|COPD/i, /moderate/],
    ['Lifelong atopic dermatitis; EASI 26 today.', /dermatitis|eczema/, /severe/],
  ])('%s', (text, disease, expected) => {
    expect(named(text, disease)).toMatch(expected);
  });

  it('adds nothing from a subscore, a modified scale, a range, a remission score or two scores that disagree', () => {
    expect(named('Ulcerative colitis with a Mayo endoscopic subscore of 3.', /colitis/)).toBe('ulcerative colitis');
    expect(named('Ulcerative colitis; modified Mayo score 7.', /colitis/)).toBe('ulcerative colitis');
    expect(named('Hidradenitis suppurativa, Hurley stage II-III.', /hidradenitis/)).toBe('hidradenitis suppurativa');
    expect(named('Ulcerative colitis in remission, total Mayo score 1.', /colitis/)).toBe('ulcerative colitis');
    expect(named('Ulcerative colitis: Mayo score 4 last year, Mayo score 9 now.', /colitis/)).toBe('ulcerative colitis');
  });

  it('never grades another disease, and the note’s own severity word wins', () => {
    // A Hurley stage says nothing of the psoriasis next to it.
    expect(named('Psoriasis and hidradenitis suppurativa (Hurley II).', /psoriasis/i)).toBe('psoriasis');
    expect(named('Severe ulcerative colitis, total Mayo score 7.', /colitis/)).toBe('ulcerative colitis (severe)');
    // Gold is a metal before it is a grade: only "GOLD" in capitals grades COPD.
    expect(named('COPD; treated with gold 2 decades ago for arthritis.', /obstructive|COPD/i)).not.toMatch(/mild|moderate|severe/);
    // IgA is an antibody, not a grade.
    expect(named('Atopic dermatitis; serum IgA 3.1 g/L.', /dermatitis|eczema/)).not.toMatch(/mild|moderate|severe/);
  });
});

describe('the matcher answers a severity criterion from the scale', () => {
  const fact = matchFact('note');
  const ask = (note: string, rule: CriterionRule, kind: MatchCriterion['kind']) =>
    evaluateCriterion(
      { id: 'c1', kind, rule, ruleSource: 'text', needsReview: false, population: null },
      {
        dateOfBirth: null,
        sex: 'unknown',
        facts: facts(note).map(({ kind: k, name, conceptId, status, observedOn }) => fact({ kind: k, name, conceptId, status, observedOn })),
      },
      today,
    ).outcome;
  const hs = (present: boolean, qualifiers: ConditionQualifier[]): CriterionRule => ({
    type: 'condition',
    condition: 'hidradenitis suppurativa',
    present,
    concepts: [{ id: 'mesh:D017497', name: 'hidradenitis suppurativa' }],
    qualifiers,
  });

  it('meets "moderate to severe" with Hurley II and fails it with Hurley I (decision 359: mild is on the same scale)', () => {
    expect(ask('Hidradenitis suppurativa since her teens, Hurley stage II.', hs(true, ['moderate_or_severe']), 'inclusion')).toBe('met');
    expect(ask('Hidradenitis suppurativa since her teens, Hurley stage I.', hs(true, ['moderate_or_severe']), 'inclusion')).toBe('not_met');
    expect(ask('Hidradenitis suppurativa since her teens.', hs(true, ['moderate_or_severe']), 'inclusion')).toBe('unknown');
  });

  it('fails an exclusion of severe disease with Hurley III', () => {
    expect(ask('Hidradenitis suppurativa, Hurley III.', hs(false, ['severe']), 'exclusion')).toBe('not_met');
  });
});
