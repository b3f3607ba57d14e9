import { lexicon } from './lexicon';
import { phraseKey as normalisedKey } from './normalize';
import type { SynonymEntry } from './synonyms';

/**
 * Which synonyms of a hand entry name one member of its class (decision 151), from MeSH's tree and a medicine's route.
 * Split from index.ts (the recognizer) at its size limit.
 */

const COURSE_OR_SEVERITY = /\b(?:chronic|acute|active|morbid|severe|mild|moderate|recurrent|persistent|uncontrolled|advanced|early|late)\b/i;

/** How a medicine is given, as entries and criteria name it: "oral steroids" is one route of "steroid pills or injections". */
const ROUTES: RegExp[] = [
  /\b(?:oral(?:ly)?|pills?|tablets?|by mouth)\b/i,
  /\b(?:inject\w*|intravenous(?:ly)?|infusions?|intramuscular(?:ly)?|subcutaneous(?:ly)?)\b/i,
  /\binhal\w*/i,
  /\b(?:topical(?:ly)?|creams?|ointments?)\b/i,
  /\b(?:nasal|intranasal)\b/i,
];

/**
 * Synonyms of a hand entry that name one member of its class (decision 151): a MeSH heading under the entry's own
 * ("gastric ulcer" of the peptic ulcers), or one route of a class the entry names by several ("oral steroids" of steroid
 * pills or injections). A criterion naming only a member is narrower than the rule; a person checks it.
 */
export function derivedMembers(entry: SynonymEntry, named: number | undefined): string[] {
  const lex = lexicon();
  const entryRoutes = ROUTES.filter((route) => route.test(entry.en));
  return entry.synonyms
    .map((synonym) => synonym.toLowerCase())
    .filter((synonym) => {
      const at = lex.term(normalisedKey(synonym));
      // A course or severity ("chronic hepatitis B", "morbid obesity") is a qualifier the reader holds or flags itself.
      if (named !== undefined && at !== undefined && at !== named && lex.isA(at, named)) return !COURSE_OR_SEVERITY.test(synonym);
      const route = ROUTES.find((item) => item.test(synonym));
      return Boolean(route && entryRoutes.some((other) => other !== route));
    });
}
