/**
 * One hand entry of the reviewed vocabulary (src/server/features/trials/vocabulary/synonyms.ts gathers them): its shape and
 * the two constructors the data files use.
 */

export type ConceptKind = 'condition' | 'medication';

export interface SynonymEntry {
  id: string;
  kind: ConceptKind;
  /** The plain name used in patient questions. */
  en: string;
  es: string;
  meshTerm?: string;
  icd10?: string;
  synonyms: string[];
  caseSensitive?: string[];
  /** Patients cannot answer it themselves (a finding on imaging, histology, a lab value). */
  clinicianOnly?: boolean;
  /** Synonyms that name one member of the concept's class ("syphilis" of the sexually transmitted infections): a
   * criterion that names only a member is narrower than the rule, which a person then checks (decision 110). */
  members?: string[];
  /**
   * A trial idiom ("previous operations", "failed conservative treatment"): read in eligibility criteria only. In a note
   * "surgical history" is a heading, not an operation the person had (decision 140).
   */
  criteriaOnly?: boolean;
}

export const c = (id: string, en: string, es: string, synonyms: string[], extra: Partial<SynonymEntry> = {}): SynonymEntry => ({
  id,
  kind: 'condition',
  en,
  es,
  synonyms,
  ...extra,
});
export const m = (id: string, en: string, es: string, synonyms: string[], extra: Partial<SynonymEntry> = {}): SynonymEntry => ({
  id,
  kind: 'medication',
  en,
  es,
  synonyms,
  ...extra,
});
