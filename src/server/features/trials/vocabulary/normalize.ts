/**
 * How a phrase becomes the key it is looked up by, the same for the vocabulary's build script and the
 * recognizer (decision 126): words (letters and digits; a hyphen or slash splits them), lower case, British
 * spellings in their American form, a plural in its singular. "Oedematous tumours" and "edematous tumor",
 * "Non-Small-Cell" and "non small cell" are one key.
 */

export interface Token {
  /** The word as written ("HIV", "Crohn's"). */
  word: string;
  /** Its key: lower case, American spelling, singular. */
  key: string;
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{N}]+(?:['’]\p{L}+)?/gu;

/** British spellings at a word's start or inside it -> American (oedema, anaemia, haemorrhage, oesophagus, tumour, paediatric). */
const SPELLING: Array<[RegExp, string]> = [
  [/^oe(?=dem|soph|strog|stradiol|strus)/, 'e'],
  [/^dioestr/, 'diestr'],
  [/^foet/, 'fet'],
  [/^haem/, 'hem'],
  [/^paed/, 'ped'],
  [/^orthopaed/, 'orthoped'],
  [/^gynaec/, 'gynec'],
  [/^anaes/, 'anes'],
  [/^caes/, 'ces'],
  [/aem(?=ia|ic)/, 'em'],
  [/^leukaem/, 'leukem'],
  [/^ischaem/, 'ischem'],
  [/^coeli/, 'celi'],
  [/^diarrhoe/, 'diarrhe'],
  [/^dyspnoe/, 'dyspne'],
  [/^apnoe/, 'apne'],
  [/^gonorrhoe/, 'gonorrhe'],
  [/^haemophil/, 'hemophil'],
  [/our$/, 'or'],
  [/^sulph/, 'sulf'],
  [/^aluminium$/, 'aluminum'],
  [/isation$/, 'ization'],
];
const BRITISH = /ae|oe|our|sulph|aluminium|isation/;
/** "-our" words that are not British spellings of "-or" (four, hour, your, pour, flour, sour, tour, contour). */
const OUR_WORDS = /^(?:four|hour|your|pour|flour|sour|tour|contour|devour|detour|dour|our|ours|yours|hours|fours|tours|contours|detours)$/;
/** Words ending in "s" that are no plurals ("diabetes", "sepsis", "herpes", "abscess", "AIDS", "analysis", "mumps"). */
const NOT_PLURAL =
  /(?:ss|us|is|ics|ous|ness|betes|pes|aids|mumps|measles|rabies|scabies|caries|series|species|lues|tetanus|pubes|feces|faeces|plexus|sinus|virus|status|tinnitus|lupus|pemphigus|mellitus|insipidus|clostridiodes|gas|has|was|yes|bus|this|its|thus|plus|less|afterwards|always|perhaps|towards|whereas|sometimes|crisis|cirrhosis|diagnosis|nephrosis|sclerosis|stenosis|thrombosis|fibrosis|psoriasis|osis|itis|iasis|ysis|esis|asis)$/;
const ES_PLURAL = /(?:sses|shes|xes)$/;

/** One word's key: lower case, American spelling, singular. */
export function wordKey(word: string): string {
  let key = singular(word.toLowerCase().replace('’', "'"));
  // Only a word with a British letter pair can change (most words have none: one test instead of twenty).
  if (key.length > 3 && BRITISH.test(key)) {
    for (const [pattern, replacement] of SPELLING) {
      if (replacement === 'or' && OUR_WORDS.test(key)) continue;
      key = key.replace(pattern, replacement);
    }
  }
  return key;
}

/** The singular of a word in lower case ("diseases" -> "disease", "allergies" -> "allergy", "cells" -> "cell"). */
export function singular(word: string): string {
  if (word.length < 4 || !word.endsWith('s') || /[^a-z]/.test(word)) return word;
  if (NOT_PLURAL.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (ES_PLURAL.test(word)) return word.slice(0, -2);
  // "viruses", "stenoses", "metastases": the Latin and Greek plurals of words the key keeps singular.
  if (word.length > 6 && word.endsWith('uses')) return word.slice(0, -2);
  if (word.length > 6 && /[^e]oses$/.test(word)) return `${word.slice(0, -2)}is`;
  if (word.length > 8 && word.endsWith('tases')) return `${word.slice(0, -2)}is`;
  if (word.endsWith('oes') && word.length > 5) return word.slice(0, -2);
  return word.slice(0, -1);
}

/** The words of a text with their offsets and keys; "Crohn's disease" -> crohn's, disease; "HIV-1" -> HIV, 1. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  WORD.lastIndex = 0;
  for (let match = WORD.exec(text); match; match = WORD.exec(text)) {
    const word = match[0].replace('’', "'");
    tokens.push({ word, key: wordKey(word), start: match.index, end: match.index + match[0].length });
  }
  return tokens;
}

/** A phrase's key: its words' keys joined by one space. */
export function phraseKey(phrase: string): string {
  return tokenize(phrase)
    .map((token) => token.key)
    .join(' ');
}

/** A phrase's case-sensitive key for short forms ("MS", "ALL"): its words as written, joined by one space. */
export function exactKey(phrase: string): string {
  return tokenize(phrase)
    .map((token) => token.word)
    .join(' ');
}

/**
 * The word orders a MeSH heading is written in: "Diabetes Mellitus, Type 2" is also "type 2 diabetes mellitus";
 * "Leukemia, Myeloid, Acute" is "acute myeloid leukemia"; "Carcinoma, Non-Small-Cell Lung" is "non-small-cell lung
 * carcinoma". A comma inside parentheses or a chemical name ("1,2-...") is left alone.
 */
export function wordOrders(term: string): string[] {
  const orders = [term];
  if (/\d,\d|\(|\[/.test(term)) return orders;
  const parts = term.split(/,\s+/);
  if (parts.length === 2 || parts.length === 3) orders.push([...parts].reverse().join(' '));
  return orders;
}
