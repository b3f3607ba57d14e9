import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { evaluateCriterion, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { extractNoteFacts } from '../../../src/server/features/matching/note-extractor';
import { matchFact, ruleCriterion } from '../../support/match-facts';

// Decision 307: a class of treatment as the criteria reader reads it, decided from a note's medicines by the vocabulary's
// classes (MeSH pharmacological actions). Every note and criterion here is written for this file.
const today = new Date('2026-06-15T12:00:00Z');
const fact = matchFact('note');
const person = (text: string): MatchPerson => ({
  dateOfBirth: null,
  sex: 'unknown',
  facts: extractNoteFacts(`61-year-old woman. ${text}`, { today }).map((read, index) => fact({ ...read, id: `n${index}` } as never)),
});
const outcome = (kind: 'inclusion' | 'exclusion', criterion: string, note: string) => {
  const rule = readTextRule(kind, criterion).rule;
  if (!rule) throw new Error(`no rule: ${criterion}`);
  return evaluateCriterion(ruleCriterion(rule, kind), person(note), today).outcome;
};

describe('a prior anti-TNF therapy', () => {
  it('is met by a TNF inhibitor the note names, now or before', () => {
    expect(outcome('inclusion', 'Prior anti-TNF therapy', 'Crohn disease, on adalimumab since 2019.')).toBe('met');
    expect(outcome('inclusion', 'Prior anti-TNF therapy', 'Ulcerative colitis treated with infliximab infusions.')).toBe('met');
    expect(outcome('exclusion', 'Previous anti-TNF therapy', 'Takes anti-TNF therapy for ankylosing spondylitis.')).toBe('not_met');
  });

  it('is not decided by a medicine of another class', () => {
    expect(outcome('inclusion', 'Prior anti-TNF therapy', 'Ulcerative colitis, on mesalamine.')).toBe('unknown');
    expect(outcome('exclusion', 'Previous anti-TNF therapy', 'Rheumatoid arthritis on methotrexate.')).not.toBe('not_met');
  });
});

describe('the CYP3A inducers and inhibitors', () => {
  it('excludes a person on an inducer from "strong CYP3A inducers", and never one on an inhibitor', () => {
    expect(outcome('exclusion', 'Strong CYP3A inducers within 14 days', 'Latent tuberculosis, started rifampin last week.')).toBe('not_met');
    expect(outcome('exclusion', 'Strong CYP3A inducers within 14 days', 'Vaginal thrush, on ketoconazole.')).not.toBe('not_met');
  });
});

describe('the other classes written as "anti-"', () => {
  it('decides them from the class members a note names', () => {
    expect(outcome('exclusion', 'Anti-platelet therapy within 7 days', 'Takes clopidogrel 75 mg daily.')).toBe('not_met');
    expect(outcome('exclusion', 'Anti-platelet therapy within 7 days', 'Takes atorvastatin 40 mg at night.')).toBe('unknown');
    expect(outcome('exclusion', 'Currently taking anti-diabetic drugs', 'Type 2 diabetes managed on metformin.')).toBe('not_met');
  });

  it('decides a medicine for weight management from a weight-loss medicine', () => {
    expect(outcome('exclusion', 'Any medication for weight management within 90 days', 'Started phentermine last month.')).toBe('not_met');
    expect(outcome('exclusion', 'Any medication for weight management within 90 days', 'On lisinopril for blood pressure.')).toBe('unknown');
  });
});
