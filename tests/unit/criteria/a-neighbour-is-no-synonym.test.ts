import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion } from '../../../src/server/features/matching/evaluate';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { noteFacts, ruleCriterion } from '../../support/match-facts';

/**
 * Decision 347: conditions MeSH files apart from a hand entry, once its synonyms, are read as themselves; a person with
 * the neighbouring condition is not refused, nor taken, by them. Every phrasing is new wording.
 */
const today = new Date('2026-06-15T12:00:00Z');
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});
const judge = (kind: 'inclusion' | 'exclusion', criterion: string, note: string) =>
  evaluateCriterion(
    ruleCriterion(read(kind, criterion).rule as CriterionRule, kind),
    { dateOfBirth: '1958-11-20', sex: 'male', facts: noteFacts(note, today) },
    today,
  ).outcome;

describe('a neighbouring condition', () => {
  it('is not refused by a rule of the other', () => {
    expect(judge('exclusion', 'Diverticulitis in the past 6 months', 'Colonoscopy 2024: scattered sigmoid diverticulosis, no polyps.')).toBe('unknown');
    expect(judge('exclusion', 'Prior episode of acute cholecystitis', 'Incidental gallstones on ultrasound, never symptomatic.')).toBe('unknown');
    expect(judge('exclusion', 'Known Wolff-Parkinson-White syndrome', 'Paroxysmal SVT, ablated in 2020.')).toBe('unknown');
    expect(judge('exclusion', 'Active pleural empyema', 'Small left pleural effusion on chest film.')).toBe('unknown');
    expect(judge('exclusion', 'Paraplegia', 'Incomplete spinal cord injury at C6 in 2015, walks with a cane.')).toBe('unknown');
  });

  it('is not taken by an inclusion of the other', () => {
    expect(judge('inclusion', 'Postherpetic neuralgia for at least 3 months', 'Shingles rash on the chest two weeks ago, healing.')).toBe('unknown');
    expect(judge('inclusion', 'Heterozygous familial hypercholesterolemia', 'High cholesterol, on atorvastatin 40 mg.')).toBe('unknown');
  });

  it('still meets its own rule, and a rule of what it is by definition', () => {
    expect(judge('exclusion', 'Diverticulitis in the past 6 months', 'Admitted in March with sigmoid diverticulitis, treated with antibiotics.')).toBe(
      'not_met',
    );
    expect(judge('inclusion', 'Heterozygous familial hypercholesterolemia', 'HeFH diagnosed at 30, LDL 190 on rosuvastatin.')).toBe('met');
    expect(judge('inclusion', 'Primary hypercholesterolemia', 'HeFH diagnosed at 30, LDL 190 on rosuvastatin.')).toBe('met');
  });

  it('names itself, needing no review', () => {
    for (const [text, condition] of [
      ['Postherpetic neuralgia', 'postherpetic neuralgia'],
      ['Quadriplegia of any cause', 'quadriplegia'],
      ['Choledocholithiasis requiring ERCP', 'choledocholithiasis'],
      // Every person's name of a hyphenated eponym keeps its capital.
      ['Known WPW', 'Wolff-Parkinson-White syndrome'],
    ] as const)
      expect(read('exclusion', text).rule, text).toMatchObject({ type: 'condition', condition, present: false });
    expect(read('inclusion', 'Diagnosis of HeFH').needsReview).toBe(false);
  });
});
