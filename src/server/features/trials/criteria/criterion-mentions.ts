import { isA, type Mention, type Vocabulary } from '../vocabulary';
import { readAntibodyTests } from '../vocabulary/antibody-tests';
import { wholePairSpans } from './qualifiers';

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
  wholePairHeads(vocab, text, found);
  readAntibodyTests(vocab, text, found);
  lastRead.set(vocab, { text, mentions: found.map((mention) => ({ ...mention })) });
  return found;
}

/**
 * "Active or latent tuberculosis", "primary or secondary hyperparathyroidism": a pair of opposite kinds names every form
 * (decision 240), so the heading read from the pair's last word with the head ("latent tuberculosis", a heading of its
 * own since decision 346) stands for the head alone ("tuberculosis"), when the head is one concept the kind sits under.
 */
function wholePairHeads(vocab: Vocabulary, text: string, found: Mention[]): void {
  if (!/\bor\b|\//i.test(text)) return;
  for (const [start, end] of wholePairSpans(text)) {
    const mention = found.find((item) => item.start > start && item.start < end && item.end > end);
    if (mention?.concept.kind !== 'condition') continue;
    const words = text.slice(end, mention.end);
    const head = vocab.find(words, { reach: 'full', trialIdioms: true });
    const whole = head.length === 1 && head[0].start === words.length - words.trimStart().length && head[0].end === words.length;
    if (whole && head[0].concept.kind === 'condition' && head[0].concept.id !== mention.concept.id && isA(mention.concept.id, head[0].concept.id))
      mention.concept = head[0].concept;
  }
}
