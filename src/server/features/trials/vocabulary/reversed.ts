import type { Token } from './normalize';
import { treatmentAt } from './treatment-trees';

/** The concept the recognizer found: its id and kind. */
export interface Found {
  id: string;
  kind: string;
}

/**
 * Words joined to a concept that make it something else (decisions 216, 290, 291). The recognizer asks `turnOf` for
 * every concept it finds: the concept is read as it is (null), not read (`drop`), or read as the opposite heading the
 * lexicon names with certainty (`opposite`: the keys to try, in order, over the tokens `from`..`to`).
 */
export type Turn = null | 'drop' | { keys: string[]; from: number; to: number };

/** A prefix that makes the word it is joined to something else: "pseudo-gout" is no gout (decision 216). */
const NOT_THE_CONCEPT = /^pseudo$/i;

/**
 * A word after a substance that names its opposite (decision 290): "androgen deprivation", "estrogen blockade",
 * "steroid withdrawal", "iron depletion" are no taking of the substance; nor is its receptor ("hormone receptor-positive",
 * "estrogen receptor", decision 316).
 */
const REVERSING_AFTER =
  /^(?:deprivation|deprived|suppression|suppressive|suppressing|blockade|blocker|blocking|withdrawal|withdrawn|antagonists?|antagonism|inhibitors?|inhibition|inhibiting|depletion|depleting|receptors?)$/i;
/** The reversing words whose opposite is MeSH's antagonist or inhibitor heading of the substance, when it has one. */
const ANTAGONIST_AFTER = /^(?:blockade|blocker|blocking|antagonists?|antagonism)$/i;
/** "Anti-androgen", "anti estrogen": the prefix names the substance's antagonist. */
const ANTI = /^anti$/i;

/** What a resemblance names after "like" written apart: "flu like symptoms", "lupus like illness" (decision 314). */
const RESEMBLING = /^(?:symptoms?|illness(?:es)?|syndromes?|diseases?|reactions?|episodes?|presentations?|features|picture|signs)$/i;

/** "Flu-like symptoms", "lupus-like syndrome", "allergic-like reaction": what resembles the concept is not it (decision 314). */
function resemblance(text: string, tokens: Token[], index: number, size: number): boolean {
  const last = index + size - 1;
  const after = tokens[last + 1];
  if (!after || !/^like$/i.test(after.word)) return false;
  const joint = gap(text, tokens, last);
  if (joint === '-') return true;
  const noun = tokens[last + 2];
  return joint === ' ' && Boolean(noun) && gap(text, tokens, last + 1) === ' ' && RESEMBLING.test(noun.word);
}

/** "Post-transplant", "pre-operative": a time word joined by a hyphen (decision 291). */
const TIME_PREFIX = /^(?:post|pre|peri)$/i;

function gap(text: string, tokens: Token[], before: number): string {
  return text.slice(tokens[before].end, tokens[before + 1].start);
}

function antagonistKeys(words: string): string[] {
  return [`${words} antagonist`, `${words} inhibitor`, `anti${words.replace(/ /g, '')}`];
}

/** The substance's turn by a word after it ("androgen deprivation") or the prefix "anti-" before it. */
function substanceTurn(text: string, tokens: Token[], index: number, size: number): Turn {
  const words = tokens
    .slice(index, index + size)
    .map((token) => token.key)
    .join(' ');
  const before = index > 0 && ANTI.test(tokens[index - 1].word) && /^[-\s]$/.test(gap(text, tokens, index - 1));
  if (before) return { keys: antagonistKeys(words), from: index - 1, to: index + size - 1 };
  // "Non-biologic DMARDs", "non-opioid analgesics": every medicine but this one (decision 307).
  if (index > 0 && /^non$/i.test(tokens[index - 1].word) && gap(text, tokens, index - 1) === '-') return 'drop';
  const last = index + size - 1;
  const after = tokens[last + 1];
  if (!after || !REVERSING_AFTER.test(after.word) || !/^[-\s]$/.test(gap(text, tokens, last))) return null;
  return ANTAGONIST_AFTER.test(after.word) ? { keys: antagonistKeys(words), from: index, to: last + 1 } : 'drop';
}

/**
 * "Post-transplant baseline", "pre-operative period": a treatment joined to "post-"/"pre-" and followed by the word it
 * qualifies is a time, not the treatment (criteria only: a note's "post-transplant day 30" tells the operation happened).
 */
function timeTurn(text: string, tokens: Token[], index: number, size: number, concept: Found, at: number | undefined): Turn {
  if (index === 0 || !TIME_PREFIX.test(tokens[index - 1].word) || gap(text, tokens, index - 1) !== '-') return null;
  const next = tokens[index + size];
  if (!next || !/^ +$/.test(gap(text, tokens, index + size - 1))) return null;
  return treatmentAt(concept.id, concept.kind, at) ? 'drop' : null;
}

/** How the words joined to the concept at `index` turn it; `criteria` for the criteria reader's time words. */
export function turnOf(
  text: string,
  tokens: Token[],
  index: number,
  size: number,
  concept: Found,
  lexiconIndex: (id: string) => number | undefined,
  criteria: boolean,
): Turn {
  if (index > 0 && gap(text, tokens, index - 1) === '-' && NOT_THE_CONCEPT.test(tokens[index - 1].word)) return 'drop';
  if (resemblance(text, tokens, index, size)) return 'drop';
  const time = criteria ? timeTurn(text, tokens, index, size, concept, lexiconIndex(concept.id)) : null;
  return time ?? (concept.kind === 'medication' ? substanceTurn(text, tokens, index, size) : null);
}
