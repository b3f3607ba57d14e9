import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { normalizeUnit } from '../../../src/server/features/trials/criteria/measures';
import { extractNoteFacts } from '../../../src/server/features/matching/note-extractor';

/** Lab units as records type them (decision 312). Wording written for this file. */

const rule = (text: string) => readTextRule('inclusion', text).rule;

describe('units as records type them', () => {
  it('reads the Greek letter mu as the micro sign', () => {
    // Before, "100,000/μL" kept the unit unconverted: a rule of 100,000 in a unit no fact is stored in.
    expect(rule('Platelet count ≥ 100,000/μL')).toMatchObject({ measure: 'platelets', value: 100, unit: '10^9/L' });
    expect(rule('Absolute neutrophil count ≥ 1,500/μl')).toMatchObject({ value: 1.5, unit: '10^9/L' });
    expect(rule('Platelets ≥ 75 x 10^3/μL')).toMatchObject({ value: 75, unit: '10^9/L' });
    expect(normalizeUnit('μmol/L')).toBe('µmol/L');
  });

  it('reads thousands per microlitre, grams written "gm" and cc per minute', () => {
    expect(rule('White cell count of at least 3.5 K/µL')).toMatchObject({ measure: 'WBC', value: 3.5, unit: '10^9/L' });
    expect(rule('Lymphocytes ≥ 2,000 cells/mm3')).toMatchObject({ measure: 'lymphocytes', value: 2, unit: '10^9/L' });
    expect(rule('Haemoglobin ≥ 10 gm/dL')).toMatchObject({ measure: 'hemoglobin', value: 10, unit: 'g/dL' });
    expect(rule('Creatinine clearance above 50 cc/min')).toMatchObject({ measure: 'creatinine clearance', value: 50, unit: 'mL/min' });
  });

  it("sends a bound followed by a unit it did not take to a person, never the measure's own unit silently", () => {
    // "ng/mL" is no unit of creatinine: the rule would read 1.2 mg/dL.
    expect(readTextRule('inclusion', 'Serum creatinine ≤ 1.2 ng/mL')).toMatchObject({ needsReview: true, reasons: expect.arrayContaining(['unitUnread']) });
    // "And/or" after a bound is no unit.
    expect(readTextRule('exclusion', 'Systolic pressure > 160 mmHg and/or diastolic pressure > 100 mmHg').reasons ?? []).not.toContain('unitUnread');
  });
});

describe('a medicine that is also an analyte, bounded in a concentration', () => {
  it('is its blood level, never a dose', () => {
    expect(rule('Vitamin D ≥ 30 ng/mL at screening')).toMatchObject({ type: 'lab', measure: 'vitamin d', value: 30 });
    // A dose has no concentration: still the medicine.
    expect(readTextRule('exclusion', 'Taking vitamin D 2000 IU daily').rule?.type).toBe('medication');
  });
});

describe('a count per microlitre written "mcL" (decision 315)', () => {
  it('converts a count under a thousand, which no unit-free guess could', () => {
    expect(readTextRule('inclusion', 'Absolute neutrophil count of at least 750/mcL', {}).rule).toMatchObject({ measure: 'ANC', value: 0.75, unit: '10^9/L' });
    expect(readTextRule('inclusion', 'Lymphocyte count ≥ 400 cells/mcL', {}).rule).toMatchObject({ measure: 'lymphocytes', value: 0.4 });
  });

  it('sends a bound no person could have in the rule’s unit to a person', () => {
    const read = readTextRule('inclusion', 'Neutrophils 800 or more', {});
    expect(read.needsReview).toBe(true);
    expect(read.reasons).toContain('implausible');
  });

  it('sends a bound written in the other common unit without it to a person, and reads it with the unit', () => {
    // g/L, mmol/mol and µmol/L written bare: 95 g/dL of haemoglobin or an HbA1c of 58% would refuse or take everyone.
    for (const text of ['Haemoglobin of at least 95', 'HbA1c no higher than 58', 'Serum albumin 28 or more', 'Creatinine up to 130'])
      expect(readTextRule('inclusion', text, {}).reasons).toContain('implausible');
    expect(readTextRule('inclusion', 'Haemoglobin of at least 95 g/L', {})).toMatchObject({ rule: { value: 9.5, unit: 'g/dL' }, needsReview: false });
  });
});

describe('a lab value in a note no person could have in the measure’s unit (decision 315)', () => {
  it('is left unread rather than read as a value that decides criteria', () => {
    const labs = extractNoteFacts('Bloods on admission: neutrophils 700, haemoglobin 88, potassium 4.1.').filter((fact) => fact.kind === 'lab');
    expect(labs.map((fact) => [fact.name, fact.value])).toEqual([['potassium', 4.1]]);
  });
});
