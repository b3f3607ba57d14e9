import { describe, expect, it } from 'vitest';
import { extractNoteFacts } from '../../src/server/features/matching/note-extractor';
import { readTextRule } from '../../src/server/features/trials/criteria';
import { meshIdByName } from '../../src/server/features/trials/vocabulary';
import { CLINICAL_SHORT_FORMS } from '../../src/server/features/trials/vocabulary/hand/clinical-short-forms';
import { recognize } from '../../src/server/features/trials/vocabulary/recognizer';

/** Short forms clinicians write that MeSH 2024 lacks, read as the heading they stand for (decision 309). */

const ids = (text: string) => recognize(text).map((found) => found.conceptId);
const heading = (name: string) => meshIdByName(name);

describe('clinical short forms MeSH lacks', () => {
  it('names a heading MeSH 2024 has for every short form, so none is dropped unread', () => {
    expect(CLINICAL_SHORT_FORMS.filter(({ heading: name }) => meshIdByName(name) === undefined)).toEqual([]);
  });

  it('reads an operation by its short form as the same concept as its full name', () => {
    expect(ids('Status post CABG in 2019.')).toEqual(ids('Status post coronary artery bypass in 2019.'));
    expect(ids('Status post CABG in 2019.')).toEqual([heading('Coronary Artery Bypass')]);
    expect(ids('Right TKA last year; left TKR planned.')).toEqual([heading('Arthroplasty, Replacement, Knee'), heading('Arthroplasty, Replacement, Knee')]);
    expect(ids('Underwent TAVI for aortic stenosis.')).toContain(heading('Transcatheter Aortic Valve Replacement'));
    expect(ids('Required ECMO and CRRT in the ICU.')).toEqual([
      heading('Extracorporeal Membrane Oxygenation'),
      heading('Continuous Renal Replacement Therapy'),
    ]);
  });

  it('reads THA as the hip operation, not the withdrawn medicine MeSH gives it to, which stays readable by name', () => {
    expect(ids('History of THA.')).toEqual([heading('Arthroplasty, Replacement, Hip')]);
    expect(ids('Previously treated with tacrine.')).toEqual([heading('Tacrine')]);
  });

  it('reads conditions by their short forms', () => {
    expect(ids('Known IPF on nintedanib.')).toContain(heading('Idiopathic Pulmonary Fibrosis'));
    expect(ids('Metastatic TNBC.')).toContain(heading('Triple Negative Breast Neoplasms'));
    expect(ids('Known PsA.')).toEqual([heading('Arthritis, Psoriatic')]);
    expect(ids('Active OUD on buprenorphine.')).toContain(heading('Opioid-Related Disorders'));
    expect(ids('Diagnosed with PSP.')).toEqual([heading('Supranuclear Palsy, Progressive')]);
    expect(ids('Steroid-refractory acute GVHD.')).toContain(heading('Graft vs Host Disease'));
    expect(ids('Known HCM with a PFO.')).toEqual([heading('Cardiomyopathy, Hypertrophic'), heading('Foramen Ovale, Patent')]);
    expect(ids('a diagnosis of cmml')).toEqual([heading('Leukemia, Myelomonocytic, Chronic')]);
    // Short forms of hand entries: read as their full names are.
    expect(ids('History of AUD.')).toEqual(ids('History of alcohol use disorder.'));
    expect(ids('Has an AICD.')).toEqual(ids('Has an implantable cardioverter defibrillator.'));
    expect(ids('Has an AICD.')).toHaveLength(1);
    expect(ids('Known IHD.')).toEqual(ids('Known ischemic heart disease.'));
    expect(ids('Current SUD.')).toEqual(ids('Current substance use disorder.'));
    expect(ids('HFmrEF')).toEqual(ids('HFrEF'));
  });

  it('reads them in a text written all in lower case, except one whose capitals tell it from another', () => {
    expect(ids('s/p cabg x3, bridged with ecmo')).toEqual([heading('Coronary Artery Bypass'), heading('Extracorporeal Membrane Oxygenation')]);
    // "psa" in lower case is as often the prostate-specific antigen: not psoriatic arthritis.
    expect(ids('history of psa')).not.toContain(heading('Arthritis, Psoriatic'));
  });

  it("sends an operation named alone as an inclusion to a person: it is most often the study's own operation", () => {
    expect(readTextRule('inclusion', 'CABG').needsReview).toBe(true);
    expect(readTextRule('inclusion', 'Total knee arthroplasty').needsReview).toBe(true);
    // With a word of the past it is the person's history, read as written.
    expect(readTextRule('inclusion', 'Prior CABG').needsReview).toBe(false);
  });

  it("asks about what a MeSH heading names in a patient's words", () => {
    expect(recognize('Histologically confirmed TNBC.')[0]?.name).toBe('triple negative breast tumors');
    expect(recognize('History of THA.')[0]?.name).toBe('hip replacement');
  });

  it('leaves a short form with a second common sense unread', () => {
    // "PCI" is also prophylactic cranial irradiation; "ICH" the harmonisation guidelines.
    expect(ids('Prior PCI.')).toEqual([]);
    expect(ids('Conducted per ICH guidelines.')).toEqual([]);
  });

  it('reads "PCI" as the coronary intervention only beside a coronary operation or a heart condition', () => {
    const pci = heading('Percutaneous Coronary Intervention');
    expect(ids('Prior PCI or CABG.')).toContain(pci);
    expect(ids('History of CAD s/p PCI in 2019.')).toContain(pci);
    expect(recognize('Prior PCI.', { context: [heading('Coronary Artery Disease') ?? ''] }).map((found) => found.conceptId)).toEqual([pci]);
    // A lung cancer trial's "PCI" is cranial irradiation: unread, not guessed.
    expect(recognize('Prior PCI.', { context: [heading('Small Cell Lung Carcinoma') ?? ''] })).toEqual([]);
    // A heart condition supports an operation's reading, never a condition's: "MS" stays unread beside CAD.
    expect(ids('MS, CAD.')).toEqual(['cohortly:coronary-artery-disease']);
  });

  it('gives the criteria reader and the note reader the same concept', () => {
    const rule = readTextRule('exclusion', 'Prior CABG within 6 months').rule;
    expect(rule).toMatchObject({ type: 'condition', present: false, within: { value: 6, unit: 'months' } });
    const ruleIds = rule && rule.type === 'condition' ? rule.concepts?.map((concept) => concept.id) : [];
    expect(ruleIds).toEqual([heading('Coronary Artery Bypass')]);
    const fact = extractNoteFacts('58-year-old man, s/p CABG in 2015, presents with chest pain.').find(
      (found) => found.conceptId === heading('Coronary Artery Bypass'),
    );
    expect(fact?.status).toBe('history');
  });
});
