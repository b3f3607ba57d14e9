import { lexicon } from './lexicon';
import { type Concept, type Vocabulary, vocabulary } from './index';
import { treatmentAt } from './treatment-trees';

/**
 * A concept a person is given or undergoes as a treatment (decision 254): a medicine or drug class, or an operation or
 * therapy MeSH files under E02 or E04 (surgery, radiotherapy, transplantation, chemotherapy, dialysis). A procedure
 * MeSH also files under diagnosis (E01: biopsy, colonoscopy) or a disease (C) is not one.
 */
export function isTreatment(concept: Concept): boolean {
  return treatmentAt(concept.id, concept.kind, vocabulary().lexiconIndex(concept.id));
}

/** A MeSH technique (every tree under E: analytical, diagnostic and therapeutic techniques), in the given vocabulary. */
export function isTechnique(concept: Concept, vocab: Vocabulary = vocabulary()): boolean {
  const at = vocab.lexiconIndex(concept.id);
  const trees = at === undefined ? [] : lexicon().concepts[at].trees;
  return trees.length > 0 && trees.every((tree) => tree.startsWith('E'));
}
