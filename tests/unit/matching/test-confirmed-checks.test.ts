import { describe, expect, it } from 'vitest';
import type { MatchCriterion, MatchFact, MatchPerson } from '../../../src/server/features/matching/evaluate';
import { extractNoteFacts } from '../../../src/server/features/matching/note-extractor';
import { matchTrial } from '../../../src/server/features/matching/target-condition';

// Decision 250. Every note and criterion below is written for this file (not copied from the labelled set).
const today = new Date('2026-06-15T12:00:00Z');
const testOf = (text: string, name: RegExp) =>
  extractNoteFacts(`57-year-old woman. ${text}`, { today }).find((fact) => fact.kind === 'condition' && name.test(fact.name))?.valueText ?? null;

describe('the note reader keeps the test a condition is reported on', () => {
  it.each([
    ['CT of the abdomen showed acute appendicitis.', /appendicitis/, 'CT'],
    ['A colonoscopy last spring revealed ulcerative colitis of the rectum.', /colitis/, 'endoscopy'],
    ["Crohn's disease, confirmed on biopsy in 2019.", /crohn/i, 'biopsy'],
    ['Sarcoidosis was diagnosed three years ago by bronchoscopy.', /sarcoidosis/i, 'endoscopy'],
    ['Her knee MRI demonstrates a torn meniscus and a Baker cyst.', /popliteal cyst|baker/i, 'MRI'],
  ])('%s', (text, name, test) => {
    expect(testOf(text, name)).toBe(test);
  });

  it('does not carry a test over into another clause or onto a condition the note gives no test for', () => {
    expect(testOf('Chest X-ray was clear, and she has asthma since childhood.', /asthma/)).toBeNull();
    expect(testOf('Brain MRI unremarkable; migraine without aura for ten years.', /migraine/)).toBeNull();
    expect(testOf('Known hypertension, treated with amlodipine.', /blood pressure/)).toBeNull();
  });
});

const condition = (name: string, conceptId: string | null, valueText: string | null, status: MatchFact['status'] = 'present'): MatchFact => ({
  id: `${name}-${valueText}`,
  kind: 'condition',
  conceptId,
  name,
  status,
  value: null,
  unit: null,
  valueText,
  observedOn: null,
  source: 'note',
});
const siteCheck = (text: string, kind: MatchCriterion['kind'] = 'inclusion', population: string | null = null): MatchCriterion => ({
  id: 'check',
  kind,
  rule: { type: 'site_judgement', reason: 'investigator_judgement' },
  ruleSource: 'text',
  needsReview: false,
  population,
  text,
});
const outcome = (conditions: string[], check: MatchCriterion, facts: MatchFact[]) => {
  const person: MatchPerson = { dateOfBirth: null, sex: 'female', facts };
  return matchTrial({ conditions, criteria: [check] }, person, today).outcomes.find((item) => item.criterionId === 'check')!;
};

describe('a site check asking for the trial condition confirmed by a test', () => {
  const crohn = (test: string | null, status: MatchFact['status'] = 'present') => condition("Crohn's disease", 'cohortly:crohns-disease', test, status);

  it('is met by the trial condition reported on that test, or on one of the family it names', () => {
    expect(outcome(['Crohn Disease'], siteCheck("Crohn's disease confirmed by endoscopy or histology"), [crohn('biopsy')])).toMatchObject({
      outcome: 'met',
      reason: expect.stringContaining('shown on biopsy'),
    });
    expect(outcome(['Crohn Disease'], siteCheck('Diagnosis established by imaging'), [crohn('MRI')]).outcome).toBe('met');
    expect(outcome(['Crohn Disease'], siteCheck('Diagnosis established by imaging'), [crohn('MRI', 'history')]).outcome).toBe('met');
  });

  it("stays the site staff's without the test, on another test, or when the note denies the condition", () => {
    expect(outcome(['Crohn Disease'], siteCheck("Crohn's disease confirmed by endoscopy"), [crohn(null)]).outcome).toBe('unknown');
    expect(outcome(['Crohn Disease'], siteCheck("Crohn's disease confirmed by endoscopy"), [crohn('CT')]).outcome).toBe('unknown');
    expect(outcome(['Crohn Disease'], siteCheck("Crohn's disease confirmed by endoscopy"), [crohn('endoscopy', 'absent')]).outcome).toBe('unknown');
  });

  it("stays the site staff's when the criterion asks more than the condition on the test", () => {
    expect(outcome(['Crohn Disease'], siteCheck("Crohn's disease with at least two strictures on MRI"), [crohn('MRI')]).outcome).toBe('unknown');
    expect(outcome(['Crohn Disease'], siteCheck('Ileal Crohn disease and a fistula, both shown on MRI'), [crohn('MRI')]).outcome).toBe('unknown');
  });

  it("stays the site staff's for another condition, an exclusion or a cohort", () => {
    const asthma = condition('asthma', 'mesh:D001249', 'X-ray');
    expect(outcome(['Crohn Disease'], siteCheck('Asthma confirmed by X-ray'), [asthma]).outcome).toBe('unknown');
    expect(outcome(['Crohn Disease'], siteCheck("Crohn's disease confirmed by MRI", 'exclusion'), [crohn('MRI')]).outcome).toBe('unknown');
    // A woman is in the cohort "women": the check is judged for her as the site's.
    expect(outcome(['Crohn Disease'], siteCheck("Crohn's disease confirmed by MRI", 'inclusion', 'women'), [crohn('MRI')]).outcome).toBe('unknown');
  });

  it("reads an abbreviation of the trial's listed condition as that condition", () => {
    const cholangitis = condition('primary sclerosing cholangitis', null, 'MRI');
    expect(outcome(['Primary Sclerosing Cholangitis'], siteCheck('PSC diagnosed by MRI'), [cholangitis]).outcome).toBe('met');
    expect(outcome(['Primary Sclerosing Cholangitis'], siteCheck('PBC diagnosed by MRI'), [cholangitis]).outcome).toBe('unknown');
  });

  it('asks the part of the spine and the level the criterion names of the fact', () => {
    const neck = condition('a slipped (herniated) disc (cervical, C6-C7)', 'mesh:D007405', 'MRI');
    const low = condition('a slipped (herniated) disc (lumbar)', 'mesh:D007405', 'MRI');
    const conditions = ['Intervertebral Disc Displacement'];
    expect(outcome(conditions, siteCheck('Cervical disc herniation shown on MRI'), [neck]).outcome).toBe('met');
    expect(outcome(conditions, siteCheck('Cervical disc herniation shown on MRI'), [low]).outcome).toBe('unknown');
    expect(outcome(conditions, siteCheck('MRI confirming the diagnosis and its level'), [neck]).outcome).toBe('met');
    expect(outcome(conditions, siteCheck('MRI confirming the diagnosis and its level'), [low]).outcome).toBe('unknown');
  });
});
