/**
 * How a phrase becomes the key it is looked up by, the same for the vocabulary's build script and the
 * recognizer (decision 126): words (letters and digits; a hyphen or slash splits them), lower case, British
 * spellings in their American form, a plural in its singular. "Oedematous tumours" and "edematous tumor",
 * "Non-Small-Cell" and "non small cell" are one key.
 */

export interface Token {
  /** The word as written ("HIV", "Crohn's"). */
  word: string;
  /** Its key: lower case, American spelling, singular, no possessive. */
  key: string;
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{N}]+(?:['’]\p{L}+)?/gu;

/** British spellings at a word's start or inside it -> American (oedema, anaemia, haemorrhage, oesophagus, tumour, paediatric, aetiology, amoebic). */
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
  [/^aetiol/, 'etiol'],
  [/^amoeb/, 'ameb'],
  [/^diarrhoe/, 'diarrhe'],
  [/^faec/, 'fec'],
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
/**
 * Words criteria write in a second spelling that no MeSH 2024 term uses ("allogenic stem cell transplant" for
 * allogeneic; "leucopenia"), so mapping them to MeSH's spelling changes no key of the compiled vocabulary.
 */
const VARIANT_SPELLING = new Map([
  ['allogenic', 'allogeneic'],
  ['syngenic', 'syngeneic'],
  ['leucopenia', 'leukopenia'],
  ['leucopenic', 'leukopenic'],
]);
/** "-our" words that are not British spellings of "-or" (four, hour, your, pour, flour, sour, tour, contour). */
const OUR_WORDS = /^(?:four|hour|your|pour|flour|sour|tour|contour|devour|detour|dour|our|ours|yours|hours|fours|tours|contours|detours)$/;
/** Words ending in "s" that are no plurals ("diabetes", "sepsis", "herpes", "abscess", "AIDS", "analysis", "mumps"). */
const NOT_PLURAL =
  /(?:ss|us|is|ics|ous|ness|betes|pes|aids|mumps|measles|rabies|scabies|caries|series|species|lues|tetanus|pubes|feces|faeces|plexus|sinus|virus|status|tinnitus|lupus|pemphigus|mellitus|insipidus|clostridiodes|gas|has|was|yes|bus|this|its|thus|plus|less|afterwards|always|perhaps|towards|whereas|sometimes|crisis|cirrhosis|diagnosis|nephrosis|sclerosis|stenosis|thrombosis|fibrosis|psoriasis|osis|itis|iasis|ysis|esis|asis)$/;
const ES_PLURAL = /(?:sses|shes|xes)$/;

/** A word in lower case in MeSH's spelling where criteria write another (`VARIANT_SPELLING`): hand phrases match it too. */
export const standardSpelling = (lowerWord: string) => VARIANT_SPELLING.get(lowerWord) ?? lowerWord;

/** One word's key: lower case, American spelling, singular, an eponym without its possessive ("Crohn's" -> "crohn"). */
export function wordKey(word: string): string {
  // MeSH writes eponyms both ways ("Crohn Disease", "Crohn's Disease") but not always both (decision 216).
  let key = singular(word.toLowerCase().replace('’', "'").replace(/'s$/, ''));
  key = VARIANT_SPELLING.get(key) ?? key;
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

/** The words of a text with their offsets and keys; "Crohn's disease" -> crohn, disease; "HIV-1" -> HIV, 1. */
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

/**
 * Words MeSH itself writes one for the other in the names of a heading ("Kidney Calculi" / "Renal Calculi", "Heart
 * Arrest" / "Cardiac Arrest", "Type II" / "Type 2"): each pair is found in the entry terms of several headings (the
 * count is how many of MeSH 2024's disease headings pair them). A heading's name written with the other word of a pair
 * names the same heading (decision 216). Pairs MeSH also writes but that change the meaning (primary/secondary,
 * benign/malignant, cancer/carcinoma, i/ii) are not here.
 */
// biome-ignore format: a table
export const PAIRED_WORDS: ReadonlyArray<readonly [string, string, number]> = [
  ['disease', 'disorder', 63], ['tumor', 'neoplasm', 39], ['brain', 'cerebral', 16], ['heart', 'cardiac', 18],
  ['kidney', 'renal', 12], ['liver', 'hepatic', 12], ['lung', 'pulmonary', 12], ['hypersensitivity', 'allergy', 12],
  ['infarction', 'infarct', 11], ['aorta', 'aortic', 11], ['stomach', 'gastric', 9], ['muscle', 'muscular', 7],
  ['tooth', 'dental', 7], ['eye', 'ocular', 6], ['operation', 'procedure', 6], ['skin', 'cutaneous', 5],
  ['artery', 'arterial', 4], ['breast', 'mammary', 4], ['ovary', 'ovarian', 3], ['uterus', 'uterine', 3], ['nose', 'nasal', 3],
  ['colon', 'colonic', 2], ['intestine', 'intestinal', 2], ['1', 'i', 37], ['2', 'ii', 36], ['3', 'iii', 17], ['4', 'iv', 8],
];
const PAIRED = new Map<string, string>(PAIRED_WORDS.flatMap(([a, b]) => [[a, b] as [string, string], [b, a] as [string, string]]));
/**
 * A disease's plain head nouns: "heart problems" are heart disease, "hearing problems" hearing disorders, a
 * "cardiovascular illness" cardiovascular disease (decision 313).
 */
const LAY_HEAD = new Set(['disease', 'disorder']);
const LAY_HEADS = ['problem', 'illness'];

/**
 * A key's other forms with one word of a pair replaced ("renal calculus" -> "kidney calculus"), and a disease's or
 * disorder's last word as "problem" or "illness" ("heart disease" -> "heart problem", "heart illness"). One word at a
 * time, so a derived form stays one step from MeSH's own wording.
 */
export function pairedForms(key: string): string[] {
  const words = key.split(' ');
  if (words.length < 2) return [];
  const forms: string[] = [];
  for (const [at, word] of words.entries()) {
    const other = PAIRED.get(word);
    if (other) forms.push([...words.slice(0, at), other, ...words.slice(at + 1)].join(' '));
  }
  if (LAY_HEAD.has(words.at(-1)!)) for (const head of LAY_HEADS) forms.push([...words.slice(0, -1), head].join(' '));
  return forms;
}
