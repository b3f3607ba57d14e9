import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion, type MatchFact, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { generateStudyBlocks } from '../../../src/server/features/prescreen-forms/generator';
import { parseCriteria, readTextRule, readWithAlternatives } from '../../../src/server/features/trials/criteria';
import { headVariants, vocabulary } from '../../../src/server/features/trials/vocabulary';

/**
 * Concept lists (decision 083): the organ adjectives of long lists as class concepts, "unstable angina" as its own
 * concept, the items of an inclusion's "at least one of the following" list read as one rule of alternatives, and
 * an optional "with or without" phrase. None of these phrasings is a corpus record's.
 */
const today = new Date('2026-11-24T12:00:00Z');
const fact = (kind: MatchFact['kind'], name: string, conceptId: string | null): MatchFact => ({
  id: `f-${name}`,
  kind,
  conceptId,
  name,
  status: 'present',
  value: null,
  unit: null,
  valueText: null,
  observedOn: null,
  source: 'fhir',
});
const who = (...facts: MatchFact[]): MatchPerson => ({ dateOfBirth: null, sex: 'female', facts });
const outcome = (rule: CriterionRule, kind: 'inclusion' | 'exclusion', person: MatchPerson) =>
  evaluateCriterion({ id: 'c1', kind, rule, ruleSource: 'text', needsReview: false, population: null }, person, today).outcome;

const read = (kind: 'inclusion' | 'exclusion', text: string) => {
  const { rule, needsReview } = readTextRule(kind, text);
  const concepts = rule?.type === 'condition' || rule?.type === 'medication' ? (rule.concepts ?? []).map((concept) => concept.name) : [];
  return { rule, concepts, needsReview };
};

describe('organ adjectives in long lists', () => {
  it('each adjective sharing the head noun is its organ class, whichever head noun the list uses', () => {
    for (const text of [
      'Significant renal, hepatic, cardiac or pulmonary disease',
      'History of hepatic, renal, cardiac or pulmonary disorders',
      'Chronic renal, hepatic, cardiac, or pulmonary conditions',
    ]) {
      const { concepts, rule } = read('exclusion', text);
      expect(new Set(concepts), text).toEqual(new Set(['kidney disease', 'liver disease', 'heart disease', 'lung disease']));
      expect(rule?.type === 'condition' && rule.present, text).toBe(false);
    }
  });

  it('reads the classes a list names and no disease of a class', () => {
    const { concepts, needsReview } = read('exclusion', 'Known endocrine, hematologic, biliary or musculoskeletal disorder');
    expect(concepts).toEqual(['a hormone (endocrine) disease', 'a blood disease', 'a bile duct or gallbladder disease', 'a muscle, bone or joint disease']);
    expect(needsReview).toBe(false);
    expect(read('exclusion', 'Respiratory disorder requiring oxygen').concepts).toEqual(['a breathing or lung disease']);
    expect(read('exclusion', 'Immunological disease').concepts).toEqual(['an immune system disease']);
    expect(read('exclusion', 'Cerebrovascular disease').concepts).toEqual(["a disease of the brain's blood vessels"]);
  });

  it('a list item the vocabulary does not know still keeps the rule in review', () => {
    // "Otological" is known since the whole MeSH reach ("ear diseases"); a word no vocabulary has stays unread.
    const { concepts, needsReview } = read('exclusion', 'Renal, hepatic or frobnical disease');
    expect(concepts).toEqual(['kidney disease', 'liver disease']);
    expect(needsReview).toBe(true);
  });

  it('a named disease of a class is still that disease, not its class', () => {
    expect(read('exclusion', 'Chronic obstructive pulmonary disease').concepts).toEqual(['COPD (chronic lung disease)']);
    expect(read('exclusion', 'Interstitial lung disease').concepts).toEqual(['scarring of the lungs (interstitial lung disease)']);
    expect(read('exclusion', 'Inflammatory bowel disease').concepts).not.toContain('a stomach or bowel disease');
  });

  it('derives the other head nouns only for short disease phrases', () => {
    expect(headVariants('renal disease')).toEqual(['renal disorder', 'renal condition']);
    expect(headVariants('bleeding disorder')).toEqual(['bleeding disease']);
    expect(headVariants('diabetes')).toEqual([]);
    expect(headVariants('a b c d disease')).toEqual([]);
    const words = vocabulary().find('pulmonary conditions');
    expect(words.map((mention) => mention.concept.en)).toEqual(['lung disease']);
  });
});

