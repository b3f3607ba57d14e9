import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion, type MatchFact } from '../../../src/server/features/matching/evaluate';
import { generateStudyBlocks } from '../../../src/server/features/prescreen-forms/generator';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { vocabulary } from '../../../src/server/features/trials/vocabulary';

/**
 * Decision 202: what a criterion excepts from its concepts ("lung disease other than asthma") is held on the rule as
 * `except`, the matcher counts no fact of an excepted concept, and the question names it. Every phrasing is new
 * wording, not a corpus record's.
 */
type Kind = 'inclusion' | 'exclusion';
const read = (kind: Kind, text: string) => readTextRule(kind, text, {});
const excepted = (kind: Kind, text: string) => {
  const rule = read(kind, text).rule;
  return rule && 'except' in rule ? (rule.except ?? []).map((concept) => concept.name) : [];
};
const idOf = (words: string) => vocabulary().find(words, { reach: 'full' })[0]?.concept.id ?? '';

describe('an exception held on the rule', () => {
  it('holds "other than", "apart from" and "except" after the concepts, with no review in an exclusion', () => {
    for (const [text, names] of [
      ['Known lung disease other than asthma', ['asthma']],
      ['Known neurological illness apart from migraine', ['migraine']],
      ['Diabetes mellitus except type 2 diabetes', ['type 2 diabetes']],
    ] as const) {
      const result = read('exclusion', text);
      expect(excepted('exclusion', text), text).toEqual(names);
      expect(result.rule?.type, text).toBe('condition');
      expect(result.needsReview, text).toBe(false);
    }
  });

  it('keeps the rule of the concepts, not of the exception', () => {
    const rule = read('exclusion', 'Known lung disease other than asthma').rule;
    expect(rule?.type === 'condition' && rule.concepts?.map((concept) => concept.name)).toEqual(['lung disease']);
    expect(rule?.type === 'condition' && rule.present).toBe(false);
  });

  it('holds an inclusion exception but leaves the rule in review', () => {
    const result = read('inclusion', 'A documented lung disease other than asthma');
    expect(excepted('inclusion', 'A documented lung disease other than asthma')).toEqual(['asthma']);
    expect(result.needsReview).toBe(true);
  });
});

describe('an exception that is not held (stays in review)', () => {
  it('never holds a condition on the person: "unless", "provided"', () => {
    const result = read('exclusion', 'Ongoing use of blood thinners, unless they can be paused for the operation');
    expect(excepted('exclusion', 'Ongoing use of blood thinners, unless they can be paused for the operation')).toEqual([]);
    expect(result.needsReview).toBe(true);
  });

  it('never holds an exception that says more than its concepts ("properly treated"), outside a cancer criterion', () => {
    const text = 'Any lung disease, except properly treated asthma';
    expect(excepted('exclusion', text)).toEqual([]);
    expect(read('exclusion', text).needsReview).toBe(true);
  });

  // Decision 305: a cancer criterion's exceptions are read by the another-cancer reader (other-cancers.ts), which holds
  // the excepted cancer without its treatment words, and a hand entry that gathers it whole: more than the words, the
  // safe side (a person is never refused for it), and what a note's same words are read as.
  it('holds a cancer exception whole: "properly treated" aside, never "non-X" as X, a gathering hand entry whole', () => {
    expect(excepted('exclusion', 'Any cancer, except properly treated carcinoma in situ of the cervix')).toContain('carcinoma in situ');
    const nonMelanoma = excepted('exclusion', 'Any cancer except non-melanoma skin cancer');
    expect(nonMelanoma).not.toContain('melanoma');
    expect(nonMelanoma).toEqual(['skin cancer']);
    expect(excepted('exclusion', 'Malignancy within 3 years except basal cell carcinoma')).toEqual(['skin cancer']);
  });

  it("never holds an exception that is not a kind of the rule's concepts", () => {
    const text = 'Heart disease other than high blood pressure';
    expect(excepted('exclusion', text)).toEqual([]);
    expect(read('exclusion', text).needsReview).toBe(true);
  });

  it('never holds an exception of words the vocabulary cannot read', () => {
    const text = 'Liver disease other than a raised enzyme on one occasion';
    expect(excepted('exclusion', text)).toEqual([]);
    expect(read('exclusion', text).needsReview).toBe(true);
  });
});

describe('the matcher and the question', () => {
  const today = new Date('2026-06-15T12:00:00Z');
  const lung = idOf('lung disease');
  const rule = {
    type: 'condition',
    condition: 'lung disease',
    present: false,
    concepts: [{ id: lung, name: 'lung disease' }],
    except: [{ id: idOf('asthma'), name: 'asthma' }],
  } as const satisfies CriterionRule;
  let next = 0;
  const fact = (name: string, conceptId: string, status: MatchFact['status'] = 'present'): MatchFact => ({
    id: `f${++next}`,
    kind: 'condition',
    name,
    conceptId,
    status,
    value: null,
    unit: null,
    valueText: null,
    observedOn: null,
    source: 'manual',
  });
  const outcome = (facts: MatchFact[]) =>
    evaluateCriterion(
      { id: 'c1', kind: 'exclusion', rule, ruleSource: 'text', needsReview: false, population: null },
      { dateOfBirth: null, sex: 'unknown', facts },
      today,
    ).outcome;

  it('does not exclude a person whose only lung disease is the excepted one, nor a kind of it', () => {
    expect(lung).not.toBe('');
    expect(outcome([fact('asthma', idOf('asthma'))])).not.toBe('not_met');
    expect(outcome([fact('allergic asthma', idOf('allergic asthma'))])).not.toBe('not_met');
  });

  it('still excludes another lung disease, and a denial of all lung disease still answers it', () => {
    expect(outcome([fact('COPD', idOf('COPD'))])).toBe('not_met');
    expect(outcome([fact('asthma', idOf('asthma')), fact('COPD', idOf('COPD'))])).toBe('not_met');
    expect(outcome([fact('lung disease', lung, 'absent')])).toBe('met');
  });

  it('leaves a fact broader than the exception to other facts, never excluding on it', () => {
    expect(outcome([fact('lung disease', lung)])).not.toBe('not_met');
  });

  it('asks the question with its exception', () => {
    const form = generateStudyBlocks({
      criteria: [{ id: 'c1', kind: 'exclusion', text: 'Any lung disease other than asthma', rule, needsReview: false }],
    } as never);
    const wording = JSON.stringify(form);
    expect(wording).toContain('lung disease other than asthma');
    expect(wording).toContain('aparte de');
  });
});
