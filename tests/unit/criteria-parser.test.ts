import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/server/http/errors';
import { ageToYears, draftFromStudy, formatPhases } from '../../src/server/features/trials/ctgov';
import { parseCriteria, readTextRule, splitCriteria, unescapeMarkdown } from '../../src/server/features/trials/criteria-parser';

const fixture = (name: string) => JSON.parse(readFileSync(path.resolve(process.cwd(), 'tests/fixtures/ctgov', name), 'utf8'));
const SHARED = path.resolve(process.cwd(), '../shared/data/ctgov/studies.json');

describe('splitting eligibility text', () => {
  it('splits numbered and bulleted lists under inclusion and exclusion headings', () => {
    const items = splitCriteria('Inclusion Criteria:\n\n1. Age 18 or older\n2. Asthma\n\nExclusion Criteria:\n\n* Smoker\n- Pregnant\n• Prior surgery');
    expect(items).toEqual([
      { kind: 'inclusion', text: 'Age 18 or older' },
      { kind: 'inclusion', text: 'Asthma' },
      { kind: 'exclusion', text: 'Smoker' },
      { kind: 'exclusion', text: 'Pregnant' },
      { kind: 'exclusion', text: 'Prior surgery' },
    ]);
  });

  it('reads key / lower-case / colon-less headings and keeps a qualified heading as a label', () => {
    const items = splitCriteria('Key Inclusion Criteria :\n* A\n\nExclusion criteria\n* B\n\nRadiological Exclusion Criteria\n\n1. C');
    expect(items).toEqual([
      { kind: 'inclusion', text: 'A' },
      { kind: 'exclusion', text: 'B' },
      { kind: 'exclusion', text: 'Radiological Exclusion Criteria: C' },
    ]);
  });

  it('keeps nested sub-bullets with their parent item, and wrapped lines joined', () => {
    const items = splitCriteria('Inclusion Criteria:\n\n1. Diagnosed with one of the following:\n\n   * cervical spondylosis;\n   * disc herniation\n2. Willing to\n   return for visits');
    expect(items).toEqual([
      { kind: 'inclusion', text: 'Diagnosed with one of the following:\n- cervical spondylosis;\n- disc herniation' },
      { kind: 'inclusion', text: 'Willing to return for visits' },
    ]);
  });

  it('turns short lead-ins into labels and text after a heading colon into a lead-in', () => {
    const items = splitCriteria('Exclusion Criteria:Patients with\n\n* vertebral fracture,\n* diabetes mellitus\n\nMedical conditions:\n\n* Seizures');
    expect(items).toEqual([
      { kind: 'exclusion', text: 'Patients with: vertebral fracture,' },
      { kind: 'exclusion', text: 'Patients with: diabetes mellitus' },
      { kind: 'exclusion', text: 'Medical conditions: Seizures' },
    ]);
  });

  it('keeps notes and paragraphs as items; never treats "criteria may apply" as a heading', () => {
    const items = splitCriteria('Inclusion Criteria:\n\n* A\n\nExclusion Criteria:\n\n* B\n\nOther protocol-defined inclusion/exclusion criteria may apply');
    expect(items.at(-1)).toEqual({ kind: 'exclusion', text: 'Other protocol-defined inclusion/exclusion criteria may apply' });
  });

  it('unescapes Markdown (\\> \\< \\[ \\])', () => {
    expect(unescapeMarkdown('eGFR \\< 45 \\[x\\] and ALT \\> 3')).toBe('eGFR < 45 [x] and ALT > 3');
    expect(splitCriteria('* BMI \\> 35 kg/m2')).toEqual([{ kind: 'inclusion', text: 'BMI > 35 kg/m2' }]);
  });
});

