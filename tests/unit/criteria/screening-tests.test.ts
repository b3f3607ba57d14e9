import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/**
 * Decision 267: a criterion that is only the study's screening test (a scan, an ECG, an examination) and the window it
 * must fall in is a site check: staff order the test or look up its date, the person is asked nothing, and no one is
 * refused by it. A test named with what it must show, a value or a condition stays with the readers that read those.
 * Every phrasing here is new wording, not a corpus sentence.
 */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});
const siteCheck = { type: 'site_judgement', reason: 'protocol' };

describe("the study's screening tests and their window", () => {
  it('reads one test and its window as a site check staff answer', () => {
    expect(read('inclusion', 'Brain MRI done within 21 days before randomisation').rule).toMatchObject(siteCheck);
    expect(read('inclusion', 'A baseline 12-lead ECG within the previous 10 days').needsReview).toBe(false);
    expect(read('inclusion', 'Participants must have had a complete physical exam within 3 weeks prior to enrolment').rule).toMatchObject(siteCheck);
  });

  it('reads several tests, what they cover and a short name in parentheses', () => {
    expect(read('inclusion', 'Computed tomography (CT) of the thorax and abdomen plus bone scan obtained within 6 weeks before day 1').rule).toMatchObject(
      siteCheck,
    );
    expect(read('inclusion', 'Echocardiogram or MUGA scan, including contrast, within 30 days of study entry').rule).toMatchObject(siteCheck);
  });

  it('refuses no one when it is written among exclusions', () => {
    const rule = read('exclusion', 'Plain chest radiograph in the past 4 months').rule;
    expect(rule).toMatchObject(siteCheck);
  });

  it('leaves a test that must show something, or a value, to the other readers', () => {
    expect(read('inclusion', 'CT within 4 weeks showing no distant metastases').rule).not.toMatchObject(siteCheck);
    expect(read('inclusion', 'ECG within 7 days with QTc below 470 ms').rule).not.toMatchObject(siteCheck);
    expect(read('inclusion', 'Echocardiogram within 28 days, normal result required').rule).not.toMatchObject(siteCheck);
  });

  it('leaves a test with anything else said, or a condition named, to a person', () => {
    expect(read('inclusion', 'MRI within 3 months to plan the radiotherapy field').rule).not.toMatchObject(siteCheck);
    expect(read('exclusion', 'Chest X-ray within 6 months for suspected tuberculosis').rule).not.toMatchObject(siteCheck);
  });
});
