import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion, type MatchFact, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { extractNoteFacts } from '../../../src/server/features/matching/note-extractor';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { matchFact, ruleCriterion } from '../../support/match-facts';

// Decision 304: analytes the measures table does not hold, from a note's words to the matcher. Notes written for this file.
const today = new Date('2026-06-15T12:00:00Z');
const labsOf = (note: string) =>
  extractNoteFacts(note)
    .filter((fact) => fact.kind === 'lab')
    .map(({ name, value, unit }) => ({ name, value, unit }));
const fact = matchFact('note');
const lab = (name: string, value: number, unit: string | null): MatchFact => fact({ kind: 'lab', name, value, unit });
const person = (facts: MatchFact[]): MatchPerson => ({ dateOfBirth: '1960-01-01', sex: 'male', facts });
const outcomeOf = (rule: CriterionRule, who: MatchPerson) => evaluateCriterion(ruleCriterion(rule), who, today).outcome;

describe('a note states an analyte value', () => {
  it('reads the value with its unit, under the name the criteria reader gives the analyte', () => {
    expect(labsOf('Follow-up: PSA was 7.1 ng/mL last month, ferritin 9 ng/mL.')).toEqual([
      { name: 'prostate-specific antigen', value: 7.1, unit: 'ng/mL' },
      { name: 'ferritins', value: 9, unit: 'ng/mL' },
    ]);
    expect(labsOf('Labs: TSH of 12.3 mIU/L; total cholesterol 262 mg/dL.')).toEqual([
      { name: 'thyrotropin', value: 12.3, unit: 'mIU/L' },
      { name: 'cholesterol', value: 262, unit: 'mg/dL' },
    ]);
    // Sodium's bare value is in mmol/L in every laboratory.
    expect(labsOf('BMP notable for Na 126, otherwise normal.')).toEqual([{ name: 'sodium', value: 126, unit: 'mmol/L' }]);
  });

  it('reads no dose, target, other sample or bare number as a level', () => {
    expect(labsOf('Takes calcium carbonate 500 mg twice daily and vitamin D 1000 IU.')).toEqual([]);
    expect(labsOf('Goal LDL below 70; urine sodium 35 mmol/L; ferritin 40.')).toEqual([]);
    expect(labsOf('Seen in room Na 3 by the nurse.')).toEqual([]);
  });
});

describe('the matcher decides an analyte rule by a value of the same analyte', () => {
  const ferritin: CriterionRule = { type: 'lab', measure: 'ferritins', comparator: '>=', value: 30, unit: 'ng/mL' };

  it('meets or fails the bound in the same unit, or one of the same kind', () => {
    expect(outcomeOf(ferritin, person([lab('ferritins', 45, 'ng/mL')]))).toBe('met');
    expect(outcomeOf(ferritin, person([lab('ferritins', 12, 'ng/mL')]))).toBe('not_met');
    // µg/L is ng/mL.
    expect(outcomeOf(ferritin, person([lab('ferritins', 45, 'µg/L')]))).toBe('met');
    // A monovalent ion's mEq/L is its mmol/L.
    expect(outcomeOf({ type: 'lab', measure: 'sodium', comparator: '>=', value: 130, unit: 'mmol/L' }, person([lab('sodium', 126, 'mEq/L')]))).toBe('not_met');
  });

  it('stays unknown for another kind of unit, a value without a unit, or another analyte', () => {
    // Mass into amount needs the molar mass: never guessed.
    const cholesterol: CriterionRule = { type: 'lab', measure: 'cholesterol', comparator: '<=', value: 300, unit: 'mg/dL' };
    expect(outcomeOf(cholesterol, person([lab('cholesterol', 5.2, 'mmol/L')]))).toBe('unknown');
    expect(outcomeOf(ferritin, person([lab('ferritins', 45, null)]))).toBe('unknown');
    expect(outcomeOf(ferritin, person([lab('transferrin', 45, 'ng/mL')]))).toBe('unknown');
  });

  it('decides the rule the criteria reader read from the note the note reader read', () => {
    const rule = readTextRule('exclusion', 'Serum sodium below 132 mmol/L').rule!;
    const facts = extractNoteFacts('Chem panel today: sodium 128 mmol/L.').map((item) =>
      fact({ kind: item.kind, name: item.name, value: item.value ?? null, unit: item.unit ?? null }),
    );
    expect(outcomeOf(rule, person(facts))).toBe('not_met');
  });
});