describe('rules from text', () => {
  const rule = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text);

  it('reads ages', () => {
    expect(rule('inclusion', '18 years of age or older')).toEqual({ rule: { type: 'age', minYears: 18, maxYears: null }, needsReview: false });
    expect(rule('inclusion', 'Aged 18 to 65')).toEqual({ rule: { type: 'age', minYears: 18, maxYears: 65 }, needsReview: false });
    expect(rule('inclusion', '≥ 18 years')).toEqual({ rule: { type: 'age', minYears: 18, maxYears: null }, needsReview: false });
    expect(rule('inclusion', 'Subject is between 18 and 75 years of age.').rule).toEqual({ type: 'age', minYears: 18, maxYears: 75 });
    // In an exclusion the rule says who is eligible: "under 18" excluded -> at least 18.
    expect(rule('exclusion', 'under 18 years old')).toEqual({ rule: { type: 'age', minYears: 18, maxYears: null }, needsReview: false });
    expect(rule('exclusion', 'Age < 18 or > 70 years').rule).toEqual({ type: 'age', minYears: 18, maxYears: 70 });
    expect(rule('exclusion', 'Life expectancy less than 2 years').rule).toBeNull();
    expect(rule('exclusion', 'Cancer within 5 years').rule).toBeNull();
  });

  it('reads BMI ranges and lab thresholds', () => {
    expect(rule('inclusion', 'BMI between 18.5 and 35 kg/m2')).toEqual({
      rule: { type: 'lab', measure: 'BMI', comparator: 'between', value: 18.5, upperValue: 35, unit: 'kg/m2' },
      needsReview: false,
    });
    expect(rule('inclusion', 'BMI ≥ 30')).toEqual({ rule: { type: 'lab', measure: 'BMI', comparator: '>=', value: 30, unit: 'kg/m2' }, needsReview: false });
    expect(rule('exclusion', 'eGFR < 45 mL/min')).toEqual({ rule: { type: 'lab', measure: 'eGFR', comparator: '>=', value: 45, unit: 'mL/min' }, needsReview: false });
    expect(rule('inclusion', 'HbA1c ≥ 7.0%')).toEqual({ rule: { type: 'lab', measure: 'HbA1c', comparator: '>=', value: 7, unit: '%' }, needsReview: false });
    expect(rule('exclusion', 'ALT > 3 x ULN')).toEqual({ rule: { type: 'lab', measure: 'ALT', comparator: '<=', value: 3, unit: 'x ULN' }, needsReview: true });
    expect(rule('exclusion', 'Platelet count < 50,000').rule).toMatchObject({ measure: 'platelets', comparator: '>=', value: 50000 });
  });

  it('reads pregnancy in exclusions; the rest needs a person', () => {
    expect(rule('exclusion', 'Pregnant or breastfeeding')).toEqual({ rule: { type: 'pregnancy', allowed: false }, needsReview: false });
    expect(rule('exclusion', 'Pregnant or planning pregnancy, unless using contraception').needsReview).toBe(true);
    expect(rule('inclusion', 'Diagnosis of asthma for at least 12 months')).toEqual({ rule: null, needsReview: true });
  });
});

