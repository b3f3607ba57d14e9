import { withoutExample } from '../vocabulary';
import type { ConceptScope } from './concept-scope';
import type { Span } from './text';
import { isAllergy } from './medications';

/**
 * Words a concept rule understands beyond its concepts' own words: for an allergy, a medicine received, an organ
 * transplant, and the words of the concepts' plain names (the rest are `understoodWords` in concepts.ts).
 */

const ORGAN_TRANSPLANT = 'cohortly:organ-transplant';

/**
 * "Receipt of a live vaccine within 30 days": what was received is what was taken. "Solid organ transplant": "solid" is
 * what "organ" says against a bone marrow or stem cell transplant, a concept of its own. "Allogeneic organ transplant":
 * an organ comes from another person; only when every concept is the organ transplant, as a stem cell transplant or a
 * tissue graft is often the person's own (decision 360).
 */
export function receiptAndTransplantWords({ first, unique }: ConceptScope): string[] {
  const words: string[] = [];
  if (first.concept.kind === 'medication') words.push('receipt');
  if (unique.some((mention) => mention.concept.id === ORGAN_TRANSPLANT)) words.push('solid');
  if (unique.every((mention) => mention.concept.id === ORGAN_TRANSPLANT)) words.push('allogeneic', 'allogenic');
  return words;
}

/**
 * "Ritonavir-containing products", "a methotrexate-containing regimen": what contains a medicine gives the medicine, which
 * the rule names (decision 374). Only the noun right after "containing" (a word between, "containing systemic regimen",
 * stays unread).
 */
const CONTAINING =
  /^[\s-]*containing\s+(products?|regimens?|medications?|medicines?|drugs?|agents?|therap(?:y|ies)|treatments?|combinations?|formulations?|preparations?)\b/i;
export function containingWords({ text, same }: ConceptScope): string[] {
  const words: string[] = [];
  for (const mention of same) {
    const found = mention.concept.kind === 'medication' ? CONTAINING.exec(text.slice(mention.end, mention.end + 50)) : null;
    if (found) words.push('containing', found[1].toLowerCase());
  }
  return words;
}

/** The words of an allergy to the study's own product, which is what the allergy concept means. */
const ALLERGY_WORDS = [
  'its',
  'allergy',
  'allergies',
  'allergic',
  'hypersensitivity',
  // "Severe hypersensitivity reactions to the study drug": the reaction is the allergy.
  'reaction',
  'reactions',
  'excipient',
  'excipients',
  'ingredient',
  'ingredients',
  'component',
  'components',
  'formulation',
  'product',
  'products',
  'investigational',
];

/**
 * "Hypersensitivity to the study drug or its excipients": the study's own product is what the allergy concept means;
 * "allergy to opioids or any of their components": a medicine's components are the medicine's. "The active substance"
 * is the European label's name for the study's own medicine (decision 360).
 */
export function allergyWords({ text, unique, allergens }: ConceptScope): string[] {
  if (!unique.some(isAllergy) && !allergens) return [];
  return /\bactive\s+(?:substances?|ingredients?|compounds?)\b/i.test(text) ? [...ALLERGY_WORDS, 'active', 'substance', 'substances'] : ALLERGY_WORDS;
}

/**
 * "Cirrhosis of the liver", "implanted pacemaker or defibrillator": a word of the concept's own plain name (never of the
 * example it gives, "such as warfarin") says no more than the concept the rule names (decision 362). Only beside its
 * own mention, up to the list's next or previous item: "abdominal" of "intra-abdominal abscess" says nothing of an
 * "abdominal fistula" read as any fistula (decision 378). The spans of such words.
 */
export function ownNameSpans({ text, same }: ConceptScope): Span[] {
  const spans: Span[] = [];
  for (const mention of same) {
    const words = new Set(
      (
        withoutExample(mention.concept.en)
          .toLowerCase()
          .match(/[a-z]{4,}/g) ?? []
      ).filter((word) => !FUNCTION_WORD.test(word)),
    );
    if (!words.size) continue;
    // A name that joins words itself ("a pacemaker or implanted defibrillator") reaches over its own conjunction.
    const boundary = /\b(?:or|and)\b/i.test(mention.concept.en) ? PUNCTUATION : ITEM_BOUNDARY;
    const before = text.slice(0, mention.start);
    const from = Math.max(0, ...[...before.matchAll(new RegExp(boundary.source, 'gi'))].map((match) => match.index + match[0].length));
    // "Substance use disorders, including alcohol": the examples after the concept are its own.
    const after = boundary.exec(text.slice(mention.end).replace(EXAMPLES_START, (words) => ' '.repeat(words.length)));
    const to = after ? mention.end + after.index : text.length;
    for (const word of text.slice(from, to).matchAll(/[a-z]{4,}/gi))
      if (words.has(word[0].toLowerCase())) spans.push([from + word.index, from + word.index + word[0].length]);
  }
  return spans;
}
/** Where one item of a list ends and the next begins. */
const ITEM_BOUNDARY = /[,;:()\n]|\b(?:or|and|nor)\b/i;
const PUNCTUATION = /[,;:()\n]/;
const EXAMPLES_START = /^\s*[,(]?\s*(?:including|such\s+as|e\.\s?g\.?,?|i\.\s?e\.?,?)/i;

/** Words of a plain name that carry no concept of their own, and "other", "another", which set things apart. */
const FUNCTION_WORD =
  /^(?:that|this|these|those|with|without|from|like|such|other|another|than|have|been|being|your|into|them|they|their|what|when|where|which|some|more|less|only|over|under|about|after|before|down|most|very|both|either|also|will|does)$/;
