import type { Mention, Vocabulary } from '../vocabulary';

/** Mentions that take the words before a slash ("hyperosmolar state/coma" is hyperosmolar coma): the rule is broader. */
export const SHARED_MODIFIER = new WeakSet<Mention>();
export function markSharedModifiers(text: string, found: Mention[], vocab: Vocabulary): void {
  for (const [index, mention] of found.entries()) {
    const previous = found[index - 1];
    if (!previous || text.slice(previous.end, mention.start) !== '/' || !/^[a-z]{4,}$/i.test(text.slice(mention.start, mention.end))) continue;
    const modifier = /^(.+?)\s+\S+$/.exec(text.slice(previous.start, previous.end))?.[1];
    const joined = modifier && `${modifier} ${text.slice(mention.start, mention.end)}`;
    if (joined && vocab.find(joined, { reach: 'full' }).some((other) => other.start === 0 && other.end === joined.length)) SHARED_MODIFIER.add(mention);
  }
}
