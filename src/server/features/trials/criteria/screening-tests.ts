import type { Vocabulary } from '../vocabulary';
import { isTechnique } from '../vocabulary/treatment';
import { criterionMentions } from './criterion-mentions';
import { siteCheck } from './study-conduct';
import { labelLength, type TextRule } from './text';

/**
 * The study's own screening tests (decision 267): "History/physical examination within 28 days prior to registration",
 * "CT of the chest, abdomen and pelvis performed within 4 weeks before study entry", "chest X-ray within the last 6
 * months", "pulmonary function tests within 2 weeks of registration". A criterion that is only a test, scan or
 * examination and the window it must fall in says what the site must have on file before it enrols the person: staff
 * order or look up the test and its date; the person is asked nothing. A site check, which refuses no one by itself.
 *
 * Only the whole criterion: a test and its window, with nothing else said. A test named with what it must show ("a CT
 * showing no metastases", "QTc ≥ 450 ms on ECG"), a value, a condition or a medicine the vocabulary names is a
 * requirement of its own, which other readers read or a person reads.
 */

/** Words that may stand before a test's name: "a baseline", "current", "chest", "brain". */
const BEFORE_TEST = String.raw`(?:(?:an?|the|one|plain|recent|current|baseline|screening|pre-?treatment|pre-?operative|pre-?study|staging|diagnostic|complete|full|contrast(?:[- ]enhanced)?|chest|brain|head|cardiac|abdominal|whole[- ]body|bone|diagnostic-quality|standard|routine|12-lead|resting)\s+){0,3}`;

/** A test, scan or examination's name. */
const TEST_NAME = String.raw`(?:x-?rays?|radiographs?|ct(?:\s+scans?)?|cat\s+scans?|computed\s+tomography(?:\s+scans?)?|mri(?:\s+scans?)?|mr\s+imaging|magnetic\s+resonance\s+imaging(?:\s+scans?)?|pet(?:[-/]ct)?(?:\s+scans?)?|bone\s+scans?|imaging(?:\s+studies)?|ecgs?|ekgs?|electrocardiograms?|echocardiograms?|echo|muga(?:\s+scans?)?|multi-?gated\s+acquisition\s+scans?|pulmonary\s+function\s+tests?|pfts?|(?:physical|neurologic(?:al)?|ophthalmologic(?:al)?|eye|dental|clinical)\s+exam(?:ination)?s?|history\s*(?:and|&|\/)\s*physical(?:\s+exam(?:ination)?s?)?|h\s*&\s*p|laboratory\s+(?:tests?|studies|evaluations?|values)|screening\s+labs|blood\s+tests?)`;

/** The first test, after the person it is asked of: "patients must have had a CT scan". */
const FIRST_TEST = new RegExp(
  String.raw`^\W*(?:(?:the\s+)?(?:patients?|participants?|subjects?)\s+(?:must\s+)?(?:have\s+(?:had\s+)?)?|(?:must\s+have\s+(?:had\s+)?|requires?\s+|having\s+had\s+))?${BEFORE_TEST}${TEST_NAME}`,
  'i',
);
/** "CT scan and bone scan", "history/physical examination, ECG and echocardiogram": several tests, each named whole. */
const NEXT_TEST = new RegExp(String.raw`^\s*(?:,|\band\b|\bor\b|\band\/or\b|\bplus\b|\/|\+)\s*(?:,\s*)?${BEFORE_TEST}${TEST_NAME}`, 'i');

/** What the window counts from: the study's own events. */
const STUDY_EVENT = String.raw`(?:(?:the\s+)?(?:study\s+)?(?:registration|enrol(?:l)?ment|randomi[sz]ation|entry|inclusion|screening(?:\s+visit)?|baseline(?:\s+visit)?|consent|informed\s+consent|study\s+start|start\s+of\s+(?:the\s+)?study(?:\s+(?:treatment|therapy|drug))?|(?:the\s+)?first\s+dose(?:\s+of\s+(?:the\s+)?(?:study\s+)?(?:drug|treatment|therapy|medication))?|day\s+1|cycle\s+1(?:,?\s+day\s+1)?|(?:initiation|start)\s+of\s+(?:the\s+)?(?:study\s+|protocol\s+)?(?:treatment|therapy)|treatment\s+start|surgery|the\s+(?:operation|procedure)))`;
const NUMBER = String.raw`(?:\d+(?:[.,]\d+)?|one|two|three|four|five|six|seven|eight|ten|twelve|fourteen|twenty-?eight|thirty)(?:\s*\(\d+\))?`;
const UNIT = String.raw`(?:days?|weeks?|months?|years?)`;

