import type { Vocabulary } from '../vocabulary';
import { joinNames, type Span, type TextRule } from './text';
import { criterionMentions } from './criterion-mentions';

/**
 * A vaccine named for its antigen or kind ("influenza vaccine", "vaccination against hepatitis B", "previous
 * vaccination with the study antigen (RSV)", "a live vaccine") is that vaccine, never vaccines in general: read as
 * "a vaccine", an exclusion would refuse everyone ever vaccinated (decision 191). Where the vocabulary has no concept
 * for the named vaccine, the general one is taken out of the rule, and the antigen is not a condition the person has.
 */

const GENERIC_VACCINE_ID = 'cohortly:vaccine';

/** "Flu shot", "booster shot": a shot is a vaccine only named by the word before it. */
const VACCINE_WORD = /\b(?:vaccin\w*|immuni[sz](?:ation|ations|ed)|(?<=[a-z]\s)shots?)\b/gi;

/**
 * Words before "vaccine" that do not narrow it ("any other vaccine", "prior receipt of a vaccine"), and words that end
 * the vaccine's name ("syndrome after vaccination", "hypersensitivity to vaccines": what comes before is not its antigen).
 */
const GENERIC_BEFORE = new Set(
  'a an any the other another all prior previous previously recent recently receipt received receive receiving of use used with one more additional routine standard licensed approved authorized authorised registered marketed concomitant or and no to in on at for from by within after before during following since than is are was were be been has have had having get got given administered take taken taking who that which'.split(
    ' ',
  ),
);

/** "Vaccination against hepatitis B", "vaccine for the prevention of shingles", "with the study antigen": what it is against. */
const NAMED_AFTER =
  /^\s+(?:against|for|with|to\s+prevent|targeting)\s+(?!(?:the\s+)?(?:last|past|previous|prior|next|first|duration|period)\b|\d|(?:a|an|any|other|another)\s+(?:other\s+)?(?:[\w-]+\s+)?vaccin|any\b|at\s+least\b)([^.;,:\n]{1,60})/i;

/** The words naming each vaccine's antigen or kind, where the vocabulary reads only "a vaccine" there. */
export function namedVaccineSpans(text: string, vocab: Vocabulary): Span[] {
  const specific = criterionMentions(vocab, text).filter(
    (mention) =>
      mention.concept.kind === 'medication' && mention.concept.id !== GENERIC_VACCINE_ID && /vaccin|immuni/i.test(text.slice(mention.start, mention.end)),
  );
  const spans: Span[] = [];
  for (const word of text.matchAll(VACCINE_WORD)) {
    const [start, end] = [word.index, word.index + word[0].length];
    // "An RSV vaccine", "pneumococcal vaccines": the vocabulary names that vaccine.
    if (specific.some((mention) => mention.start <= start && mention.end >= end)) continue;
    const before = namedBefore(text.slice(0, start));
    if (before !== null) spans.push([before, start]);
    const after = NAMED_AFTER.exec(text.slice(end));
    if (after) spans.push([end + after[0].length - after[1].length, end + after[0].length]);
  }
  return spans;
}

/** Where the words naming the vaccine start ("respiratory syncytial virus vaccine", "(RSV) vaccine"), or null. */
function namedBefore(before: string): number | null {
  let at = before.length;
  // A few words at most: "respiratory syncytial virus (RSV) vaccine".
  for (let words = 0; words < 6; words++) {
    const previous = /(\([^()]{1,20}\)|[A-Za-z0-9][\w'’]*)[\s-]*$/.exec(before.slice(0, at));
    if (!previous || GENERIC_BEFORE.has(previous[1].toLowerCase())) break;
    at = previous.index;
  }
  return at < before.length ? at : null;
}

/**
 * A rule read from a criterion naming a vaccine: without the general vaccine and any concept inside the antigen's words
 * ("RSV" of "RSV vaccination" is not an RSV infection). What remains is kept for a person to check; nothing remains, no
 * rule.
 */
export function narrowNamedVaccine(read: TextRule, text: string, vocab: Vocabulary): TextRule {
  const rule = read.rule;
  if (!rule || (rule.type !== 'medication' && rule.type !== 'condition')) return read;
  const spans = namedVaccineSpans(text, vocab);
  if (!spans.length) return read;
  const inAntigen = new Set(
    criterionMentions(vocab, text)
      .filter((mention) => spans.some(([start, end]) => mention.start < end && mention.end > start))
      .map((mention) => mention.concept.id),
  );
  const concepts = rule.concepts ?? [];
  const kept = concepts.filter((concept) => concept.id !== GENERIC_VACCINE_ID && !inAntigen.has(concept.id));
  if (kept.length === concepts.length) return read;
  const reasons = [...(read.reasons ?? []), 'named vaccine'];
  if (!kept.length || rule.type !== 'medication') return { rule: null, needsReview: true, reasons, unread: read.unread };
  return {
    ...read,
    rule: { ...rule, concepts: kept, medication: joinNames(kept.map((concept) => concept.name)) ?? rule.medication },
    needsReview: true,
    reasons,
  };
}