describe('study records', () => {
  it('maps the fixture record to a draft trial', () => {
    const draft = draftFromStudy(fixture('asthma-study.json'));
    expect(draft).toMatchObject({
      title: 'A Randomized, Placebo-Controlled Phase 2/3 Study of an Inhaled Study Drug in Adults With Moderate Persistent Asthma',
      publicTitle: 'Inhaled Study Drug for Adults With Moderate Asthma',
      nctId: 'NCT09900001',
      sponsor: 'Cohortly Test Sponsor',
      phase: 'Phase 2/Phase 3',
      conditions: ['Asthma', 'Moderate Persistent Asthma'],
      targetEnrollment: 120,
      minimumAgeYears: 18,
      maximumAgeYears: 65,
      sex: 'all',
      healthyVolunteers: false,
    });
    expect(draft.sites[0]).toEqual({ name: 'Lakeside Clinical Research', city: 'Chicago', region: 'Illinois', postalCode: '60601', country: 'United States', latitude: 41.88, longitude: -87.62 });
    expect(draft.sites[1].timeZone).toBeUndefined();
    expect(draft.criteria.map((c) => [c.kind, c.ruleSource, c.needsReview, c.text])).toEqual([
      ['inclusion', 'structured', false, 'Age at least 18 years and at most 65 years old'],
      ['inclusion', 'structured', false, 'Healthy volunteers not accepted'],
      ['inclusion', 'text', false, 'Adults aged 18 to 65 years'],
      ['inclusion', null, true, 'Diagnosis of asthma for at least 12 months'],
      ['inclusion', 'text', false, 'BMI between 18.5 and 35 kg/m2'],
      ['inclusion', null, true, 'On one of the following controller therapies:\n- inhaled corticosteroid\n- inhaled corticosteroid with a long-acting beta agonist'],
      ['exclusion', 'text', false, 'Pregnant or breastfeeding'],
      ['exclusion', 'text', false, 'eGFR < 45 mL/min'],
      ['exclusion', 'text', false, 'HbA1c ≥ 7.0%'],
      ['exclusion', 'text', true, 'ALT > 3 x ULN'],
      ['exclusion', null, true, 'Current smoker or a smoking history of more than 10 pack-years'],
    ]);
    expect(draft.criteria[0].rule).toEqual({ type: 'age', minYears: 18, maxYears: 65 });
    expect(draft.criteria[8].rule).toEqual({ type: 'lab', measure: 'HbA1c', comparator: '<', value: 7, unit: '%' });
  });

  it('ignores unknown keys; reads sex and a missing maximum age', () => {
    const draft = draftFromStudy(fixture('womens-health-study.json'));
    expect(draft).toMatchObject({ title: 'Bone Density in Postmenopausal Women', sex: 'female', minimumAgeYears: 50, maximumAgeYears: null, phase: null, sites: [] });
    expect(draft.criteria.slice(0, 2).map((c) => c.rule)).toEqual([{ type: 'age', minYears: 50, maxYears: null }, { type: 'sex', sex: 'female' }]);
  });

  it('answers 400 naming what is wrong for a body that is not a study record', () => {
    const failure = (body: unknown) => {
      try {
        draftFromStudy(body);
      } catch (error) {
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).status).toBe(400);
        return (error as AppError).message;
      }
      throw new Error('expected a failure');
    };
    expect(failure({ hello: 'world' })).toContain('protocolSection: Required');
    expect(failure({ protocolSection: { identificationModule: {} } })).toContain('protocolSection.identificationModule.nctId: Required');
    expect(failure({ protocolSection: { identificationModule: { nctId: 'NCT09900001' }, eligibilityModule: { sex: 3 } } })).toContain('protocolSection.eligibilityModule.sex');
    expect(failure([1, 2])).toContain('(body)');
  });

  it('converts ages and phases', () => {
    expect(ageToYears('18 Years')).toBe(18);
    expect(ageToYears('6 Months')).toBe(0.5);
    expect(ageToYears('18 Months')).toBe(1.5);
    expect(ageToYears(undefined)).toBeUndefined();
    expect(formatPhases(['PHASE2', 'PHASE3'])).toBe('Phase 2/Phase 3');
    expect(formatPhases(['EARLY_PHASE1'])).toBe('Early Phase 1');
    expect(formatPhases(['NA'])).toBeNull();
  });
});

