import type { Mention, Vocabulary } from '../vocabulary';

/** Per vocabulary (the record's, or the product's), the last criterion words read and the concepts found in them. */
const lastRead = new WeakMap<Vocabulary, { text: string; mentions: readonly Mention[] }>();

/**
 * The concepts named in a criterion's words, as the criteria reader reads them (every MeSH term, the trial idioms).
 * The reader asks this of one criterion's words several times in a row (its rule, its comparisons, its site checks,
 * its vaccines): the last answer is kept (decision 276), and each caller gets mentions of its own, since callers
 * extend and mark them.
 */
export function criterionMentions(vocab: Vocabulary, text: string): Mention[] {
  const last = lastRead.get(vocab);
  if (last?.text === text) return last.mentions.map((mention) => ({ ...mention }));
  const found = vocab.find(text, { reach: 'full', trialIdioms: true });
  lastRead.set(vocab, { text, mentions: found.map((mention) => ({ ...mention })) });
  return found;
}