describe('unstable angina', () => {
  it('is its own concept, so a list of whole names needs no qualifier', () => {
    const { concepts, needsReview } = read('exclusion', 'History of stroke, MI or unstable angina');
    expect(concepts).toEqual(['a stroke', 'a heart attack', 'unstable angina (new or worsening chest pain from the heart)']);
    expect(needsReview).toBe(false);
  });

  it('angina alone is still angina', () => {
    expect(read('exclusion', 'Angina pectoris').concepts).toEqual(['chest pain from the heart (angina)']);
  });

  it('a record of angina does not refuse a person the unstable-angina rule excludes; one of unstable angina does', () => {
    const { rule } = read('exclusion', 'Unstable angina');
    expect(outcome(rule!, 'exclusion', who(fact('condition', 'angina', 'cohortly:angina')))).toBe('unknown');
    expect(outcome(rule!, 'exclusion', who(fact('condition', 'unstable angina', 'cohortly:unstable-angina')))).toBe('not_met');
  });
});

describe('"at least one of the following" lists', () => {
  const parse = (text: string) => parseCriteria(text).filter((criterion) => criterion.kind === 'inclusion');

  it('the items are one rule of alternatives that each item carries, needing no review', () => {
    const criteria = parse('Inclusion Criteria:\n\n* At least one of the following conditions:\n  * type 2 diabetes\n  * hypertension\n  * gout\n');
    expect(criteria).toHaveLength(3);
    for (const criterion of criteria) {
      expect(criterion.rule).toMatchObject({ type: 'condition', condition: 'type 2 diabetes, high blood pressure or gout', present: true });
      expect(criterion.needsReview).toBe(false);
    }
    // Each rule's span is its own item's words.
    const last = criteria[2];
    expect(last.text.slice(last.rule!.span!.start, last.rule!.span!.end)).toBe('gout');
  });

  it('medicines too, and having one of them meets every item', () => {
    const criteria = parse('Inclusion Criteria:\n\n* Currently taking one of the following:\n  * metformin\n  * insulin\n');
    expect(criteria.map((criterion) => criterion.needsReview)).toEqual([false, false]);
    const insulin = who(fact('medication', 'insulin', 'cohortly:insulin'));
    for (const criterion of criteria) expect(outcome(criterion.rule!, 'inclusion', insulin)).toBe('met');
    expect(outcome(criteria[0].rule!, 'inclusion', who(fact('medication', 'aspirin', 'cohortly:aspirin')))).toBe('unknown');
  });

  it('stays item by item, in review, when one item is another kind of rule, qualified, or the list needs two', () => {
    const mixed = parse('Inclusion Criteria:\n\n* At least one of the following:\n  * asthma\n  * HbA1c > 7%\n');
    expect(mixed.map((criterion) => criterion.needsReview)).toEqual([true, true]);
    expect(mixed[0].rule).toMatchObject({ condition: 'asthma' });
    const qualified = parse('Inclusion Criteria:\n\n* At least one of the following:\n  * severe asthma\n  * gout\n');
    expect(qualified.map((criterion) => criterion.needsReview)).toEqual([true, true]);
    const two = parse('Inclusion Criteria:\n\n* At least two of the following:\n  * asthma\n  * gout\n  * eczema\n');
    expect(two.map((criterion) => criterion.needsReview)).toEqual([true, true, true]);
    expect(two[0].rule).toMatchObject({ condition: 'asthma' });
  });

  it('keeps a time scope the lead-in says, and refuses to merge items of different scopes', () => {
    const windowed = parse('Inclusion Criteria:\n\n* At least one of the following in the past 6 months:\n  * myocardial infarction\n  * stroke\n');
    // "in the past 6 months" is read by each item; both have the same window, so they are one rule.
    for (const criterion of windowed) expect(criterion.rule).toMatchObject({ condition: 'a heart attack or a stroke', within: { value: 6, unit: 'months' } });
    const different = parse('Inclusion Criteria:\n\n* At least one of the following:\n  * history of gout\n  * asthma\n');
    expect(different.map((criterion) => criterion.needsReview)).toEqual([true, true]);
  });

  it('a re-parse of the stored criteria reads the same rules as the import (nothing reported as changed)', () => {
    const imported = parseCriteria('Inclusion Criteria:\n\n* Age 18 or older\n* At least one of the following conditions:\n  * type 2 diabetes\n  * gout\n');
    const again = readWithAlternatives(imported);
    expect(again.map((read) => read.rule)).toEqual(imported.map((criterion) => criterion.rule));
    expect(again.map((read) => read.needsReview)).toEqual(imported.map((criterion) => criterion.needsReview));
  });

  it('an exclusion list is unchanged: each item excludes on its own', () => {
    const criteria = parseCriteria('Exclusion Criteria:\n\n* Any of the following:\n  * gout\n  * asthma\n');
    expect(criteria.map((criterion) => (criterion.rule?.type === 'condition' ? criterion.rule.condition : null))).toEqual(['gout', 'asthma']);
  });

  it('asks one plain question for the list, in English and Spanish', () => {
    const criteria = parse('Inclusion Criteria:\n\n* At least one of the following conditions:\n  * type 2 diabetes\n  * gout\n');
    const { blocks } = generateStudyBlocks({
      criteria: criteria.map((criterion, index) => ({
        id: `c${index}`,
        position: index,
        kind: criterion.kind,
        text: criterion.text,
        rule: criterion.rule,
        needsReview: criterion.needsReview,
      })),
    });
    const asked = blocks.flatMap((block) => block.questions).filter((question) => question.criterionLinks.length);
    expect(asked).toHaveLength(1);
    expect(asked[0].wording.chat.en).toBe('Have you been told by a doctor that you have type 2 diabetes or gout?');
    expect(asked[0].wording.chat.es).toMatch(/diabetes tipo 2 o gota\?$/);
  });
});

