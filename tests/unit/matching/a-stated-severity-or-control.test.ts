import { describe, expect, it } from 'vitest';
import { evaluateCriterion } from '../../../src/server/features/matching/evaluate';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { noteFacts, ruleCriterion } from '../../support/match-facts';

/**
 * Decision 359: a note that states how severe or how well controlled a condition is answers a criterion that asks
 * another severity or control on the same scale; a note that states none leaves it unknown. New wording throughout.
 */
const today = new Date('2026-06-01');
const outcome = (kind: 'inclusion' | 'exclusion', criterion: string, note: string) => {
  const { rule } = readTextRule(kind, criterion);
  if (!rule) throw new Error(`no rule: ${criterion}`);
  return evaluateCriterion(ruleCriterion(rule, kind), { dateOfBirth: null, sex: 'unknown', facts: noteFacts(note, today) }, today).outcome;
};

describe('a control the note states', () => {
  it('clears an exclusion of the uncontrolled condition when the note says it is controlled', () => {
    expect(outcome('exclusion', 'Uncontrolled high blood pressure', 'PMH: hypertension, adequately controlled on amlodipine.')).toBe('met');
    expect(outcome('exclusion', 'Uncontrolled diabetes mellitus', 'Her type 2 diabetes is well controlled with diet.')).toBe('met');
  });

  it('excludes when the note says poorly controlled, and stays unknown when it says nothing of control', () => {
    expect(outcome('exclusion', 'Uncontrolled high blood pressure', 'Hypertension, not controlled despite two agents.')).toBe('not_met');
    expect(outcome('exclusion', 'Uncontrolled high blood pressure', 'Known hypertension on amlodipine.')).toBe('unknown');
    // "Controlled-release" names a medicine's form, not the condition's control.
    expect(outcome('exclusion', 'Uncontrolled Parkinson disease', "Parkinson's disease, controlled-release levodopa at night.")).toBe('unknown');
  });
});

describe('a severity the note states', () => {
  it('is no other severity on the same scale', () => {
    expect(outcome('inclusion', 'Severe asthma', 'Mild intermittent asthma since childhood.')).toBe('not_met');
    expect(outcome('exclusion', 'Severe asthma', 'Moderate persistent asthma on an inhaler.')).toBe('met');
    expect(outcome('inclusion', 'Mild to moderate psoriasis', 'Severe psoriasis covering both legs.')).toBe('not_met');
  });

  it('answers nothing when the note gives no severity', () => {
    expect(outcome('inclusion', 'Severe asthma', 'Asthma since childhood, on an inhaler.')).toBe('unknown');
  });
});
