import { underHeadings } from './concept-hierarchy';

/**
 * Infections that are acute by their nature (decision 298): a person who has one now has an acute illness, so an
 * exclusion of "acute illness", "acute infection" or "an acute respiratory infection" is decided by it, as a
 * coordinator would. Only infections that have no chronic form in MeSH or in practice: a respiratory syncytial
 * virus infection, influenza, COVID-19 (the lasting condition after it is another concept, post-acute COVID-19
 * syndrome) and the common cold; and a fever had now, whatever concept the vocabulary reads it as (a fever is an acute
 * sign; a lasting one, "fever of unknown origin for 2 months", is past the 4 weeks below). An infection that may be
 * chronic (hepatitis, pyelonephritis, sinusitis, bronchitis) is left to the note's own words ("acute pyelonephritis").
 */
const ACUTE_HEADINGS = ['Respiratory Syncytial Virus Infections', 'Influenza, Human', 'COVID-19', 'Common Cold'];
/** Past this many days since its onset a present infection is not read as acute by its nature: the note's own words decide. */
const ACUTE_DAYS = 28;
const FEVER = /^(?:fevers?|febrile|pyrexi(?:a|al))$/i;
const DAY_MS = 86_400_000;

const acuteByNature = underHeadings(ACUTE_HEADINGS);

/**
 * A present condition's qualifiers with "acute" added where it is an infection acute by its nature or a fever (`words`,
 * the note's own), begun within 4 weeks of the note's day or undated, and the note does not call it chronic or
 * recurrent; otherwise the qualifiers as read.
 */
export function withAcuteByNature(conceptId: string, words: string, qualifiers: readonly string[], since: string | null, today: Date): string[] {
  if (qualifiers.includes('acute') || qualifiers.includes('chronic') || qualifiers.includes('recurrent')) return [...qualifiers];
  if (!FEVER.test(words.trim()) && !acuteByNature(conceptId)) return [...qualifiers];
  if (since && today.getTime() - Date.parse(`${since}T00:00:00Z`) > ACUTE_DAYS * DAY_MS) return [...qualifiers];
  return ['acute', ...qualifiers];
}
