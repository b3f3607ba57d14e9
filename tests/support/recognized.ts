import { meshIdByName } from '../../src/server/features/trials/vocabulary';
import { recognize } from '../../src/server/features/trials/vocabulary/recognizer';

/** What the recognizer tests read back (tests/unit/vocabulary-*.test.ts). */

/** A MeSH heading's id by its name; throws when the heading is not in the vocabulary. */
export const meshId = (name: string) => {
  const found = meshIdByName(name);
  if (!found) throw new Error(`no heading ${name}`);
  return found;
};
/** "words=concept id" for each mention, in order. */
export const recognizedAs = (text: string) => recognize(text).map((found) => `${text.slice(found.start, found.end)}=${found.conceptId}`);
/** The words of each mention the recognizer offers as a treatment. */
export const treatmentWords = (text: string) => recognize(text).flatMap((found) => (found.treatment ? [text.slice(found.start, found.end)] : []));
