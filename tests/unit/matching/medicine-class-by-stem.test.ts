import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { stemClassName } from '../../../src/server/features/trials/vocabulary/named-medicines';
import { noteFacts, ruleCriterion } from '../../support/match-facts';

/** Decision 317: a medicine MeSH lacks, named by its stem, is in the stem's class. Notes and criteria written for this file. */
const today = new Date('2026-06-15T12:00:00Z');
const person = (text: string): MatchPerson => ({
  dateOfBirth: null,
  sex: 'unknown',
  facts: noteFacts(text, today),
});
const criterion = (kind: 'inclusion' | 'exclusion', text: string) => ruleCriterion(readTextRule(kind, text, {}).rule as CriterionRule, kind);

describe('a medicine named by its stem', () => {
  it('is in its class for a rule of the class', () => {
    const parp = criterion('exclusion', 'Previous therapy with any PARP inhibitor');
    expect(evaluateCriterion(parp, person('Ovarian cancer, on niraparib maintenance since March.'), today).outcome).toBe('not_met');
    const statin = criterion('inclusion', 'Currently taking a statin');
    expect(evaluateCriterion(statin, person('Hyperlipidaemia treated with pitavastatin 2 mg daily.'), today).outcome).toBe('met');
    const sglt2 = criterion('inclusion', 'On an SGLT2 inhibitor');
    expect(evaluateCriterion(sglt2, person('Type 2 diabetes on ertugliflozin and metformin.'), today).outcome).toBe('met');
  });

  it('is in no class its stem does not name', () => {
    const statin = criterion('inclusion', 'Currently taking a statin');
    expect(evaluateCriterion(statin, person('Type 2 diabetes on ertugliflozin and metformin.'), today).outcome).not.toBe('met');
  });

  it('is in the class of the longest stem it ends in', () => {
    expect(stemClassName('cohortly:medicine-named:brexpiprazole')).toBe('Antipsychotic Agents');
    expect(stemClassName('cohortly:medicine-named:dexlansoprazole')).toBe('Proton Pump Inhibitors');
  });
});
