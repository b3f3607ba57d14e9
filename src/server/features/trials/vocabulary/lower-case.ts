import { CLINICAL_SHORT_FORMS } from './hand/clinical-short-forms';
import { tokenize } from './normalize';
import { SYNONYMS } from './synonyms';

/**
 * A text written all in lower case (the criterion sentences corpus; a chat answer typed without capitals) has lost the
 * capitals that make "COPD", "NSCLC" or "T2DM" a short form: there, each hand short form of three letters or more is
 * read in lower case too (decision 237). Not the ambiguous ones ("ALL", "TTP"), which need capitals and support, nor
 * those that are English words ("hearing aids", "a shopping cart", "the gist", "a pad"), nor two letters ("mm", "ms").
 */
const ENGLISH_WORDS = new Set(['aids', 'cart', 'gist', 'pad', 'imp', 'sad', 'tab', 'gib', 'mvp']);

const wordsOf = (phrase: string) =>
  tokenize(phrase)
    .map((token) => token.word)
    .join(' ');

let capitalised: Map<string, string> | null = null;

/** The hand short form (its exact key) that a lower-case key names, if any. */
export function capitalisedShortForm(key: string, ambiguous: (written: string) => boolean): string | undefined {
  capitalised ??= new Map(
    // The short forms MeSH lacks (decision 309) too, those written all in capitals: "PsA" in lower case is also PSA.
    [...SYNONYMS.flatMap((entry) => entry.caseSensitive ?? []), ...CLINICAL_SHORT_FORMS.map(({ form }) => form).filter((form) => !/[a-z]/.test(form))]
      .filter((form) => (form.match(/[a-z]/gi)?.length ?? 0) >= 3 && /[A-Z]/.test(form) && !ENGLISH_WORDS.has(form.toLowerCase()))
      .map((form) => [wordsOf(form.toLowerCase()), wordsOf(form)]),
  );
  const form = capitalised.get(key);
  return form === undefined || ambiguous(form) ? undefined : form;
}

/**
 * "SSRI's", "NSAID's", "ACEi's": a short form written with an apostrophe before its plural "s" is the short form (MeSH and
 * the hand file hold "SSRI", "NSAIDs"). Only a word of capitals ("HIV's" is HIV too), or in a text written all in lower
 * case a known short form of five letters or fewer (`lowerCaseShortForm`), so "crohn's" or "mother's" keep their reading.
 */
export function shortFormOfPlural(word: string, lowerCaseShortForm: ((base: string) => boolean) | null): string {
  const base = /^([\p{L}\p{N}]{2,8})['’]s$/u.exec(word)?.[1];
  if (!base) return word;
  if (/^[A-Z][A-Z0-9]*[A-Z0-9][a-z]?$/.test(base)) return base;
  return base.length <= 5 && lowerCaseShortForm?.(base) ? base : word;
}
