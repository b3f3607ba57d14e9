import { describe, expect, it } from 'vitest';
import { extractNoteFacts } from '../../../src/server/features/matching/note-extractor';

/** Decision 329: a disease in remission is had, not now; a medicine's clause after a comma ends a denial. New wording. */
const today = new Date('2026-06-15T12:00:00Z');
const status = (note: string, name: string) => extractNoteFacts(note, { today }).find((fact) => fact.name === name)?.status;

describe('a disease the note says is gone', () => {
  it('is history when the patient is disease-free after it, or has no evidence of it left', () => {
    expect(status('Recurrence-free since 2019 following breast cancer.', 'breast cancer')).toBe('history');
    expect(status('Hodgkin lymphoma at 22, no evidence of disease since.', 'lymphoma')).toBe('history');
    expect(status('Renal cell carcinoma, NED.', 'renal cell carcinoma')).toBe('history');
  });

  it('stays present without such words, or when only activity is denied', () => {
    expect(status('Breast cancer on letrozole.', 'breast cancer')).toBe('present');
    expect(status('Hypertension and gout, no active disease.', 'high blood pressure')).toBe('present');
  });
});

describe("a medicine's clause after a denial", () => {
  it('is not denied with what came before it', () => {
    expect(status('Psoriatic arthritis, no swollen joints, on methotrexate weekly.', 'methotrexate')).toBe('present');
    expect(status('Denies chest pain, taking atorvastatin nightly.', 'atorvastatin')).toBe('present');
    expect(status('No fever, cough or wheeze.', 'cough')).toBe('absent');
  });
});
