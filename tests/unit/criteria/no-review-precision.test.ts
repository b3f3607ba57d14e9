import { describe, expect, it } from 'vitest';
import { isA } from '../../../src/server/features/matching/concept-hierarchy';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/**
 * Issue 30, decision 180: a rule read with no review acts on people without a person checking it. Classes of wording
 * whose reading needed no review but said less, or something narrower, than the criterion (new wording, none a corpus
 * record's). Each either reads what the criterion says or goes to a person.
 */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text);
const namesOf = (reading: ReturnType<typeof read>) =>
  reading.rule && 'concepts' in reading.rule ? (reading.rule.concepts ?? []).map((concept) => concept.name) : [];

describe('two modifiers over one head noun are two conditions', () => {
  it('a word the vocabulary reads with the shared head is its own condition', () => {
    // The drug's addiction is read, not only alcohol's (alcoholism).
    const reading = read('exclusion', 'Ongoing drug or alcohol addiction');
    expect(reading.rule).toMatchObject({ type: 'condition', present: false });
    expect(namesOf(reading)).toContain('alcohol or drug misuse');
    expect(reading.needsReview).toBe(false);
    expect(read('exclusion', 'Opiate or alcohol misuse').needsReview).toBe(true);
  });

  it('two opposite courses before a head the vocabulary reads with the second are the whole head, in either order', () => {
    // The vocabulary reads "chronic pancreatitis" as its own heading; the pair names every course, so the rule is
    // pancreatitis itself, never the chronic kind alone (decision 346).
    for (const text of ['Prior acute or chronic pancreatitis', 'Prior chronic or acute pancreatitis'])
      expect(read('exclusion', text), text).toMatchObject({ rule: { type: 'condition', condition: 'pancreatitis' }, needsReview: false });
  });

  it('a modifier the vocabulary cannot read with the head sends the rule to a person, never the last item alone', () => {
    const reading = read('exclusion', 'Prior obstructive or chronic pancreatitis');
    expect(reading.needsReview).toBe(true);
    expect(reading.reasons).toContain('sharedHead');
  });

  it('organ words that each form a condition with the head stay read with no review', () => {
    const reading = read('exclusion', 'Significant hepatic or renal impairment');
    expect(namesOf(reading)).toEqual(expect.arrayContaining(['kidney disease', 'liver disease']));
  });
});

describe('a short or lay term is read as the heading the vocabulary gives it, not one narrower kind', () => {
  it('psychosis is a psychotic disorder, not schizophrenia', () => {
    for (const text of ['Known psychosis', 'Any psychotic disorder']) {
      const reading = read('exclusion', text);
      expect(reading.rule, text).toMatchObject({ type: 'condition', present: false });
      expect(JSON.stringify(reading.rule), text).not.toMatch(/schizophrenia/i);
      expect(reading.rule, text).toMatchObject({ condition: 'a psychotic disorder (psychosis)' });
    }
    // Schizophrenia itself is still schizophrenia.
    expect(read('exclusion', 'Diagnosed schizophrenia').rule).toMatchObject({ condition: 'schizophrenia' });
  });

  it('a person whose record says schizophrenia still meets a rule of psychosis, not the other way round', () => {
    const [psychosis, schizophrenia] = ['Known psychosis', 'Diagnosed schizophrenia'].map((text) => {
      const rule = read('exclusion', text).rule;
      return rule && 'concepts' in rule ? (rule.concepts?.[0]?.id ?? '') : '';
    });
    expect(isA(schizophrenia, psychosis)).toBe(true);
    expect(isA(psychosis, schizophrenia)).toBe(false);
  });
});

describe('a condition qualified by the treatment it requires keeps it or goes to a person', () => {
  it('"requiring", "needing", "treated with" after the condition narrow it: in review', () => {
    for (const text of [
      'Inflammatory bowel disease requiring biologic therapy',
      'Rheumatoid arthritis needing systemic immunosuppression',
      'Psoriasis treated with systemic agents in the last year',
      'Gout that requires daily medication',
    ]) {
      const reading = read('exclusion', text);
      expect(reading.needsReview, text).toBe(true);
    }
  });

  it('the condition alone, with no treatment named, is still read with no review', () => {
    expect(read('exclusion', 'Rheumatoid arthritis')).toMatchObject({ rule: { type: 'condition' }, needsReview: false });
  });
});

describe('a syndrome named by its anatomy is a diagnosis, not an imaging finding', () => {
  it('never a site check of the scans', () => {
    for (const text of ['Facet joint syndrome of the lumbar spine', 'Transverse process syndrome at L3']) {
      const reading = read('inclusion', text);
      expect(reading.rule?.type, text).not.toBe('site_judgement');
      expect(reading.needsReview, text).toBe(true);
    }
    // The anatomy on imaging with no syndrome named still is one.
    expect(read('exclusion', 'Transverse process anomaly seen on MRI').rule).toMatchObject({ type: 'site_judgement' });
  });
});
