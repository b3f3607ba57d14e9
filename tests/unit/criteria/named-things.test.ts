import { describe, expect, it } from 'vitest';
import { readTextRule, trialConceptsOf } from '../../../src/server/features/trials/criteria';

/**
 * Decision 191: a vaccine named for its antigen is that vaccine, a duration beside a diagnosis stays with it, and a
 * qualifier or a "with" that the rule cannot hold keeps the rule in review. Every phrasing here is new wording, not a
 * corpus record's.
 */
const read = (kind: 'inclusion' | 'exclusion', text: string, trial: string[] = []) => readTextRule(kind, text, { trialConcepts: trialConceptsOf(trial) });
const conceptIds = (kind: 'inclusion' | 'exclusion', text: string) => {
  const rule = read(kind, text).rule;
  return rule && 'concepts' in rule ? (rule.concepts ?? []).map((concept) => concept.id) : [];
};

describe('a vaccine named for its antigen or kind is never any vaccine', () => {
  it('gives no rule when the vocabulary has no concept for the named vaccine', () => {
    for (const text of [
      'Received a seasonal influenza vaccination in the past 3 months',
      'Prior immunization against herpes zoster',
      'Has been vaccinated with the investigational antigen (hMPV) before',
      'Earlier vaccination for yellow fever',
      'A flu shot during the last 2 weeks',
    ]) {
      const reading = read('exclusion', text);
      expect(conceptIds('exclusion', text), text).not.toContain('cohortly:vaccine');
      expect(reading.needsReview, text).toBe(true);
    }
  });

  it('never reads the antigen as an infection the person has had', () => {
    const reading = read('exclusion', 'Previous RSV immunization');
    expect(reading.rule).toBeNull();
    expect(reading.needsReview).toBe(true);
  });

  it('keeps a vaccine the vocabulary names, and the general vaccine where none is named', () => {
    expect(conceptIds('exclusion', 'Had a COVID-19 vaccine in the last 14 days')).toEqual(['cohortly:covid-vaccine']);
    // A live vaccine is one kind the vocabulary names (decision 240).
    expect(read('exclusion', 'Any live attenuated vaccine within 4 weeks of dosing')).toMatchObject({
      rule: { type: 'medication', concepts: [{ id: 'cohortly:live-vaccine' }], taking: false },
      needsReview: false,
    });
    expect(conceptIds('exclusion', 'Received any vaccine within 14 days before the first dose')).toEqual(['cohortly:vaccine']);
    expect(read('exclusion', 'Received any vaccine within 14 days before the first dose').needsReview).toBe(false);
    expect(conceptIds('exclusion', 'Vaccination of any kind within 2 weeks before day 1')).toContain('cohortly:vaccine');
  });

  it('reads what happened after a vaccine, or an allergy to vaccines, as before', () => {
    expect(conceptIds('exclusion', 'Past Guillain-Barre syndrome following vaccination')).toEqual(['cohortly:guillain-barre']);
    expect(conceptIds('exclusion', 'Known allergy to vaccines')).toEqual(['cohortly:allergy-to:cohortly:vaccine']);
  });

  it('drops only the general vaccine beside a named one', () => {
    const reading = read('exclusion', 'Earlier immunization with the trial antigen, or any experimental RSV vaccine');
    expect(reading.rule && 'concepts' in reading.rule ? reading.rule.concepts?.map((concept) => concept.id) : []).toEqual(['cohortly:rsv-vaccine']);
    expect(reading.needsReview).toBe(true);
  });
});

describe('a duration beside a diagnosis is kept with it', () => {
  const duration = (text: string, trial: string[] = []) => {
    const rule = read('inclusion', text, trial).rule;
    return rule?.type === 'condition' ? rule.duration : undefined;
  };

  it('after "whose symptoms began", "diagnosed by imaging", and "over ... before"', () => {
    expect(duration('Sciatica diagnosed by MRI whose symptoms began at least 8 weeks ago')).toMatchObject({ minDays: 56 });
    expect(duration('Neck pain whose symptoms started more than 2 months ago')).toMatchObject({ minDays: 61 });
    expect(duration('Gout diagnosed over 3 years before the baseline visit')).toMatchObject({ minDays: 1096 });
    const gout = read('inclusion', 'Gout diagnosed over 3 years before the baseline visit').rule;
    expect(gout?.type === 'condition' ? gout.within : 'not a condition').toBeUndefined();
  });

  it("of the trial's condition, when the criterion names only the person and the symptoms", () => {
    expect(duration('Participants whose symptoms began at least 6 weeks ago', ['Sciatica'])).toMatchObject({ minDays: 42 });
  });

  it('still reads "over the last" as a window', () => {
    const rule = read('exclusion', 'Gout flare over the last 6 months').rule;
    expect(rule?.type === 'condition' ? rule.duration : 'not a condition').toBeUndefined();
  });
});

describe('what one rule of alternatives cannot hold stays in review', () => {
  it('a side or course written beside one of two conditions', () => {
    for (const text of ['One-sided sciatica or neck pain', 'Chronic migraine or cluster headache']) {
      expect(read('inclusion', text).needsReview, text).toBe(true);
      const rule = read('inclusion', text).rule;
      expect(rule?.type === 'condition' ? (rule.qualifiers ?? []) : [], text).toEqual([]);
    }
    // A side beside the second of two conditions both required is held (decision 293), and the rule stays in review.
    const both = read('inclusion', 'Herniated disc with bilateral radiculopathy');
    expect(both.needsReview).toBe(true);
    expect(both.rule?.type === 'condition' ? both.rule.qualifiers : []).toEqual(['both_sides']);
  });

  it('one condition with another is both together, not either', () => {
    for (const kind of ['inclusion', 'exclusion'] as const) {
      expect(read(kind, 'Rheumatoid arthritis with interstitial lung disease').needsReview, kind).toBe(true);
      expect(read(kind, 'Asthma with nasal polyps').needsReview, kind).toBe(true);
    }
    // "With or without" is an option, not a second requirement.
    expect(read('inclusion', 'Neck pain with or without headache').needsReview).toBe(false);
  });

  it('a qualifier before a shared head noun still qualifies the list', () => {
    const rule = read('exclusion', 'Severe heart or kidney disease').rule;
    expect(rule?.type === 'condition' ? rule.qualifiers : []).toEqual(['severe']);
  });
});
