import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../src/server/features/trials/criteria';
import { meshId, recognizedAs, treatmentWords } from '../support/recognized';

/** Medicines known by their name's stem, transplants, irradiation and transfusions (decisions 271, 272). */

const id = meshId;
const read = recognizedAs;
const treatments = treatmentWords;

describe('a medicine MeSH has no heading for, known by its stem (decision 272)', () => {
  it('reads a kinase inhibitor, an antibody and a PARP inhibitor as the one medicine each names', () => {
    expect(read('Switched from tucatinib to sacituzumab; talazoparib held.')).toEqual([
      'tucatinib=cohortly:medicine-named:tucatinib',
      'sacituzumab=cohortly:medicine-named:sacituzumab',
      'talazoparib=cohortly:medicine-named:talazoparib',
    ]);
    expect(treatments('no earlier exposure to Zanubrutinib')).toEqual(['Zanubrutinib']);
  });

  it('leaves ordinary words that end like a stem alone', () => {
    expect(treatments('the concept was explained in April; cholesterol and thymidine levels were drawn')).toEqual([]);
    expect(treatments('a heliotropium extract, not a prescription')).toEqual([]);
  });

  it('lets a criterion name an allergy to such a medicine without the trial listing it', () => {
    const read = readTextRule('exclusion', 'Allergic to acalabrutinib');
    expect(read.rule).toMatchObject({ type: 'condition', condition: 'an allergy to acalabrutinib', present: false });
  });

  it('keeps the heading MeSH has for a medicine it names', () => {
    expect(read('imatinib since 2019')).toEqual([`imatinib=${id('Imatinib Mesylate')}`]);
  });
});

describe('transplants, irradiation and transfusions as criteria and notes write them (decision 271)', () => {
  it('reads "transplant" as the transplantation MeSH names', () => {
    expect(read('received a pancreas transplant in 2015')).toEqual([`pancreas transplant=${id('Pancreas Transplantation')}`]);
    expect(treatments('waiting for a transplant')).toEqual(['transplant']);
  });

  it('reads irradiation as radiation therapy and a transfusion as blood products', () => {
    expect(read('pelvic irradiation last year')).toContain('irradiation=cohortly:radiotherapy');
    expect(read('needed two transfusions in March')).toEqual(['transfusions=cohortly:immunoglobulin']);
  });
});