describe('"with or without"', () => {
  it('an optional phrase that ends the clause narrows nothing', () => {
    expect(read('exclusion', 'History of gout with or without tophi')).toMatchObject({ concepts: ['gout'], needsReview: false });
  });

  it('an optional phrase followed by more words leaves those words to a person', () => {
    expect(read('exclusion', 'History of gout with or without tophi confirmed by joint aspiration').needsReview).toBe(true);
  });
});

describe('complications of the operation, "systemic", being prone, consent written loosely, long adjective lists', () => {
  it('complications during or after the study operation are not conditions the person has', () => {
    // A site check since decision 110: what the operation finds is staff's to check then.
    expect(read('exclusion', 'Complications found during the operation (e.g., infection, bleeding) that prevent implanting the device').rule?.type).toBe(
      'site_judgement',
    );
    expect(read('exclusion', 'A postoperative complication such as wound infection within 48 hours').rule).toBeNull();
    // A complication of the person's own disease still is theirs.
    expect(read('exclusion', 'Complications of diabetes such as neuropathy').concepts).toContain('nerve damage (neuropathy)');
  });

  it('"systemic" before a disease narrows it; before a treatment it says no more than the treatment', () => {
    expect(read('exclusion', 'Systemic kidney or liver disease').needsReview).toBe(true);
    expect(read('exclusion', 'Any infection requiring systemic therapy').needsReview).toBe(false);
    expect(read('exclusion', 'Use of systemic corticosteroids within 2 weeks').needsReview).toBe(false);
  });

  it('being prone to infections is not having one', () => {
    expect(read('exclusion', 'Susceptibility to infections').rule).toBeNull();
    expect(read('exclusion', 'Gout or a tendency to infections').concepts).toEqual(['gout']);
  });

  it('consent written with a typo or "her/his" is consent, not compliance', () => {
    expect(read('inclusion', 'The participant gives her/his written in-formed consent').rule).toEqual(
      expect.objectContaining({ type: 'site_judgement', reason: 'consent_capacity' }),
    );
    expect(read('inclusion', 'Adequately informed about the trial and willing to take part').rule).toEqual(
      expect.objectContaining({ type: 'site_judgement', reason: 'consent_capacity' }),
    );
  });

  it('a list of a dozen organ adjectives keeps its first ones', () => {
    const { concepts } = read(
      'exclusion',
      'History of cardiac, pulmonary, hepatic, renal, hematologic, gastrointestinal, endocrine, immunologic, dermatologic, neurologic, or psychiatric disorders',
    );
    expect(concepts[0]).toBe('heart disease');
  });
});

describe("ancestry beside an age, a cause further back, the surgeon's judgement", () => {
  it('a nationality or ancestry beside an age is a requirement the age rule does not hold', () => {
    expect(readTextRule('inclusion', 'Korean adults aged 20 years or older')).toMatchObject({ rule: { type: 'age', minYears: 20 }, needsReview: true });
    expect(readTextRule('inclusion', 'Adults aged 20 years or older').needsReview).toBe(false);
  });

  it('in an exclusion, a cause further back is not what excludes', () => {
    expect(read('exclusion', 'Patients unable to walk because of a recent episode of severe gout').rule).toBeNull();
  });

  it('"not a surgical candidate" is the surgeon\'s judgement, not "must not have surgery"', () => {
    expect(read('exclusion', 'Not a candidate for knee surgery').rule).toEqual(
      expect.objectContaining({ type: 'site_judgement', reason: 'investigator_judgement' }),
    );
  });
});

describe('a list whose last item is a concept of several words sharing the head', () => {
  const names = (text: string) =>
    (readTextRule('exclusion', text).rule as { concepts?: Array<{ name: string }> } | null)?.concepts?.map((concept) => concept.name);

  it('reads the single word before it with the head it shares', () => {
    // "Cardiac or peripheral vascular disease": heart disease, and peripheral vascular disease.
    expect(names('Known cardiac or peripheral vascular disease')).toEqual(['heart disease', 'peripheral artery disease']);
    expect(readTextRule('exclusion', 'Pulmonary or central nervous system disease').needsReview).toBe(false);
    expect(names('Kidney or bone marrow transplant recipients')).toContain('a kidney transplant');
  });

  it('never reads a course or a degree as an item', () => {
    // "Acute or chronic": how long, not which; no "acute disease" or "active infection".
    expect(names('Active or chronic hepatitis C infection')).toEqual(['hepatitis C']);
    expect(names('Upper or lower urinary tract infection')).not.toContain('an infection that needs treatment');
  });
});
