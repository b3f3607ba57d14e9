import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/**
 * Decision 363: "clinically significant abnormal ECG" and its kin are the investigator's weighing of the screening tests,
 * as decision 110's "clinically significant laboratory abnormality" is: a site check, never a patient's question. New
 * wording throughout.
 */
const exclusion = (text: string) => readTextRule('exclusion', text);
const SITE = { rule: { type: 'site_judgement', reason: 'investigator_judgement' }, needsReview: false };

describe("a screening test's finding the investigator weighs", () => {
  it('is a site check whichever way the abnormality is placed', () => {
    expect(exclusion('Clinically relevant abnormal 12-lead ECG at screening')).toMatchObject(SITE);
    expect(exclusion('Any clinically significant abnormality in the haematology or biochemistry results')).toMatchObject(SITE);
    expect(exclusion('Clinically significant abnormal vital signs or physical examination findings')).toMatchObject(SITE);
  });

  it('is not read so when the criterion names more than the test', () => {
    expect(exclusion('Clinically significant abnormal ECG, or a history of heart block').rule?.type).not.toBe('site_judgement');
  });
});
