import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/** Short forms that spell their concept, a tumour's tissue diagnosis, and the kinds of skin cancer (decisions 237-239). New wording. */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text);

describe('a short form in brackets that spells the initials of the concept before it', () => {
  it('is the concept restated, in capitals or lower case', () => {
    const cases: Array<[string, string]> = [
      ['Prior pulmonary embolism (pe)', 'a blood clot in the lungs'],
      ['Known chronic obstructive pulmonary disease (copd)', 'COPD (chronic lung disease)'],
      ['History of a transient ischaemic attack (TIA)', 'a mini-stroke (TIA)'],
      ['Known peripheral arterial disease (pad)', 'peripheral artery disease'],
    ];
    for (const [text, condition] of cases) expect(read('exclusion', text), text).toMatchObject({ rule: { condition }, needsReview: false });
    expect(read('inclusion', 'Living with human immunodeficiency virus (hiv) infection')).toMatchObject({ rule: { condition: 'HIV' }, needsReview: false });
  });

  it('a bracket whose letters are not the initials stays a word to read', () => {
    for (const text of ['Prior pulmonary embolism (pt)', 'Known asthma (ex)', 'Heart failure (nyha)'])
      expect(read('exclusion', text).needsReview, text).toBe(true);
  });
});

describe('a tumour diagnosed on its tissue', () => {
  it('"histologically confirmed" says how the diagnosis was made', () => {
    const cases: Array<[string, string]> = [
      ['Cytologically confirmed breast cancer', 'breast cancer'],
      ['Histologically or cytologically proven prostate cancer', 'prostate cancer'],
      ['Pathological diagnosis of myelodysplastic syndrome', 'myelodysplastic syndrome (MDS)'],
      ['Breast cancer confirmed by biopsy', 'breast cancer'],
    ];
    for (const [text, condition] of cases)
      for (const kind of ['inclusion', 'exclusion'] as const) expect(read(kind, text), text).toMatchObject({ rule: { condition }, needsReview: false });
  });

  it('not for a condition often diagnosed without tissue, nor for a tissue finding', () => {
    for (const text of ['Biopsy-proven fatty liver disease', 'Histologically confirmed sarcoidosis', 'Non-small cell histology of the tumour'])
      expect(read('inclusion', text).needsReview, text).toBe(true);
  });
});

describe('kinds of skin cancer', () => {
  it('basal cell carcinoma read as skin cancer is broader than the words', () => {
    expect(read('exclusion', 'Treated basal cell carcinoma of the nose')).toMatchObject({ rule: { condition: 'skin cancer' }, needsReview: true });
  });

  it('melanoma is its own MeSH heading, never skin cancer (decision 324)', () => {
    expect(read('exclusion', 'Prior melanoma')).toMatchObject({ rule: { condition: 'melanoma', concepts: [{ mesh: 'D008545' }] }, needsReview: false });
  });
});

describe("a concept's own words and its last stage", () => {
  it('end-stage kidney disease read as kidney disease is broader than the words, however it is written', () => {
    for (const text of ['Known end-stage renal disease', 'Known end stage renal disease', 'ESRD on the waiting list for a kidney'])
      expect(read('exclusion', text).needsReview, text).toBe(true);
    expect(read('exclusion', 'Known chronic kidney disease')).toMatchObject({ rule: { condition: 'kidney disease' }, needsReview: false });
  });
});

describe('a narrower term beside its concept named whole', () => {
  it('is covered by the whole, as a member is', () => {
    expect(read('exclusion', 'Prior schizoaffective disorder').needsReview).toBe(true);
    expect(read('exclusion', 'Prior schizoaffective disorder or any psychotic disorder')).toMatchObject({ rule: { type: 'condition' }, needsReview: false });
  });
});

describe('a text written all in lower case', () => {
  it('still names the short forms of three letters or more', () => {
    expect(read('exclusion', 'known copd')).toMatchObject({ rule: { condition: 'COPD (chronic lung disease)' }, needsReview: false });
    expect(read('exclusion', 'prior t2dm')).toMatchObject({ rule: { condition: 'type 2 diabetes' } });
    // In capitals it is read as always; written in lower case within a text with capitals, it is a word.
    expect(read('exclusion', 'Known COPD').rule).toMatchObject({ condition: 'COPD (chronic lung disease)' });
    expect(read('exclusion', 'Known copd or Asthma').rule).toMatchObject({ condition: 'asthma' });
  });

  it('never English words, two letters, or the ambiguous short forms', () => {
    for (const text of ['uses hearing aids', 'a lesion of 2 mm', 'all patients with a cart', 'ms symptoms'])
      expect(read('exclusion', text).rule?.type === 'condition' ? read('exclusion', text).rule : null, text).toBeNull();
  });

  it('a short form that names one kind of a class reads as the class, in review', () => {
    for (const text of ['history of cml', 'History of CML', 'Known DCIS']) expect(read('exclusion', text).needsReview, text).toBe(true);
    expect(read('exclusion', 'Known acute myeloid leukemia (aml)')).toMatchObject({ rule: { condition: 'acute myeloid leukemia' }, needsReview: false });
  });
});

describe('a sentence that defines its concept', () => {
  it('names no requirement of the person: a person reads which way it counts', () => {
    for (const kind of ['inclusion', 'exclusion'] as const)
      expect(read(kind, 'COPD is defined as chronic obstructive pulmonary disease').needsReview, kind).toBe(true);
  });
});

describe('a stem cell (bone marrow) transplant', () => {
  it('is no organ transplant; autologous or allogeneic is the whole, one of them narrower', () => {
    expect(read('exclusion', 'Previous bone marrow transplantation')).toMatchObject({
      rule: { condition: 'a stem cell or bone marrow transplant', history: true },
      needsReview: false,
    });
    expect(read('exclusion', 'Previous allogeneic or autologous stem cell transplant')).toMatchObject({
      rule: { condition: 'a stem cell or bone marrow transplant' },
      needsReview: false,
    });
    expect(read('exclusion', 'Previous autologous stem cell transplant').needsReview).toBe(true);
    expect(read('exclusion', 'Previous liver transplant').rule).toMatchObject({ condition: 'a liver transplant' });
  });
});

describe('"positive for" an infection a person knows', () => {
  it('is the infection, as "tested positive for" is; a marker stays for staff', () => {
    expect(read('exclusion', 'Known to be positive for hepatitis B')).toMatchObject({ rule: { condition: 'hepatitis B' }, needsReview: false });
    expect(read('inclusion', 'Tumour positive for HER2').needsReview).toBe(true);
  });
});
