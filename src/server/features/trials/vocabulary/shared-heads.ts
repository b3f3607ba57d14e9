import type { Token } from './normalize';

/**
 * A list of words sharing one head noun ("renal or hepatic impairment", "gastric or duodenal ulcer"): each word that
 * forms a concept with the head names that concept (coordination with an elided head; decisions 311 and 331).
 */

/** How the recognizer looks a phrase up: its own phrases (hand file, record terms) by words, the lexicon by keys. */
export type HeadLookup<C> = { phrase: (words: string) => C | undefined; term: (keys: string) => C | undefined };
/** A mention as the recognizer keeps it (its `Mention`, whose module imports this one). */
type Found<C> = { concept: C; start: number; end: number; narrower?: true };

/** Head nouns that a list of words can share ('renal or hepatic impairment', 'drug or alcohol addiction'). */
const SHARED_HEAD =
  /^(?:diseases?|disorders?|problems?|conditions?|impairments?|insufficiency|failure|infections?|cancers?|surger(?:y|ies)|transplant(?:s|ation)?|dysfunction|pain|abuse|misuse|addictions?|dependen(?:ce|cy))$/i;
const SHARED_HEAD_ANYWHERE =
  /\b(?:diseases?|disorders?|problems?|conditions?|impairments?|insufficiency|failure|infections?|cancers?|surger(?:y|ies)|transplant(?:s|ation)?|dysfunction|pain|abuse|misuse|addictions?|dependen(?:ce|cy))\b/i;

/** Words that say how much or how long of a condition, not which: never an item of a list sharing a head. */
const DEGREE_OR_COURSE =
  /^(?:active|inactive|chronic|acute|subacute|severe|mild|moderate|recurrent|persistent|uncontrolled|controlled|advanced|early|late|latent|current|prior|previous|past|significant|serious|known|suspected|major|minor|other|any|primary|secondary|upper|lower|new|old|stable|unstable)$/i;

/** "Gastric or duodenal ulcer": one word, a conjunction and a concept of two words, where the head may be any noun. */
const LIST_OF_WORDS = /\b[a-z]{3,}\s*(?:,|\/|\bor\b|\band\/or\b|\band\b)\s*[a-z-]{3,}\s+[a-z]{3,}\b/i;
/** A head noun of a two-word concept: a word, not a number or a short form's letters. */
const ANY_HEAD = /^[a-z]{3,}$/i;

/**
 * "Cardiovascular or liver disease", "renal, hepatic or cardiac impairment", "back and neck surgery": a list
 * of words sharing one head noun names one concept per word that forms a phrase with the head.
 */
