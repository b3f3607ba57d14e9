import { lexicon } from './lexicon';

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
 * `isTreatment` on a concept's id, kind and place in the lexicon (`at`), without the vocabulary: the recognizer asks it
 * while it reads (reversed.ts), so this file imports nothing that imports the recognizer (decision 254).
 */
export function treatmentAt(conceptId: string, kind: string, at: number | undefined): boolean {
  if (kind === 'medication') return true;
  if (HAND_TREATMENTS.has(conceptId)) return true;
  if (at === undefined) return false;
  const trees = lexicon().concepts[at].trees;
  return trees.some((tree) => THERAPY_TREE.test(tree)) && !trees.some((tree) => tree.startsWith('E01') || tree.startsWith('C'));
}
