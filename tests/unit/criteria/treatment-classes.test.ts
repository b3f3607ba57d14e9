import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/**
 * Classes of treatment as MeSH names them, written the ways criteria write them (decision 307): "anti-" and its target,
 * "TNF-alpha inhibitors", two words for one, the CYP3A inhibitors apart from the inducers; and counts of treatment
 * lines a rule cannot hold. Every phrasing here is new wording, not a corpus record's.
 */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text);
const medication = (kind: 'inclusion' | 'exclusion', text: string) => {
  const rule = read(kind, text).rule;
  return rule?.type === 'medication' ? rule : null;
};

describe('a class written as "anti-" and what it acts against', () => {
  it('is the MeSH class, by its joined name or its target, with no review', () => {
    const cases: Array<[string, string]> = [
      ['Ongoing anti-TNF therapy', 'tumor necrosis factor inhibitors'],
      ['Has been on anti-TNF-alpha agents during the last 6 months', 'tumor necrosis factor inhibitors'],
      ['Use of anti-platelet medication in the 10 days before surgery', 'antiplatelet medicines (such as clopidogrel)'],
      ['Systemic anti-fungal treatment within 2 weeks', 'antifungal agents'],
      ['Taking anti-diabetic drugs', 'hypoglycemic agents'],
      ['Treatment with an anti-IL-6 agent', 'interleukin-6 inhibitors'],
      ['Any concurrent anti-tumour therapy', 'antineoplastic agents'],
      ['Anti-tumor necrosis factor treatment in the past year', 'tumor necrosis factor inhibitors'],
    ];
    for (const [text, name] of cases) {
      const reading = read('exclusion', text);
      expect(reading.rule, text).toMatchObject({ type: 'medication', medication: name, taking: false });
      expect(reading.needsReview, text).toBe(false);
    }
  });

  it('keeps the window and the past use the words give', () => {
    expect(medication('exclusion', 'Use of anti-platelet medication in the 10 days before surgery')?.within).toEqual({ value: 10, unit: 'days' });
    expect(medication('exclusion', 'Previous anti-TNF therapy')).toMatchObject({ taking: false, history: true });
    // Treatment-naive: "no prior" in an inclusion is never taken.
    expect(medication('inclusion', 'No prior anti-TNF therapy')).toMatchObject({ taking: false, history: true });
    expect(medication('inclusion', 'Must have had prior anti-TNF therapy')).toMatchObject({ taking: true, history: true });
  });

  it('holds a medicine excepted from the class', () => {
    const rule = medication('exclusion', 'Prior anti-TNF agents other than infliximab');
    expect(rule?.medication).toBe('tumor necrosis factor inhibitors');
    expect(rule?.except?.map((concept) => concept.name)).toEqual(['infliximab']);
  });

  it('never reads a blood test, a target MeSH has no class for, or the disease after "anti-" as a treatment', () => {
    for (const text of ['Positive anti-HCV antibody', 'Anti-nuclear antibodies above 1:160', 'Anti-VEGF injections in the study eye', 'Anti-EGFR treatment']) {
      const rule = read('exclusion', text).rule;
      expect(JSON.stringify(rule ?? {}), text).not.toMatch(/inhibitors|antineoplastic|hypoglycemic/);
    }
    // "Anti-diabetic" is no diabetes.
    expect(JSON.stringify(read('exclusion', 'Taking anti-diabetic drugs').rule)).not.toContain('"condition"');
  });
});

