import type { Mention } from '../vocabulary';

/**
 * "HIV-associated pulmonary arterial hypertension", "schistosomiasis-associated PAH", "chemotherapy-induced neuropathy",
 * "alcohol-related liver disease": the condition written after the link word is what the criterion names; the one
 * before it is its cause, a qualifier the rule does not hold (so its words leave the rule in review), never "has X" or
 * "takes X" (decision 301). "Y associated with X" and "Y secondary to X" already set X aside (`NOT_ASSERTED`).
 * A short form in brackets may sit between ("human immunodeficiency virus (HIV)-associated PAH").
 * Only where a condition follows the link: "AIDS-related illness" stays the HIV it names (decision 110).
 */
const CAUSE_LINK =
  /^(?:\s*\([^()]{1,12}\))?\)?\s*-?\s*(?:associated|related|induced|mediated|triggered|provoked|caused|driven|attributable|attributed)\s*(?:-\s*)?(?=[a-z(])(?!(?:with|to|by|from|in|for|and|or|at|on)\b|(?:illness|disease|condition|complication|event)s?\b)/i;

export function namedByItsCause(text: string, mention: Mention, found: Mention[]): boolean {
  const link = CAUSE_LINK.exec(text.slice(mention.end, mention.end + 30));
  if (!link) return false;
  // Only a condition the vocabulary reads within three words of the link: "asthma-related hospitalisation" names no
  // condition but the asthma, which stays as it was read.
  const after = mention.end + link[0].length;
  return found.some((other) => other.start >= after && /^[\s(-]*(?:[\w'-]+\s+){0,3}$/.test(text.slice(after, other.start)));
}
