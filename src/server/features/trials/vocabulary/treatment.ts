import { lexicon } from './lexicon';
import { type Concept, type Vocabulary, vocabulary } from './index';

/**
 * Hand concepts of operations and therapies that name no MeSH heading of their own (the hand file's wording of them
 * is wider or narrower than any heading): treatments by what they are.
 */
const HAND_TREATMENTS = new Set([
  'cohortly:major-surgery',
  'cohortly:prior-surgery',
  'cohortly:spine-surgery',
  'cohortly:neck-surgery',
  'cohortly:microdiscectomy',
  'cohortly:dialysis',
]);

/** MeSH's therapeutics (E02) and surgical procedures (E04). */
const THERAPY_TREE = /^E0[24]\b/;

/**
 * A concept a person is given or undergoes as a treatment (decision 254): a medicine or drug class, or an operation or
 * therapy MeSH files under E02 or E04 (surgery, radiotherapy, transplantation, chemotherapy, dialysis). A procedure
 * MeSH also files under diagnosis (E01: biopsy, colonoscopy) or a disease (C) is not one.
 */
export function isTreatment(concept: Concept): boolean {
  if (concept.kind === 'medication') return true;
  if (HAND_TREATMENTS.has(concept.id)) return true;
  const at = vocabulary().lexiconIndex(concept.id);
  if (at === undefined) return false;
  const trees = lexicon().concepts[at].trees;
  return trees.some((tree) => THERAPY_TREE.test(tree)) && !trees.some((tree) => tree.startsWith('E01') || tree.startsWith('C'));
}

/** A MeSH technique (every tree under E: analytical, diagnostic and therapeutic techniques), in the given vocabulary. */
export function isTechnique(concept: Concept, vocab: Vocabulary = vocabulary()): boolean {
  const at = vocab.lexiconIndex(concept.id);
  const trees = at === undefined ? [] : lexicon().concepts[at].trees;
  return trees.length > 0 && trees.every((tree) => tree.startsWith('E'));
}
