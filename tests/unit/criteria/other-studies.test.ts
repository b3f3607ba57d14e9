import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/** Taking part in another study, however the study is called (trials/criteria/other-studies.ts, decision 245). New wording throughout. */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text);
const ANOTHER_STUDY = { type: 'medication', medication: 'a medicine being tested in another study' };

describe('another study named by its kind', () => {
  it('is the vocabulary concept of another study, with no review', () => {
    for (const text of [
      'Simultaneous enrolment in a different therapeutic study',
      'Participating currently in another randomised drug trial',
      'Subjects receiving any other investigational medications',
      'Patients registered on other experimental treatment protocols',
    ])
      expect(read('exclusion', text), text).toMatchObject({ rule: { ...ANOTHER_STUDY, taking: false }, needsReview: false });
  });

  it('keeps the window the criterion gives', () => {
    expect(read('exclusion', 'Participation in another therapeutic trial within 30 days before randomisation')).toMatchObject({
      rule: { ...ANOTHER_STUDY, taking: false, within: { value: 30, unit: 'days' } },
      needsReview: false,
    });
  });

  it('leaves a study that tests no medicine, a negation or a second requirement to a person', () => {
    // An exercise or counselling trial is more than "a medicine being tested".
    expect(read('exclusion', 'Enrolment in another group exercise trial').needsReview).toBe(true);
    // "Must not be enrolled": the negation turns what is required.
    expect(read('exclusion', 'Must not be enrolled in any other treatment study')).toMatchObject({ needsReview: true });
    // A second sentence that allows some studies.
    expect(read('exclusion', 'Participation in another drug trial. Registries are allowed.').rule).toBeNull();
  });

  it('is not this study, nor a study named without "another"', () => {
    expect(read('exclusion', 'Previously randomised in this trial').rule?.type).not.toBe('medication');
  });
});
