import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/**
 * Issue 30, decisions 235 and 236: readings that needed no review but refused the wrong people or fewer than the text
 * says (new wording, none a corpus record's). Each reads what the criterion says, or goes to a person.
 */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text);
/** Whether the reading would refuse someone with no person checking it: a rule of the person, read with no review. */
const refusesUnchecked = (reading: ReturnType<typeof read>) => reading.rule !== null && reading.rule.type !== 'site_judgement' && !reading.needsReview;

describe('a permission written among exclusions refuses no one (decision 235)', () => {
  it('never becomes a rule that refuses what it permits', () => {
    for (const text of [
      'Participants with treated hypertension are eligible',
      'People with well-managed gout are permitted',
      'Individuals with coeliac disease may be included',
      'Subjects with a history of migraine are allowed',
    ]) {
      const reading = read('exclusion', text);
      expect(reading.rule?.type ?? null, text).not.toBe('condition');
      expect(refusesUnchecked(reading), text).toBe(false);
    }
  });

  it('an age or a measure permitted is a site check, not an age or lab limit', () => {
    expect(read('exclusion', 'Volunteers older than 70 years are eligible').rule).toMatchObject({ type: 'site_judgement' });
    expect(read('exclusion', 'Patients with eczema are eligible provided it is mild').rule).toMatchObject({ type: 'site_judgement' });
  });

  it('a refusal, or a permission after an exclusion, stays an exclusion', () => {
    expect(read('exclusion', 'Patients with gout are not eligible').rule).toMatchObject({ type: 'condition', present: false });
    const mixed = read('exclusion', 'Psoriasis. Patients with nail psoriasis only are eligible.');
    expect(mixed.rule).toMatchObject({ type: 'condition', present: false });
  });
});

describe('"suspected" is a suspicion the condition rule does not hold (decision 235)', () => {
  it('goes to a person: the matcher keeps no suspected diagnosis as a fact, so the rule would refuse fewer', () => {
    for (const text of ['Confirmed or suspected sarcoidosis', 'Suspected tuberculosis', 'Known or suspected coeliac disease']) {
      const reading = read('exclusion', text);
      expect(reading.needsReview, text).toBe(true);
      expect(reading.unread, text).toContain('suspected');
    }
  });

  it('a plain diagnosis is unchanged', () => {
    expect(read('exclusion', 'Known sarcoidosis').needsReview).toBe(false);
  });
});

describe('"now or before" written with verbs, and "at any time", mean ever (decision 236)', () => {
  it('reads history', () => {
    for (const text of [
      'Subjects who currently have or have previously had psoriasis',
      'Participants who currently suffer from or formerly had gout',
      'A diagnosis of sarcoidosis at any time',
      'Psoriasis at any point in their life',
    ]) {
      expect(read('exclusion', text).rule, text).toMatchObject({ type: 'condition', present: false, history: true });
    }
  });

  it('"at any time during the study" is not the past', () => {
    expect(read('exclusion', 'Gout at any time during the trial').rule).not.toMatchObject({ history: true });
    expect(read('exclusion', 'Currently has gout').rule).not.toMatchObject({ history: true });
  });
});

describe('an operation heading alone in an exclusion is not asked of the person (decision 235)', () => {
  it('goes to a person when nothing says the person had it', () => {
    for (const text of ['Day-case surgery', 'Laparoscopic cholecystectomy', 'Patients requiring appendectomy']) {
      const reading = read('exclusion', text);
      expect(refusesUnchecked(reading), text).toBe(false);
    }
  });

  it('an operation the person had stays a rule', () => {
    const reading = read('exclusion', 'Previous cholecystectomy');
    expect(reading.rule).toMatchObject({ type: 'condition', present: false, history: true });
    expect(reading.needsReview).toBe(false);
  });
});

describe('two narrowings as alternatives are not one required qualifier (decision 235)', () => {
  it('goes to a person', () => {
    for (const text of ['Uncontrolled or active infection', 'Severe or refractory asthma', 'Active, progressive or uncontrolled infection']) {
      expect(refusesUnchecked(read('exclusion', text)), text).toBe(false);
    }
  });

  it('one narrowing, or a pair naming every form, is read as before', () => {
    expect(read('exclusion', 'Uncontrolled epilepsy')).toMatchObject({ rule: { qualifiers: ['uncontrolled'] }, needsReview: false });
    expect(read('exclusion', 'Treated or untreated glaucoma')).toMatchObject({ rule: { type: 'condition' }, needsReview: false });
  });
});

describe("a permission inside an exclusion is the exclusion's exception, not the criterion (decision 235)", () => {
  it('in parentheses or after "Note" it does not make the exclusion a permission', () => {
    for (const text of [
      'Serum creatinine > 2 mg/dL (values up to 2.5 are allowed in patients on dialysis)',
      'Use of herbal remedies for sleep during the study (occasional chamomile tea is acceptable)',
      'Took part in a device study in the last 8 weeks Note: those in long-term follow-up may participate',
    ]) {
      expect(read('exclusion', text).rule?.type, text).not.toBe('site_judgement');
    }
  });
});
