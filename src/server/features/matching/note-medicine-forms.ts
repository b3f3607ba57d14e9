import type { Mention, Vocabulary } from '../trials/vocabulary';

/**
 * How notes write medicines that the shared vocabulary reads wrongly or not at all (decision 205). Only the note reader
 * uses these: the vocabulary is the criteria reader's too, where "biologic" also means "biologic sex".
 * - A medicine put on the skin, in the eye or the nose ("topical corticosteroids", "tacrolimus ointment",
 *   "prednisolone eye drops", "fluticasone nasal spray") is not the systemic class its name belongs to: a steroid
 *   cream is not "steroid pills or injections", a tacrolimus ointment does not weaken the immune system. The note
 *   keeps the medicine in its own words, without the class, so it never fails "no systemic corticosteroids".
 * - A biologic named as one ("failed a biologic", "no prior systemic biologic", "another biologic") is the class of
 *   biologic medicines, and "biologic-naive" / "naive to biologics" denies it.
 * - An allergy list and a denied allergy (decision 194), moved here from note-extractor.ts.
 */

/** A local route right before the medicine, with at most two words between that do not join another route. */
const LOCAL_BEFORE = /\b(?:topical(?:ly)?|ophthalmic|intranasal|intravaginal|rectal)\s+((?:[a-z][\w-]*\s+){0,2})$/i;
const JOINS_ANOTHER_ROUTE = /\b(?:and|or|oral|orally|systemic|intravenous|iv|injected|injectable|injections?)\b/i;
/** A local form right after it, with an optional strength: "ointment", "1% cream", "eye drops", "nasal spray". */
const LOCAL_AFTER =
  /^\s*(?:\(?\d+(?:\.\d+)?\s*%\)?\s*)?(?:topical\s+)?(?:creams?|ointments?|gels?|lotions?|foams?|shampoos?|(?:eye|ear)\s+drops|drops|nasal\s+sprays?|enemas?|suppositor(?:y|ies))\b/i;

/** For a medicine put on the skin, the eye or the nose, or given rectally: the name it keeps (the note's words, with the form or the route); null for any other. */
export function localMedicineName(sentence: string, start: number, end: number): string | null {
  const before = LOCAL_BEFORE.exec(sentence.slice(Math.max(0, start - 40), start));
  const after = LOCAL_AFTER.exec(sentence.slice(end, end + 30));
  if (!after && !(before && !JOINS_ANOTHER_ROUTE.test(before[1]))) return null;
  const words = sentence.slice(start, end).toLowerCase();
  const form = after?.[0].trim().replace(/^\(?\d+(?:\.\d+)?\s*%\)?\s*/, '');
  return form ? `${words} ${form.toLowerCase()}` : `topical ${words}`;
}

/** "A biologic", "another biologic", "systemic biologic", "biologic-naive": a biologic medicine (not "biologic sex"). */
const BIOLOGIC =
  /\b(?:(?:a|an|any|another|one|two|three|prior|previous|systemic|first|second|third|other)\s+)(?:(?:systemic|prior|other|previous)\s+)?(biologic)\b(?!\s+(?:sex|mother|father|parents?|children|child|siblings?))|\b(biologic)[-\s]+na[iï]ve\b|\bna[iï]ve\s+to\s+(?:all\s+|any\s+)?(biologics?)\b/gi;

/** The sentence's biologic mentions that the vocabulary did not read, in the sentence's offsets. */
export function biologicMentions(sentence: string, vocab: Vocabulary, mentions: readonly Mention[]): Mention[] {
  if (!/biologic/i.test(sentence)) return [];
  const biologics = biologicsOf(vocab);
  if (!biologics) return [];
  const found: Mention[] = [];
  BIOLOGIC.lastIndex = 0;
  for (let match = BIOLOGIC.exec(sentence); match; match = BIOLOGIC.exec(sentence)) {
    const word = match[1] ?? match[2] ?? match[3];
    const start = match.index + match[0].lastIndexOf(word);
    const end = start + word.length;
    if (!mentions.some((mention) => mention.start < end && start < mention.end)) found.push({ concept: biologics, start, end });
  }
  return found;
}

/** Whether a mention of the biologic class is said never to have been given ("biologic-naive", "naive to biologics"). */
export function saidNaive(sentence: string, { concept, start, end }: Mention): boolean {
  if (!biologicConcept || concept.id !== biologicConcept.id) return false;
  return (
    /^[-\s]+na[iï]ve\b/i.test(sentence.slice(end, end + 8)) || /\bna[iï]ve\s+to\s+(?:all\s+|any\s+)?$/i.test(sentence.slice(Math.max(0, start - 20), start))
  );
}

/** The vocabulary's biologic class, looked up once by its own name. */
let biologicConcept: Mention['concept'] | null | undefined;
function biologicsOf(vocab: Vocabulary): Mention['concept'] | null {
  if (biologicConcept === undefined) {
    const read = vocab.find('biologics', { reach: 'full' });
    biologicConcept = read.length === 1 ? read[0].concept : null;
  }
  return biologicConcept;
}

/** "Allergies: amoxicillin (rash), codeine (nausea)": every medicine of a list under an allergy heading, up to the list's end (decision 194). */
const ALLERGY_HEADING = /^\s*(?:(?:drug|medication|medicine)\s+)?allerg(?:y|ies)\s*:/i;
export const inAllergyList = (sentence: string, start: number) =>
  ALLERGY_HEADING.test(sentence) && !/[;]|\b(?:medications?|meds|medicines|takes|taking|on)\b/i.test(sentence.slice(sentence.indexOf(':') + 1, start));

/** An allergy cue before the medicine that is itself denied ("no known allergy to", "denies allergies:", "not allergic to"). */
const DENIED_ALLERGY = /\b(?:no|not|denies|denied|deny|without|never|nkda|nka)\b[^.;]*$/i;
export const allergyDenied = (sentence: string, start: number) => DENIED_ALLERGY.test(sentence.slice(Math.max(0, start - 40), start));