export function withSharedHeads<C>(text: string, tokens: Token[], lower: string[], kept: Found<C>[], lookup: HeadLookup<C>): Found<C>[] {
  if (!SHARED_HEAD_ANYWHERE.test(text) && !LIST_OF_WORDS.test(text)) return kept;
  const isCovered = tokens.map((token) => kept.some((mention) => token.start >= mention.start && token.end <= mention.end));
  const conjunction = lower.map((word) => word === 'or' || word === 'and');
  const added: Found<C>[] = [];
  for (let index = 0; index < tokens.length - 2; index++) {
    if (isCovered[index] || !/^[a-z]{3,}$/i.test(tokens[index].word)) continue;
    // The word must be an item of a list: a comma, a slash or a conjunction right after it.
    if (!conjunction[index + 1] && !/[,/]/.test(text.slice(tokens[index].end, tokens[index + 1].start))) continue;
    // Then single words, each followed by a separator, up to the last one, which the head follows (organ lists run to a dozen).
    let head = -1;
    for (let next = index + 1, items = 0; next < tokens.length && items <= 16; next++) {
      const gap = text.slice(tokens[next - 1].end, tokens[next].start);
      if (!/^[\s,/]*$/.test(gap)) break;
      if (conjunction[next]) continue;
      const following = tokens[next + 1];
      if (!following) break;
      const separated = conjunction[next + 1] || /[,/]/.test(text.slice(tokens[next].end, following.start));
      if (!separated && SHARED_HEAD.test(following.word)) {
        if (!isCovered[next] || kept.some((mention) => mention.start === tokens[next].start && mention.end >= following.end)) head = next + 1;
        break;
      }
      if (isCovered[next]) {
        // "Cardiac or central nervous system disease": the last item is a concept of several words ending on the head.
        const whole = kept.find((mention) => mention.start === tokens[next].start);
        const last = whole ? tokens.findIndex((token) => token.end === whole.end) : -1;
        // Never a course or a degree ("active or chronic hepatitis B infection"): it qualifies the concept, names none.
        // "Gastric or duodenal ulcer", "ischemic or hemorrhagic stroke": any head is shared when the last item and the
        // head are one concept and the first item, no concept alone, forms one with the head too (checked below).
        if (
          last > next &&
          (last > next + 1 ? SHARED_HEAD.test(tokens[last].word) : ANY_HEAD.test(tokens[last].word)) &&
          !DEGREE_OR_COURSE.test(tokens[index].word)
        )
          head = last;
        break;
      }
      if (!separated) break;
      items++;
    }
    if (head < 0) continue;
    // "Low back and/or leg pain": a two-word item ("low back") is read whole when it names a concept with the head.
    const longer = index > 0 && !isCovered[index - 1] ? lookup.phrase(`${lower[index - 1]} ${lower[index]} ${lower[head]}`) : undefined;
    const concept = longer ?? lookup.phrase(`${lower[index]} ${lower[head]}`) ?? lookup.term(`${tokens[index].key} ${tokens[head].key}`);
    if (concept) added.push({ concept, start: tokens[longer ? index - 1 : index].start, end: tokens[index].end });
  }
  if (!added.length) return kept;
  return [...kept, ...added].sort((a, b) => a.start - b.start);
}

/** After the last item of such a list: the end, punctuation, or a word that starts the criterion's next clause. */
const LIST_END =
  /^(?:$|[\s]*[,.;:)(\]]|\s+(?:or|and|in|within|with|without|requiring|during|since|for|at|on|of|that|which|who|unless|except|other|not|no|if|as|before|after|\d))/i;

/**
 * "Atrial fibrillation or flutter", "ventricular tachycardia or fibrillation", "renal insufficiency or failure": a word
 * after a two-word concept and a conjunction that is no concept alone names the concept it forms with the first word
 * (coordination with an elided modifier; decision 338). Only when that phrase is a concept and the word ends the list.
 */
export function withSharedLeadWord<C>(text: string, tokens: Token[], lower: string[], kept: Found<C>[], lookup: HeadLookup<C>): Found<C>[] {
  if (!/\b(?:or|and)\b|,/i.test(text)) return kept;
  const added: Found<C>[] = [];
  const tokenAt = new Map(tokens.map((token, index) => [token.start, index]));
  for (const mention of kept) {
    const first = tokenAt.get(mention.start) ?? -1;
    if (first < 0 || tokens[first + 1]?.end !== mention.end) continue;
    const joined = tokens[first + 2];
    const word = tokens[first + 3];
    if (!joined || !word || !['or', 'and'].includes(lower[first + 2]) || !/^[a-z]{4,}$/i.test(word.word) || DEGREE_OR_COURSE.test(word.word)) continue;
    if (!/^\s+$/.test(text.slice(mention.end, joined.start)) || !/^\s+$/.test(text.slice(joined.end, word.start))) continue;
    if (kept.some((other) => other.start < word.end && word.start < other.end)) continue;
    if (!LIST_END.test(text.slice(word.end))) continue;
    const concept = lookup.phrase(`${lower[first]} ${lower[first + 3]}`) ?? lookup.term(`${tokens[first].key} ${word.key}`);
    if (concept && concept !== mention.concept) added.push({ concept, start: word.start, end: word.end });
  }
  if (!added.length) return kept;
  return [...kept, ...added].sort((a, b) => a.start - b.start);
}
