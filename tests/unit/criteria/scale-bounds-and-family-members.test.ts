import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/**
 * Decision 258: wrong no-review readings found by a random hand-check of the sentences development part. A performance
 * bound written after its number ("2 or less", "60 or higher") is a bound, never one exact value, and a list of three
 * grades keeps its last; a sibling or narrower disorder filed under a hand concept's synonyms is a member, in review.
 * Every phrasing here is new wording, not a corpus sentence.
 */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});

describe('a performance status bound written after its number', () => {
  it('reads "or less/lower" as an upper bound and "or higher/above/more" as a lower bound', () => {
    expect(read('inclusion', 'Zubrod/ECOG grade 1 or lower at enrolment').rule).toMatchObject({ scale: 'ECOG', min: null, max: 1 });
    expect(read('inclusion', 'KPS rating of 80 or greater').rule).toMatchObject({ scale: 'Karnofsky', min: 80, max: null });
    expect(read('inclusion', 'Lansky play score 60 and above for children').rule).toMatchObject({ scale: 'Karnofsky', min: 60, max: null });
  });

  it('turns a trailing lower bound in an exclusion into the highest grade allowed', () => {
    expect(read('exclusion', 'ECOG status of 3 or more').rule).toMatchObject({ scale: 'ECOG', min: null, max: 2 });
  });

  it('keeps "or better" and "or worse" in review: their direction differs between the scales', () => {
    expect(read('inclusion', 'ECOG grade 2 or better').rule).toBeNull();
    expect(read('inclusion', 'Karnofsky index 70 or worse').needsReview).toBe(true);
  });

  it("never takes a later measure's bound as the scale's", () => {
    expect(read('inclusion', 'ECOG grade of 1 plus a predicted survival of at least 6 months').rule).not.toMatchObject({ min: 6 });
    expect(read('inclusion', 'ECOG grade of 1 plus a predicted survival of at least 6 months').needsReview).toBe(true);
    expect(read('inclusion', 'WHO performance status must be ≤ 1').rule).toMatchObject({ scale: 'ECOG', min: null, max: 1 });
  });

  it('reads a list of three grades to its last, and never takes a later count of something else', () => {
    expect(read('inclusion', 'WHO performance status 0, 1, or 2').rule).toMatchObject({ scale: 'ECOG', min: null, max: 2 });
    expect(read('inclusion', 'ECOG 0-1 and 3 or more earlier regimens').rule).toMatchObject({ scale: 'ECOG', min: null, max: 1 });
  });
});

describe('an anaesthetic risk class list and a threshold met by transfusion', () => {
  it('reads two ASA classes joined by "&" or "/" as both, and a list that skips one in review', () => {
    expect(read('inclusion', 'ASA 2 & 3 candidates for elective repair').rule).toMatchObject({ comparator: 'between', value: 2, upperValue: 3 });
    expect(read('inclusion', 'ASA physical status I/II').rule).toMatchObject({ comparator: 'between', value: 1, upperValue: 2 });
    expect(read('inclusion', 'ASA class II or IV').rule).toBeNull();
  });

  it('keeps a blood count that transfusion may reach in review', () => {
    expect(read('inclusion', 'Platelets ≥ 80 x 10^9/L (transfusions are acceptable)').reasons).toContain('transfusion');
    expect(read('inclusion', 'Haemoglobin at least 10 g/dL; may be transfused to reach it').needsReview).toBe(true);
    expect(read('inclusion', 'Haemoglobin at least 10 g/dL').needsReview).toBe(false);
  });
});

describe('a disorder of the same family is a member of the hand concept, never the concept itself', () => {
  it('sends a sibling of preeclampsia to review, and keeps preeclampsia itself plain', () => {
    for (const text of ['Prior eclampsia', 'Pregnancy-induced hypertension in this pregnancy', 'HELLP syndrome at any time'])
      expect(read('exclusion', text).needsReview, text).toBe(true);
    expect(read('exclusion', 'Pre-eclampsia').needsReview).toBe(false);
  });

  it('sends ruptured membranes, recurrent loss and one kind of incontinence to review', () => {
    for (const text of ['Premature rupture of membranes', 'Recurrent pregnancy loss', 'Stress incontinence', 'Overactive bladder'])
      expect(read('exclusion', text).needsReview, text).toBe(true);
    expect(read('exclusion', 'Miscarriage').needsReview).toBe(false);
  });

  it('sends one named eating disorder to review, never as any of them; a kind MeSH names is read as itself', () => {
    expect(read('inclusion', 'Current bulimia nervosa').needsReview).toBe(true);
    expect(read('exclusion', 'Any eating disorder').needsReview).toBe(false);
    // MeSH's own heading under the personality disorders (decision 346): the rule names it, not every personality disorder.
    expect(read('inclusion', 'Diagnosed borderline personality disorder')).toMatchObject({
      rule: { type: 'condition', condition: 'borderline personality disorder', present: true },
      needsReview: false,
    });
  });

  it('sends one medicine of a class written in the plural to review, as in the singular', () => {
    expect(read('exclusion', 'Ongoing treatment with rosuvastatins').needsReview).toBe(true);
    expect(read('exclusion', 'Ongoing treatment with anticoagulants').needsReview).toBe(false);
  });

  it('never reads antimicrobials, wider than antibiotics, as antibiotics', () => {
    const rule = read('inclusion', 'Treated with antimicrobials during the past week').rule;
    expect(rule && 'medication' in rule ? rule.medication : null).not.toBe('antibiotics');
  });
});
