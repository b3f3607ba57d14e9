import { vocabulary, type Concept } from './index';
import { isTreatment } from './treatment';

/**
 * The one concept recognizer (issue 30, decision 127): the note reader, FHIR and import columns, chat and call
 * answers read free text through it; the criteria reader through `Vocabulary.find` with the same engine. Longest
 * match over normalised words (case, plurals, hyphens, word order of MeSH's inverted headings, British spellings),
 * short forms defined in the text read as their definition, ambiguous ones only with support from the context.
 */

export interface RecognizedConcept {
  /** `mesh:<DescriptorUI>` or `cohortly:<id>` (a reviewed hand entry). */
  conceptId: string;
  kind: Concept['kind'];
  /** The plain name (the hand entry's, or MeSH's heading in plain words). */
  name: string;
  /** The MeSH heading the concept is or names, when it has one. */
  mesh: string | null;
  /** ICD-10-CM codes the concept maps to with certainty (decision 126). */
  icd10: readonly string[];
  /** A medicine, or an operation or therapy (MeSH E02, E04) a person is given: `isTreatment` (decision 254). */
  treatment: boolean;
  start: number;
  end: number;
  concept: Concept;
}

export interface RecognizeOptions {
  /** Concept ids the text is about (a trial's conditions): support for ambiguous short forms ("MS", "PE"). */
  context?: readonly string[];
}

/** Every concept the text names, in order, with its span. */
export function recognize(text: string, options: RecognizeOptions = {}): RecognizedConcept[] {
  return vocabulary()
    .find(text, { reach: 'full', context: options.context ?? [] })
    .map(({ concept, start, end }) => ({
      conceptId: concept.id,
      kind: concept.kind,
      name: concept.en,
      mesh: concept.descriptor ?? concept.mesh ?? null,
      icd10: concept.icd10Codes ?? (concept.icd10 ? [concept.icd10] : []),
      treatment: isTreatment(concept),
      start,
      end,
      concept,
    }));
}