/** The parser on every record of the shared ClinicalTrials.gov set (read in place, never copied). */
describe.skipIf(!existsSync(SHARED))('the shared ClinicalTrials.gov records', () => {
  type Study = { protocolSection: { identificationModule: { nctId: string }; eligibilityModule?: { eligibilityCriteria?: string; minimumAge?: string; maximumAge?: string; sex?: string } } };
  const studies: Study[] = existsSync(SHARED) ? JSON.parse(readFileSync(SHARED, 'utf8')) : [];
  const byId = (nctId: string) => studies.find((study) => study.protocolSection.identificationModule.nctId === nctId)!;
  const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
  /** A heading line, read independently of the parser: "(Key) Inclusion/Exclusion Criteria(:)". */
  const headingKind = (line: string): 'inclusion' | 'exclusion' | null => {
    const text = squash(line.replace(/^[*•-]\s*/, ''));
    const head = text.split(':')[0];
    if (head.split(' ').length > 12 || /\b(apply|may|could|following|must)\b/i.test(head)) return null;
    const inclusion = /\binclusion\b/i.test(head);
    const exclusion = /\bexclusion\b/i.test(head);
    if (inclusion === exclusion || !/criteri/i.test(head)) return null;
    return inclusion ? 'inclusion' : 'exclusion';
  };

  it('reads all 94 records', () => expect(studies.length).toBe(94));

  it('gives every record a title, its NCT id and structured age/sex rules matching the record', () => {
    for (const study of studies) {
      const draft = draftFromStudy(study);
      const eligibility = study.protocolSection.eligibilityModule ?? {};
      expect(draft.title.length).toBeGreaterThan(0);
      expect(draft.nctId).toBe(study.protocolSection.identificationModule.nctId);
      const age = draft.criteria.find((c) => c.ruleSource === 'structured' && c.rule?.type === 'age');
      if (eligibility.minimumAge || eligibility.maximumAge) {
        expect(age?.rule).toEqual({ type: 'age', minYears: ageToYears(eligibility.minimumAge) ?? null, maxYears: ageToYears(eligibility.maximumAge) ?? null });
      } else {
        expect(age).toBeUndefined();
      }
      expect(draft.maximumAgeYears).toBe(eligibility.maximumAge ? Math.floor(ageToYears(eligibility.maximumAge)!) : null);
      expect(draft.sex).toBe((eligibility.sex ?? 'ALL').toLowerCase());
      const sex = draft.criteria.find((c) => c.rule?.type === 'sex');
      expect(sex?.rule ?? null).toEqual(eligibility.sex && eligibility.sex !== 'ALL' ? { type: 'sex', sex: eligibility.sex.toLowerCase() } : null);
    }
  });

  it('keeps every criterion line, in the section it came from', () => {
    for (const study of studies) {
      const nctId = study.protocolSection.identificationModule.nctId;
      const original = study.protocolSection.eligibilityModule?.eligibilityCriteria ?? '';
      const text = unescapeMarkdown(original);
      const criteria = parseCriteria(original);
      if (text.trim()) expect(criteria.length, nctId).toBeGreaterThan(0);
      const squashed = criteria.map((c) => ({ kind: c.kind, text: squash(c.text.replace(/\n- /g, ' ')) }));
      let section: 'inclusion' | 'exclusion' = 'inclusion';
      for (const raw of text.split('\n')) {
        if (!raw.trim()) continue;
        const heading = headingKind(raw);
        if (heading) {
          section = heading;
          continue;
        }
        const line = squash(raw.replace(/^\s*(?:[*+•·-]|\d{1,3}[.)]|[a-zA-Z][.)])\s+/, ''));
        const holders = squashed.filter((c) => c.text.includes(line));
        expect(holders.length, `${nctId}: "${line}" is in no criterion`).toBeGreaterThan(0);
        expect(holders.some((c) => c.kind === section), `${nctId}: "${line}" should be ${section}`).toBe(true);
      }
    }
  });

  it('reads NCT05925803 (key criteria, eGFR in a history item)', () => {
    const draft = draftFromStudy(byId('NCT05925803'));
    const inclusion = draft.criteria.filter((c) => c.kind === 'inclusion' && c.ruleSource !== 'structured');
    const exclusion = draft.criteria.filter((c) => c.kind === 'exclusion');
    expect(inclusion).toHaveLength(10);
    expect(exclusion).toHaveLength(13);
    expect(inclusion[0]).toEqual({ kind: 'inclusion', text: 'Adult patients from 18 to 70 years of age inclusive', rule: { type: 'age', minYears: 18, maxYears: 70 }, ruleSource: 'text', needsReview: false });
    expect(inclusion[5].text).toBe('mRSS > 10 with early disease or rapid progression as defined by the protocol');
    expect(exclusion[2]).toMatchObject({ rule: { type: 'lab', measure: 'eGFR', comparator: '>=', value: 45 }, needsReview: true });
    expect(draft).toMatchObject({ phase: 'Phase 3', minimumAgeYears: 18, maximumAgeYears: 70, sponsor: 'AstraZeneca', healthyVolunteers: false });
  });

  it('reads NCT01640457 (BMI and CRP thresholds, pregnancy with contraception text)', () => {
    const draft = draftFromStudy(byId('NCT01640457'));
    expect(draft.criteria.find((c) => c.text === 'BMI > 35 kg/m2')).toEqual({
      kind: 'exclusion',
      text: 'BMI > 35 kg/m2',
      rule: { type: 'lab', measure: 'BMI', comparator: '<=', value: 35, unit: 'kg/m2' },
      ruleSource: 'text',
      needsReview: false,
    });
    expect(draft.criteria.find((c) => c.text.startsWith('The patient is pregnant'))).toMatchObject({ kind: 'exclusion', rule: { type: 'pregnancy', allowed: false }, needsReview: true });
    expect(draft.criteria.find((c) => c.text === 'The patient is between 18-60 years of age.')?.rule).toEqual({ type: 'age', minYears: 18, maxYears: 60 });
  });

  it('reads NCT05313997 (a lead-in on the heading line, ages in exclusions)', () => {
    const exclusion = draftFromStudy(byId('NCT05313997')).criteria.filter((c) => c.kind === 'exclusion');
    expect(exclusion.map((c) => c.text)).toContain('Patients with: vertebral fracture,');
    expect(exclusion.find((c) => c.text === 'Patients with: under 18 years old')?.rule).toEqual({ type: 'age', minYears: 18, maxYears: null });
    expect(exclusion.find((c) => c.text === 'Patients with: over 65 years old')?.rule).toEqual({ type: 'age', minYears: null, maxYears: 65 });
  });
});
