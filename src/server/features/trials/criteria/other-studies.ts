import type { CriterionKind } from '../../../../contract/trials';
import { conceptRef, type Vocabulary } from '../vocabulary';
import { readWindow } from './durations';
import { leftover, NEAR_NEGATION, type Span, spanOf, type TextRule } from './text';

/**
 * Taking part in another study, however the study is called: "concurrent participation in other therapeutic trials",
 * "enrolled in another investigational drug treatment study", "receiving other investigational agents" (decision 245).
 * The vocabulary names the common forms ("another clinical trial"); a study's kind written between "another" and
 * "study" ("another family-based intervention trial", "any other surgical intervention studies") is still another study.
 * The rule is the vocabulary's own concept, so the question and the matcher are those of the forms it names.
 */

/** Words that qualify the other study without narrowing who is excluded beyond "another study". */
const STUDY_KIND = String.raw`((?:[a-z][\w/-]*\s+){0,4}?)`;
const OTHER = String.raw`(?:another|other|concurrent|simultaneous|separate|different|a\s+concurrent|a\s+simultaneous|a\s+different|a\s+separate|any\s+other)`;

/** "Participation in another ... study", "enrolled in a concurrent ... trial", "treated on any other ... protocols". */
const TAKING_PART = new RegExp(
  String.raw`\b(?:participat(?:ion|ing|es?|ed)|enrol(?:l)?(?:ment|ed|ing|s)?|taking\s+part|take\s+part|treated|registered|involvement)\s+(?:(?:currently|concurrently|simultaneously)\s+)?(?:in|on|into)\s+(?:an?\s+|any\s+)?${OTHER}\s+${STUDY_KIND}(?:stud(?:y|ies)|trials?|protocols?)\b`,
  'i',
);

/** "Receiving other investigational agents", "any other study agents": another study's medicine, the study's own excepted. */
const OTHER_STUDY_MEDICINE =
  /\b(?:receiv(?:e|es|ed|ing)|receipt\s+of|taking|using|use\s+of|treat(?:ed|ment)\s+with)\s+(?:any\s+)?(?:other|another)\s+(?:investigational|study|experimental|trial)\s+(?:agents?|drugs?|medications?|medicines?|products?|therap(?:y|ies)|treatments?)\b/i;

/** Words beside the phrase that say no more than when or how the person takes part. */
const UNDERSTOOD = new Set(
  'while during course duration this the study period patient patients may concurrent concurrently simultaneous simultaneously currently ongoing entry registration enrollment enrolment randomization randomisation prior screening time preceding same involving involves involved investigational experimental drugs drug agents agent products product devices device medical interventional therapeutic treatment clinical research randomized randomised trial trials'.split(
    ' ',
  ),
);

/** The rule of a criterion that is taking part in another study, or null. */
export function readOtherStudyRule(kind: CriterionKind, text: string, vocab: Vocabulary): TextRule | null {
  const found = TAKING_PART.exec(text) ?? OTHER_STUDY_MEDICINE.exec(text);
  if (!found) return null;
  // "Other than participation in this trial", "patients enrolled in another study of this sponsor are allowed": read by a person.
  if (/\b(?:allowed|permitted|eligible|acceptable|may\s+(?:participate|enrol|be\s+enrolled|take\s+part))\b/i.test(text)) return null;
  const concept = vocab.find('investigational drug')[0]?.concept;
  if (!concept) return null;
  const window = readWindow(text);
  const spans: Span[] = [[found.index, found.index + found[0].length], ...(window ? [window.span] : [])];
  // "May not be concurrently enrolled in another study": a negation turns the requirement, which a person confirms.
  const negated = NEAR_NEGATION.test(text.slice(Math.max(0, found.index - 40), found.index));
  // "Another family-based psychosocial trial", "other surgical studies": a kind of study that tests no medicine is more
  // than the concept says; a person reads it.
  const kindWords = (found[1] ?? '').toLowerCase().match(/[a-z][\w/-]*/g) ?? [];
  const unread = [...kindWords.filter((word) => !UNDERSTOOD.has(word)), ...leftover(text, spans, UNDERSTOOD)];
  const start = Math.min(...spans.map(([from]) => from));
  const end = Math.max(...spans.map(([, to]) => to));
  return {
    rule: {
      type: 'medication',
      medication: concept.en,
      taking: (kind === 'inclusion') !== negated,
      concepts: [conceptRef(concept)],
      ...(window ? { within: window.window } : {}),
      span: spanOf([start, end]),
    },
    needsReview: negated || unread.length > 0 || /[;\n]|\.\s+\w/.test(text),
    ...(unread.length ? { reasons: [`words: ${unread.join(' ')}`], unread } : {}),
  };
}