describe('a class the vocabulary names, however it is written', () => {
  it('reads "TNF-alpha inhibitors" and "TNF-α blockers" as MeSH\'s TNF inhibitors', () => {
    for (const text of ['Received TNF-alpha inhibitors before', 'Current TNF-α blockers']) {
      expect(medication('exclusion', text)?.medication, text).toBe('tumor necrosis factor inhibitors');
    }
  });

  it('reads "immune therapy" as immunotherapy, and a biologic named with another head noun as a biologic', () => {
    expect(medication('exclusion', 'Has had immune therapy for melanoma before')?.medication).toBe('immunotherapy for cancer');
    expect(medication('exclusion', 'Any biologic treatment in the last 12 weeks')).toMatchObject({
      medication: 'a biologic medicine (injection or infusion)',
      within: { value: 12, unit: 'weeks' },
    });
  });

  it("reads a medicine for weight management as the weight-loss medicines (MeSH's anti-obesity agents)", () => {
    const reading = read('exclusion', 'Took any medication for weight management in the past 60 days');
    expect(reading.rule).toMatchObject({ type: 'medication', medication: 'weight-loss medicines', taking: false, within: { value: 60, unit: 'days' } });
    expect(reading.needsReview).toBe(false);
    // One medicine of the class is read as itself (decision 337), never as the class.
    expect(read('exclusion', 'Orlistat within 30 days')).toMatchObject({ rule: { medication: 'orlistat' }, needsReview: false });
  });

  it('tells strong CYP3A inducers from inhibitors, each for a clinician to check', () => {
    const inducers = read('exclusion', 'Use of a strong CYP3A4 inducer within 2 weeks');
    expect(inducers.rule).toMatchObject({ type: 'medication', medication: expect.stringContaining('CYP3A inducers') });
    expect(JSON.stringify(inducers.rule)).not.toContain('inhibitors');
    expect(inducers.needsReview).toBe(true);
    const inhibitors = read('exclusion', 'Taking a strong CYP3A inhibitor');
    expect(inhibitors.rule).toMatchObject({ type: 'medication', medication: expect.stringContaining('CYP3A inhibitors') });
    expect(JSON.stringify(inhibitors.rule)).not.toContain('inducers');
  });

  it('is no medicine of the class when written "non-"', () => {
    expect(JSON.stringify(read('exclusion', 'Non-biologic DMARDs in the last month').rule ?? {})).not.toContain('biologic medicine');
  });
});

describe('a count of treatment lines, regimens or cycles', () => {
  it('gives no rule, which could only be met by one course', () => {
    for (const [kind, text] of [
      ['inclusion', 'Has progressed after two or more prior chemotherapy regimens'],
      ['inclusion', 'Completed 4 cycles of platinum chemotherapy'],
      ['exclusion', 'More than three previous lines of chemotherapy'],
      ['exclusion', 'More than one prior regimen of immunotherapy'],
    ] as const) {
      const reading = read(kind, text);
      expect(reading.rule, text).toBeNull();
      expect(reading.needsReview, text).toBe(true);
    }
  });

  it('still reads a window before a cycle of the study, which is no count', () => {
    expect(medication('exclusion', 'Chemotherapy within 3 weeks before day 1 of cycle 1')).toMatchObject({ medication: 'chemotherapy', taking: false });
  });
});

describe('a medicine the person is naive to', () => {
  it('is never taken, or, with "not" before the word, taken once, both as ever (history)', () => {
    expect(read('inclusion', 'Participants naive to JAK inhibitors')).toMatchObject({ rule: { taking: false, history: true }, needsReview: false });
    expect(read('inclusion', 'Anti-TNF naive')).toMatchObject({ rule: { taking: false, history: true } });
    expect(read('inclusion', 'Must not be naive to JAK inhibitors')).toMatchObject({ rule: { taking: true, history: true }, needsReview: false });
    expect(read('inclusion', 'Patients who are not methotrexate-naive').rule).toMatchObject({ taking: true, history: true });
  });

  it('in an exclusion of naive people, requires the medicine ever taken, not taken now', () => {
    expect(read('exclusion', 'Chemotherapy-naive patients')).toMatchObject({
      rule: { medication: 'chemotherapy', taking: true, history: true },
      needsReview: false,
    });
  });
});

describe('therapy named by its pharmacological action', () => {
  it('is the class of that action', () => {
    expect(medication('exclusion', 'Antimicrobial treatment in the preceding 10 days')).toMatchObject({
      medication: 'anti-infective agents',
      within: { value: 10, unit: 'days' },
    });
    expect(medication('exclusion', 'Previous antithyroid therapy')).toMatchObject({ medication: 'antithyroid agents', history: true });
  });

  it('is no class for a kind of therapy that names no action', () => {
    for (const text of ['Maintenance therapy ongoing', 'Supportive therapy only']) {
      expect(medication('exclusion', text), text).toBeNull();
    }
  });

  it('keeps a rule in review when a second window belongs to another medicine', () => {
    const reading = read('exclusion', 'Antibiotics (within the past week) or antifungal agents (within the past 3 months)');
    expect(reading.needsReview).toBe(true);
  });
});