/**
 * "Within 28 days prior to registration", "within the last 6 months", "within the 90-day pre-operative period",
 * "prior to study entry", "performed at screening": the window the test must fall in, and nothing after it.
 */
const WINDOW = new RegExp(
  String.raw`^\s*(?:(?:is\s+|are\s+|must\s+be\s+|should\s+be\s+)?(?:performed|obtained|done|completed|conducted|taken|available|carried\s+out)\s+)?(?:(?:with)?in\s+(?:the\s+)?(?:(?:last|past|previous|preceding)\s+)?${NUMBER}\s*${UNIT}(?:\s+(?:prior\s+to|before|of|preceding|from)\s+${STUDY_EVENT})?|within\s+the\s+${NUMBER}[- ]?(?:days?|weeks?)\s+(?:pre-?operative|pre-?treatment|screening|pre-?study)\s+(?:period|window)|(?:prior\s+to|before)\s+${STUDY_EVENT}|at\s+(?:the\s+)?(?:screening|baseline)(?:\s+visit)?)(?:\s+or\s+at\s+(?:the\s+)?(?:screening|baseline)(?:\s+visit)?)?`,
  'i',
);

/** "Of the chest, abdomen and pelvis", "including diffusion capacity", "with neurological examination": what the test covers. */
const COVERS =
  /^\s*(?:of\s+(?:the\s+)?(?:chest|abdomen|pelvis|head|brain|neck|spine|thorax|heart|whole\s+body)(?:\s*(?:,\s*(?:and\s+)?|\band\b|\/)\s*(?:the\s+)?(?:chest|abdomen|pelvis|head|brain|neck|spine|thorax|heart))*|(?:,\s*)?(?:including|with)\s+(?:(?:a\s+)?(?:diffusion\s+capacity|dlco|neurologic(?:al)?\s+exam(?:ination)?|resting\s+heart\s+rate|vital\s+signs|weight|blood\s+pressure|contrast)(?:\s*(?:,|\band\b)\s*)?)+)/i;

/** What a test must show or measure: a requirement of its own. */
const FINDING =
  /[<>≤≥=%]|\b(?:show\w*|demonstrat\w*|reveal\w*|confirm\w*|consistent|evidence|normal|abnormal\w*|positive|negative|no\s+|not|without|result\w*|findings?|values?|greater|less|more|above|below|at\s+least|suitab\w*|eligib\w*)\b/i;

/** Parentheses hold the test's short name ("(CT CAP)", "(PFTs)"), read as the name it repeats. */
const withoutParentheses = (body: string) => body.replace(/\s*\([^()]{1,40}\)/g, '');

export function readScreeningTestRule(text: string, vocab: Vocabulary): TextRule | null {
  const body = withoutParentheses(text.slice(labelLength(text)));
  if (FINDING.test(body) || /[;\n]/.test(body)) return null;
  const first = FIRST_TEST.exec(body);
  if (!first) return null;
  let rest = skipAll(body.slice(first[0].length), [COVERS, NEXT_TEST]);
  const window = WINDOW.exec(rest);
  if (!window) return null;
  // "... within 28 days prior to registration, including resting heart rate": what the test covers may follow its window.
  rest = skipAll(rest.slice(window[0].length), [COVERS]);
  if (/\w/.test(rest)) return null;
  // The vocabulary is asked last (the costly step): a condition or medicine named is a person's to read.
  return namesConditionOrMedicine(text, vocab) ? null : siteCheck(text, 'protocol');
}

/** The text after every leading match of the patterns, in any order. */
function skipAll(text: string, patterns: readonly RegExp[]): string {
  let rest = text;
  for (let moved = true; moved; ) {
    moved = false;
    for (const pattern of patterns) {
      const match = pattern.exec(rest);
      if (match?.[0]) {
        rest = rest.slice(match[0].length);
        moved = true;
      }
    }
  }
  return rest;
}

/** A condition or medicine the vocabulary names, not counting the tests themselves (MeSH techniques, tree E). */
function namesConditionOrMedicine(text: string, vocab: Vocabulary): boolean {
  return criterionMentions(vocab, text).some(
    (mention) => mention.concept.kind === 'medication' || (mention.concept.kind === 'condition' && !isTechnique(mention.concept, vocab)),
  );
}
