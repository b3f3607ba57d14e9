import { NYHA_CLASS, nyhaLabel, nyhaRange } from '../../../contract/heart-failure-class';
import { kidneyStageLabel, kidneyStageOf } from '../../../contract/kidney-disease-stage';
import { ENGLISH_NUMBER_WORDS } from '../../number-words';
import { isA, meshIdByName } from '../trials/vocabulary';
import { discLevelsIn } from './spinal-levels';
/**
 * What a note says about one condition beyond its name (issue 31, decision 153): where it is (a spinal level, the
 * part of the spine; one side or both when the note says "unilateral" or "bilateral": a left-sided lesion does not
 * say its symptoms are one-sided), how it behaves (mild, severe, recurrent, acute...) and since when (a
 * duration or a date). Read only from the words that are the condition's own: its noun phrase ("recurrent left L4-L5
 * disc herniation") and a time phrase that attaches to it ("6 weeks of neck pain", "migraine since 2015", "a stroke 3
 * years ago"). Nothing is carried from elsewhere in the sentence, so a laterality or a duration of another complaint
 * never lands on this one: a word not read leaves the criterion unknown, which is the cheaper mistake.
 *
 * The qualifiers are written into the fact's name in the clinical words `contract/qualifiers.ts` looks for
 * ("a slipped (herniated) disc (recurrent, lumbar, unilateral)"), so the matcher's existing check decides a criterion
 * such as "lumbar disc herniation" or "moderate to severe HS" from them; the start of the condition becomes the fact's
 * date, read by the matcher as "began then or earlier" (evaluate.ts `lasted`, time windows).
 */

export interface ConditionDetails {
  /** Qualifier words, in `contract/qualifiers.ts`'s clinical labels. */
  qualifiers: string[];
  /** The day the condition began at the latest (YYYY-MM-DD), or null. */
  since: string | null;
  /**
   * How long the note says it has lasted, when its words state a length ("8 weeks of buttock pain", "eczema for the
   * past 3 years"), not a bound ("for at least 3 months", "over 6 months") nor a date or an age: the condition began
   * about then, so it has lasted less than one more unit (the matcher's `lastedFor`). Null otherwise.
   */
  stated: StatedDuration | null;
}

/** A length of time as a note states it: a count of days, weeks, months or years. */
export interface StatedDuration {
  value: number;
  unit: 'days' | 'weeks' | 'months' | 'years';
}

const NUMBER_WORDS: Record<string, number> = { ...ENGLISH_NUMBER_WORDS, a: 1, an: 1 };
const COUNT = String.raw`(\d{1,2}(?:\.5)?|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)`;
const UNIT = String.raw`(day|week|month|year|yr|wk|mo)s?`;

/** "8 weeks of", "a 10-year history of", "6-month history of": a duration just before the condition's phrase. */
const DURATION_BEFORE = new RegExp(
  String.raw`\b${COUNT}[- ]${UNIT}(?:[- ](?:long|old))?\s+(?:history\s+)?of\s+(?:(?!(?:and|or|with|but|then)\s)[a-z]+\s+){0,3}$`,
  'i',
);
/** "3 years after a", "2 months after his": an event dated before the condition's phrase. */
const AFTER_BEFORE = new RegExp(String.raw`\b${COUNT}[- ]${UNIT}\s+(?:after|following|post)\s+(?:an?\s+|the\s+|his\s+|her\s+|their\s+)?$`, 'i');
/** "for 6 months", "for the past 2 years", "x 3 weeks": a duration just after it. */
const DURATION_AFTER = new RegExp(
  String.raw`^\s*(?:,\s*)?(?:for|over|x)\s+(?:about\s+|approximately\s+|the\s+(?:past|last)\s+|at least\s+)?${COUNT}[- ]${UNIT}\b`,
  'i',
);
/** "3 years ago", "diagnosed 5 years ago", "(2 years ago)". */
const AGO_AFTER = new RegExp(
  String.raw`^\s*(?:,\s*|\(\s*)?(?:(?:first\s+)?(?:diagnosed|treated|operated|repaired|resected|removed|done|performed|started|began)\s+)?${COUNT}[- ]${UNIT}\s+ago\b`,
  'i',
);
/**
 * "since 2019", "diagnosed in 2015", "in 2012", "resected 2019", and past the place it was in: "of the calf excised in
 * 2023", "on the left cheek removed 2021". A place is read only before a verb of what was done, never alone. A year
 * alone right after the condition, closing its item, as problem lists write it: "MI 2015, CABG 2016", "breast cancer
 * (2012)" (decision 330); never a year that begins more words ("asthma 2010 to 2014").
 */
const YEAR_AFTER =
  /^\s*(?:,\s*|\(\s*)?(?:(?:(?:of|on|in)\s+(?:the\s+)?(?:(?:left|right|upper|lower)\s+)?[a-z]+,?\s+)?(?:first\s+)?(?:diagnosed|treated|operated|repaired|resected|removed|excised|biopsied|done|performed|started|began)\s+(?:in\s+)?|(?:in|since)\s+|(?=(?:19|20)\d\d\s*(?:[,;.)]|$)))((?:19|20)\d\d)\b/i;

/**
 * After a condition, words that say it was had and is not now: "cancer-free", "disease-free", and taken out ("basal cell
 * carcinoma removed 2021", "polyp resected", decision 325), never a plan ("to be resected", "scheduled to be removed",
 * "removed if growing").
 */
export const HAD_AFTER =
  /(?<=\w)-free\b|(?<!\b(?:be|plan:?|planned|awaiting|scheduled|for|if|needs?|will)\s+(?:completely\s+)?)\b(?:(?:was|were|has been|have been|had been)\s+)?(?:completely\s+)?(?:excised|resected|removed|ablated)\b(?!\s+(?:if|when|once|next|soon|tomorrow)\b)/gi;

/**
 * "Hypertension, well controlled on lisinopril", "diabetes (controlled)", "asthma that is poorly controlled": how well
 * the condition is controlled, said right after it (decision 359). Group 1 is the word that says how well.
 */
const CONTROL_AFTER =
  /^\s*(?:,\s*|\(\s*|\s+(?:which|that)\s+(?:is|was|has\s+been)\s+|\s+(?:is|was|has\s+been)\s+)?(?:(well|adequately|optimally|fully|poorly|badly|inadequately|sub-?optimally|not)[\s-]+)?controlled\b(?!-release)/i;
const NOT_CONTROLLED = /^(?:poorly|badly|inadequately|sub-?optimally|not)$/i;

/**
 * "COPD on 2 L home oxygen", "ILD, requiring supplemental oxygen", "emphysema (oxygen-dependent)": the condition treated
 * with oxygen given over time, said right after it (decision 365). Group 1 is how it is given. Never bare oxygen, which
 * a hospital note gives for the day.
 */
const OXYGEN_AFTER =
  /^\s*(?:,\s*|\(\s*)?(?:(?:who\s+is|is|was|now)\s+)?(?:(?:on|requiring|requires|needing|needs|using|uses|dependent\s+on)\s+(?:\d+(?:\.\d+)?\s*(?:l|liters?|litres?|lpm)(?:\s*\/\s*min)?\s+(?:of\s+)?)?(home|supplemental|continuous|nocturnal|long-term)\s+(?:oxygen|o2)\b|(oxygen)[- ]dependent\b)/i;

/** "..., moderate to severe," right after the condition, closed by a comma or the sentence's end. */
const SEVERITY_AFTER = /^\s*,\s*((?:mild|moderate|severe)(?:[- ]to[- ](?:moderate|severe))?)\s*(?:,|;|\.|$)/i;

/**
 * Right after a cancer, what says it has spread (decision 316): "with liver metastases", "metastatic to bone", "(stage
 * IV)", "with spread to the lungs". Only in the words that attach to it, never from elsewhere in the sentence.
 */
const SPREAD_AFTER =
  /^\s*(?:\([^()]{1,40}\)\s*)?(?:,\s*|\(\s*)?(?:(?:with|and)\s+(?:(?:multiple|widespread|diffuse|known|new)\s+)?(?:[a-z]+\s+){0,2}(?:metastas[ie]s|mets|spread\s+to)\b|metastatic\s+to\b|stage\s+(?:iv|4)\b)/i;
/** Right after a cancer, a stage III: advanced, not spread ("NSCLC, stage IIIB"). A short bracket may stand between ("(Ki-67 8%)"). */
const ADVANCED_AFTER = /^\s*(?:\([^()]{1,40}\)\s*)?(?:,\s*|\(\s*)?stage\s+(?:iii[abc]?|3[abc]?)\b/i;

/** "at L4-L5", "at the L5-S1 level", "at L4-5 and L5-S1": a disc's level just after the condition. */
const LEVEL_WORD = String.raw`[CTL]\d{1,2}\s*[-–/]\s*[CTLS]?\d{1,2}`;
const LEVELS_AFTER = new RegExp(String.raw`^\s*(?:at|of)\s+(?:the\s+)?(${LEVEL_WORD}(?:\s*(?:,|and|or)\s*${LEVEL_WORD})*)\b`, 'i');

/** "since age 20", "since the age of 12": read with the person's age. */
const SINCE_AGE_AFTER = /^\s*(?:,\s*)?since (?:the )?age (?:of )?(\d{1,2})\b/i;

/** Words a condition's own phrase may carry before its name; anything else (a verb, "of", "with", a comma) ends it. */
const PHRASE_WORD =
  /^(?:left|right|bilateral|unilateral|left-sided|right-sided|one-sided|central|paracentral|posterolateral|foraminal|far|lateral|extraforaminal|recurrent|chronic|acute|subacute|severe|mild|moderate|moderate-to-severe|mild-to-moderate|moderately|severely|significant|clinically|symptomatic|asymptomatic|degenerative|congenital|uncontrolled|poorly|well|controlled|well-controlled|poorly-controlled|intermittent|persistent|active|large|small|single-level|multilevel|multi-level|calcified|lumbar|lumbosacral|cervical|thoracic|spinal|disc|[CTLS]\d{1,2}(?:[-–/][CTLS]?\d{1,2})?|to|and|or|,|metastatic|advanced|locally|unresectable|inoperable|relapsed|refractory|triple-negative|stage|iv|iii[abc]?|[34][abc]?|hormone|receptor-(?:positive|negative)|(?:her-?2|hr|er|pr)(?:-?(?:positive|negative)|[+-])(?:\/(?:er|pr)(?:-?(?:positive|negative)|[+-]))?)$/i;

/** A spinal level ("L4-L5", "L5-S1", "C6", "T8-T9") -> the part of the spine; a level across two parts says none. */
function partOfLevel(level: string): string | null {
  const [first, second] = level.toUpperCase().split(/[-–/]/);
  const part = (letter: string) => (letter === 'L' ? 'lumbar' : letter === 'C' ? 'cervical' : letter === 'T' ? 'thoracic' : null);
  const a = part(first[0]);
  if (!a) return null;
  if (!second || /^\d/.test(second)) return a;
  if (second[0] === first[0] || (first[0] === 'L' && second[0] === 'S')) return a;
  return null;
}

/** The condition's own phrase before it: its words, nearest first, and where it begins (`from`, sentence offsets). */
function phraseBefore(sentence: string, start: number): { words: string[]; from: number } {
  const offset = Math.max(0, start - 80);
  const tokens = [...sentence.slice(offset, start).matchAll(/[^\s,]+|,/g)];
  const kept: Array<{ word: string; at: number }> = [];
  for (let i = tokens.length - 1; i >= 0 && kept.length < 8; i--) {
    if (!PHRASE_WORD.test(tokens[i][0])) break;
    kept.push({ word: tokens[i][0], at: offset + (tokens[i].index ?? 0) });
  }
  // A phrase does not begin on a joining word: in "neck pain and left", "and left" is not this condition's.
  while (kept.length && /^(?:to|and|or|,)$/i.test(kept[kept.length - 1].word)) kept.pop();
  return { words: kept.map((item) => item.word), from: kept.length ? kept[kept.length - 1].at : start };
}

const QUALIFIER_READINGS: Array<[RegExp, string]> = [
  [/^(?:recurrent)$/i, 'recurrent'],
  [/^(?:chronic)$/i, 'chronic'],
  [/^(?:acute)$/i, 'acute'],
  [/^(?:severe|severely)$/i, 'severe'],
  [/^(?:moderate|moderately)$/i, 'moderate'],
  [/^(?:mild)$/i, 'mild'],
  [/^moderate-to-severe$/i, 'moderate to severe'],
  [/^mild-to-moderate$/i, 'mild to moderate'],
  [/^(?:symptomatic)$/i, 'symptomatic'],
  [/^(?:degenerative)$/i, 'degenerative'],
  [/^(?:congenital)$/i, 'congenital'],
  [/^(?:uncontrolled)$/i, 'uncontrolled'],
  [/^(?:lumbar|lumbosacral)$/i, 'lumbar'],
  [/^(?:thoracic)$/i, 'thoracic'],
  [/^(?:unilateral|one-sided)$/i, 'unilateral'],
  [/^(?:bilateral)$/i, 'bilateral'],
  // A cancer's extent, course and receptors (decision 316), in the labels contract/qualifiers.ts holds.
  [/^metastatic$/i, 'metastatic'],
  [/^advanced$/i, 'advanced'],
  [/^(?:unresectable|inoperable)$/i, 'unresectable'],
  [/^refractory$/i, 'refractory'],
  [/^relapsed$/i, 'relapsed'],
  [/^her-?2(?:-?positive|\+)$/i, 'HER2-positive'],
  [/^her-?2(?:-?negative|-)$/i, 'HER2-negative'],
  // "ER+", "PR-positive", "ER+/PR-": either receptor positive is hormone receptor-positive.
  [
    /^(?:(?:hr|er|pr)(?:-?positive|\+)(?:\/(?:er|pr)(?:-?(?:positive|negative)|[+-]))?|(?:er|pr)(?:-?negative|-)\/(?:er|pr)(?:-?positive|\+))$/i,
    'hormone receptor-positive',
  ],
  [/^hr(?:-?negative|-)$/i, 'hormone receptor-negative'],
  [/^triple-negative$/i, 'triple-negative'],
];

/** A symptom felt down a limb, whose left or right says it is one-sided (a lesion's side does not: a left disc herniation may give pain in both legs). */
const ONE_LIMB_SYMPTOM = /\b(?:sciatica|radicul\w*|(?:leg|arm|thigh|calf) pain|radiat\w*|shoot\w*|travel\w*|spread\w*)/i;

/**
 * Qualifiers from the condition's phrase and its own words. "Cervical" is read only with a cervical level or another
 * spinal word in the phrase: alone it is as often the cervix. "Poorly controlled" is uncontrolled; "well controlled"
 * is controlled, the opposite (decision 359). A phrase naming two parts of the spine, or both one side and both, says neither.
 */
function qualifiersOf(phrase: string[], own: string, isCancer: () => boolean): string[] {
  const found = new Set<string>();
  const words = [...phrase, ...own.split(/\s+/)];
  // A comma ends the phrase a stage is read in: "CKD stage 4, hypertension" is no stage of the hypertension.
  const comma = words.indexOf(',');
  for (const [index, word] of words.entries()) {
    for (const [pattern, label] of QUALIFIER_READINGS) if (pattern.test(word)) found.add(label);
    if (/^[CTLS]\d/i.test(word) && /^[CTLS]\d{1,2}(?:[-–/][CTLS]?\d{1,2})?$/i.test(word)) {
      const part = partOfLevel(word);
      if (part) found.add(part);
      // The disc's level itself, so a criterion naming levels can be decided (spinal-levels.ts).
      for (const level of discLevelsIn(word)) found.add(level);
    }
    if (
      /^cervical$/i.test(word) &&
      words.some((other) => /^(?:spinal|disc|C\d{1,2}(?:[-–/]C?\d{1,2})?)$/i.test(other) || /\b(?:spine|disc|radicul|myelopath|root)/i.test(own))
    )
      found.add('cervical');
    if (/^poorly$/i.test(word) && /^controlled$/i.test(words[index - 1] ?? '')) found.add('uncontrolled');
    if (/^poorly-controlled$/i.test(word)) found.add('uncontrolled');
    // "Well controlled", "controlled hypertension": the opposite of uncontrolled, which answers it (decision 359).
    if (/^well-controlled$/i.test(word) || (/^controlled$/i.test(word) && !NOT_CONTROLLED.test(words[index + 1] ?? ''))) found.add('controlled');
    // "Hormone receptor-positive": the receptor's status in two words.
    // "Stage IV", "stage IIIB" before a cancer: spread, or advanced (decision 316); only a cancer's (decision 379).
    if (/^stage$/i.test(words[index + 1] ?? '') && (comma < 0 || index < comma) && isCancer()) {
      if (/^(?:iv|4)$/i.test(word)) found.add('metastatic');
      else if (/^(?:iii[abc]?|3[abc]?)$/i.test(word)) found.add('advanced');
    }
    // The phrase's words are nearest first, so the word written before this one comes after it here.
    if (/^receptor-(?:positive|negative)$/i.test(word) && /^hormone$/i.test(words[index + 1] ?? ''))
      found.add(/positive/i.test(word) ? 'hormone receptor-positive' : 'hormone receptor-negative');
    // Pain down one limb is one-sided by its side: "left sciatica", "pain radiating down the right leg" (decision 183).
    if (/^(?:left|right|left-sided|right-sided)$/i.test(word) && ONE_LIMB_SYMPTOM.test(own)) found.add('unilateral');
  }
  if (/\bboth (?:legs|arms|sides)\b/i.test(own) && ONE_LIMB_SYMPTOM.test(own)) found.add('bilateral');
  if (found.has('unilateral') && found.has('bilateral')) {
    found.delete('unilateral');
    found.delete('bilateral');
  }
  if (['lumbar', 'cervical', 'thoracic'].filter((part) => found.has(part)).length > 1)
    for (const part of ['lumbar', 'cervical', 'thoracic']) found.delete(part);
  return [...found];
}

const countOf = (word: string) => NUMBER_WORDS[word.toLowerCase()] ?? Number(word);

/** The day `count` units before `today` (YYYY-MM-DD). */
function before(today: Date, count: number, unit: string): string {
  const day = new Date(today.getTime());
  const u = unit.toLowerCase();
  if (u.startsWith('d')) day.setUTCDate(day.getUTCDate() - Math.round(count));
  else if (u.startsWith('w')) day.setUTCDate(day.getUTCDate() - Math.round(count * 7));
  else if (u.startsWith('m')) day.setUTCMonth(day.getUTCMonth() - Math.round(count));
  else day.setUTCMonth(day.getUTCMonth() - Math.round(count * 12));
  return day.toISOString().slice(0, 10);
}

/** "day", "wks", "mo", "yr" -> the stated unit's plural. */
function statedUnit(unit: string): StatedDuration['unit'] {
  const u = unit.toLowerCase();
  return u.startsWith('d') ? 'days' : u.startsWith('w') ? 'weeks' : u.startsWith('m') ? 'months' : 'years';
}

/** A bound, not a length: "for at least 3 months", "over 6 months", "for more than a year". */
const BOUND = String.raw`(?:over|at least|(?:more|greater|longer|less|fewer|shorter) than|under|up to|almost|nearly)`;
const BOUND_WORDS = new RegExp(String.raw`\b${BOUND}\b`, 'i');
/** The same bound just before a length: "at least 6 weeks of", "more than 2 years of", "> 3 months of". */
const BOUND_END = new RegExp(String.raw`(?:\b${BOUND}|[<>≥≤])\s*$`, 'i');

/** Words that describe a complaint itself, allowed between a length's "of" and the condition ("8 weeks of sharp ... pain"). */
const DESCRIBING =
  /^(?:sharp|dull|aching|achy|burning|shooting|stabbing|throbbing|cramping|constant|intermittent|progressive|progressively|worsening|increasing|persistent|episodic|daily|nightly|gradual|sudden|new|ongoing|continuous|debilitating|disabling|mechanical|axial|radiating|electric|low|lower|upper|mid|left|right|bilateral|unilateral|severe|mild|moderate|chronic|acute|recurrent)$/i;

/** When the condition began, at the latest, and how long the note says it has lasted, from a time phrase attached to it. */
function sinceOf(sentence: string, from: number, end: number, today: Date, age: number | null): Pick<ConditionDetails, 'since' | 'stated'> {
  // The condition's own phrase sits between the time words and its name: "8 weeks of sharp left buttock pain".
  const lead = sentence.slice(Math.max(0, from - 60), from);
  const tail = sentence.slice(end, end + 60);
  const lengthBefore = DURATION_BEFORE.exec(lead);
  const eventBefore = lengthBefore ? null : AFTER_BEFORE.exec(lead);
  const lengthAfter = lengthBefore || eventBefore ? null : DURATION_AFTER.exec(tail);
  const duration = lengthBefore ?? eventBefore ?? lengthAfter ?? AGO_AFTER.exec(tail);
  if (duration) {
    // "8 weeks of", "for the past 2 years" state a length; "3 years after a", "diagnosed 5 years ago" date an event the
    // condition may have begun before, and a bound ("at least 3 months of", "for over a year") is no length.
    const length = lengthBefore ?? lengthAfter;
    const prior = lengthBefore ? lead.slice(0, lengthBefore.index) : '';
    const bounded = length !== null && (BOUND_WORDS.test(length[0]) || BOUND_END.test(prior));
    // "6 weeks of physical therapy for sciatica" is the therapy's length: only words describing the condition itself
    // may stand between "of" and its phrase ("8 weeks of sharp, intermittent buttock pain").
    const between = lengthBefore
      ? lengthBefore[0]
          .replace(/^.*?\bof\s+/i, '')
          .split(/[\s,]+/)
          .filter(Boolean)
      : [];
    const own = between.every((word) => DESCRIBING.test(word));
    const stated = length && !bounded && own ? { value: countOf(length[1]), unit: statedUnit(length[2]) } : null;
    return { since: before(today, countOf(duration[1]), duration[2]), stated };
  }
  const sinceAge = SINCE_AGE_AFTER.exec(tail);
  if (sinceAge && age !== null && age >= Number(sinceAge[1])) return { since: before(today, Math.floor(age) - Number(sinceAge[1]), 'year'), stated: null };
  const year = YEAR_AFTER.exec(tail);
  // A year still to come is no date of what was had ("stroke 2031" is a slip or another number).
  if (!year || Number(year[1]) > today.getUTCFullYear()) return { since: null, stated: null };
  const latest = `${year[1]}-12-31`;
  const now = today.toISOString().slice(0, 10);
  return { since: latest < now ? latest : now, stated: null };
}

/** The details of the condition named at [start, end) of the sentence, read on `today` (the note's day), for a person of `age` years. */
export function conditionDetails(
  sentence: string,
  start: number,
  end: number,
  today: Date,
  /** The person's age when the note gives it as a number (a value of another kind is no age). */
  age: unknown = null,
  conceptId: string | null = null,
): ConditionDetails {
  const phrase = phraseBefore(sentence, start);
  // A severity in apposition after it: "atopic dermatitis, moderate to severe, involving ...".
  const apposed = SEVERITY_AFTER.exec(sentence.slice(end, end + 40));
  // Levels right after it: "disc herniation at L4-L5", "protrusion at L4-5 and L5-S1".
  const levels = LEVELS_AFTER.exec(sentence.slice(end, end + 40));
  // A cancer's spread or stage after its name is its own (decision 316): the words first, the hierarchy only when they are there.
  const after = sentence.slice(end, end + 60);
  const stated = SPREAD_AFTER.test(after) ? 'metastatic' : ADVANCED_AFTER.test(after) ? 'advanced' : null;
  const spread = stated !== null && conceptId !== null && isA(conceptId, 'mesh:D009369') ? stated : null;
  const control = CONTROL_AFTER.exec(sentence.slice(end, end + 50));
  const oxygen = OXYGEN_AFTER.exec(sentence.slice(end, end + 60));
  const words = [
    ...(spread ? [spread] : []),
    ...(control ? [control[1] && NOT_CONTROLLED.test(control[1]) ? 'uncontrolled' : 'well-controlled'] : []),
    ...phrase.words,
    ...(apposed ? apposed[1].split(/[\s-]+/).filter((word) => word !== 'to') : []),
    ...(levels ? levels[1].split(/\s*(?:,|and|or)\s*/) : []),
  ];
  // The oxygen's own words, which contract/qualifiers.ts's `oxygen_treatment` holds ("on home oxygen", "oxygen-dependent").
  const treatment = oxygen ? [oxygen[1] ? `on ${oxygen[1].toLowerCase()} oxygen` : 'oxygen-dependent'] : [];
  const heartFailureClass = conceptId !== null && NAMES_NYHA.test(sentence) && isA(conceptId, HEART_FAILURE_ID) ? nyhaClassBeside(sentence) : null;
  const kidneyStage = conceptId !== null && NAMES_STAGE.test(sentence) ? kidneyStageBeside(sentence, start, end, conceptId) : null;
  return {
    qualifiers: [
      ...qualifiersOf(words, sentence.slice(start, end), () => conceptId !== null && isA(conceptId, 'mesh:D009369')),
      ...treatment,
      ...(heartFailureClass ? [heartFailureClass] : []),
      ...(kidneyStage ? [kidneyStage] : []),
    ],
    ...sinceOf(sentence, phrase.from, end, today, typeof age === 'number' ? age : null),
  };
}

const HEART_FAILURE_ID = 'cohortly:heart-failure';
/** A cheap look for a stage before the hierarchy is walked. */
const NAMES_STAGE = /\bstage\b|\bg[345]/i;
const KIDNEY_STAGE = String.raw`(3a|3b|iii[ab]?|[345]|iv|v)(?![a-z\d])`;
const STAGE_BEFORE = new RegExp(String.raw`\b(?:stage|g)\s*${KIDNEY_STAGE}\s+(?:chronic\s+)?$`, 'i');
const STAGE_AFTER = new RegExp(String.raw`^\s*(?:,\s*|\(\s*(?:ckd\s*)?)?(?:stage|g)\s*${KIDNEY_STAGE}`, 'i');
let chronicKidneyDisease: string | null | undefined;

/**
 * "CKD stage 4", "stage 3b chronic kidney disease", "chronic kidney disease (stage IV)" (decision 379): the stage of a
 * chronic kidney disease, written beside it, in the words contract/kidney-disease-stage.ts reads back ("CKD stage 4"),
 * so the eGFR it implies can decide a criterion (implied-measures.ts). Stages 1 and 2 say no rate and are not read.
 */
function kidneyStageBeside(sentence: string, start: number, end: number, conceptId: string): string | null {
  const written = STAGE_AFTER.exec(sentence.slice(end, end + 20))?.[1] ?? STAGE_BEFORE.exec(sentence.slice(Math.max(0, start - 25), start))?.[1];
  const stage = written ? kidneyStageOf(written) : null;
  if (!stage) return null;
  if (chronicKidneyDisease === undefined) chronicKidneyDisease = meshIdByName('Renal Insufficiency, Chronic') ?? null;
  return chronicKidneyDisease !== null && isA(conceptId, chronicKidneyDisease) ? kidneyStageLabel(stage) : null;
}
/** A cheap look for the scale's name before the hierarchy is walked, on every condition of every note. */
const NAMES_NYHA = /\bnyha\b|\bnew\s+york\s+heart/i;

/**
 * "Heart failure, NYHA class II", "NYHA III systolic heart failure", "HFrEF (EF 30%), NYHA class III" (decision 370): the
 * class is only ever a heart failure's, so the one class its sentence names is the heart failure's, in the words
 * contract/heart-failure-class.ts holds ("NYHA class II"). Not when the sentence names two, nor a range that is not one
 * ("class I or III").
 */
function nyhaClassBeside(sentence: string): string | null {
  const ranges = [...sentence.matchAll(NYHA_CLASS)].map((match) => nyhaRange(match));
  const range = ranges.length === 1 ? ranges[0] : null;
  return range && !(range[0] === 1 && range[1] === 4) ? nyhaLabel(...range) : null;
}

/** The fact's name with its qualifiers: "a slipped (herniated) disc (recurrent, lumbar, unilateral)". */
export const nameWithQualifiers = (name: string, qualifiers: readonly string[]) => (qualifiers.length ? `${name} (${qualifiers.join(', ')})` : name);

/** "6 months ago", "yesterday", "last week": when, relative to the note's day. */
const WHEN = String.raw`(?:${COUNT}[- ]${UNIT}\s+ago|(yesterday)|last\s+(week|month|year))`;
/** "stopped methotrexate 6 months ago", "last dose of rituximab 8 months ago": a stop just before the medicine. */
const STOP_BEFORE =
  /\b(?:stopped|discontinued|quit|finished|completed|came off|tapered off|weaned off|last (?:dose|infusion|injection|course) of)\s+(?:(?:his|her|their|the|a)\s+)?$/i;
/** Up to three words (a dose, a reason) between the medicine and its time, never a clause's end. */
const NEAR_WORDS = String.raw`(?:\s+[^\s,;.()]+){0,3}?`;
const TIME_AFTER = new RegExp(String.raw`^${NEAR_WORDS}\s+${WHEN}\b`, 'i');
/** "prednisone was stopped 3 weeks ago", "prednisone 10 mg daily until 2 weeks ago". */
const STOPPED_AFTER = new RegExp(
  String.raw`^${NEAR_WORDS}\s+(?:(?:was|were|has been|had been)\s+)?(?:stopped|discontinued|held|tapered off|completed|finished|until)\s+${WHEN}\b`,
  'i',
);

/**
 * The day a medicine was last taken, when the note dates its stop in the medicine's own words ("stopped
 * methotrexate 6 months ago", "prednisone until 2 weeks ago", "last dose of rituximab 8 months ago"); null otherwise.
 * Read for a medicine the note says was taken before (status history), so a washout window ("no steroids within 4
 * weeks") can be decided; a year alone ("stopped in 2019") is not read: too coarse for a window of weeks.
 */
export function medicineStoppedOn(sentence: string, start: number, end: number, today: Date): string | null {
  const tail = sentence.slice(end, end + 80);
  const stoppedBefore = STOP_BEFORE.test(sentence.slice(Math.max(0, start - 50), start));
  const time = (stoppedBefore ? TIME_AFTER.exec(tail) : null) ?? STOPPED_AFTER.exec(tail);
  if (!time) return null;
  const [, count, unit, yesterday, last] = time;
  if (yesterday) return before(today, 1, 'day');
  if (last) return before(today, 1, last);
  return before(today, countOf(count), unit);
}

/**
 * "Carboplatin and pemetrexed, last dose 2 months ago", "infliximab, last infusion 6 weeks ago": a treatment's last
 * dose dated after it, past a short list of the medicines given with it.
 */
const LAST_DOSE_AFTER = new RegExp(
  String.raw`^(?:\s+(?:and|or|plus|with|,)\s*[^\s,;.()]+(?:\s+[^\s,;.()]+)?)*\s*[,(]?\s*(?:the\s+|with\s+the\s+|with\s+)?last\s+(?:dose|infusion|injection|cycle|course|treatment|given|administered)(?:\s+(?:was|given|received|administered))*\s+${WHEN}\b`,
  'i',
);

/** "Last dose of prednisone 2 weeks ago": the same, with the medicine inside the phrase. */
const LAST_DOSE_BEFORE = /\blast\s+(?:dose|infusion|injection|cycle|course)\s+of\s+(?:(?:his|her|their|the)\s+)?$/i;

/** The day of a medicine's last dose, when the words around it date it (the medicine is then taken before); null otherwise. */
export function lastDoseOn(sentence: string, start: number, end: number, today: Date): string | null {
  const tail = sentence.slice(end, end + 100);
  const time = LAST_DOSE_AFTER.exec(tail) ?? (LAST_DOSE_BEFORE.test(sentence.slice(Math.max(0, start - 40), start)) ? TIME_AFTER.exec(tail) : null);
  if (!time) return null;
  const [, count, unit, yesterday, last] = time;
  if (yesterday) return before(today, 1, 'day');
  if (last) return before(today, 1, last);
  return before(today, countOf(count), unit);
}

/** When a one-off treatment was given, by the time right after its name ("flu vaccine 3 weeks ago", "... last month"); null otherwise. */
export function givenOn(sentence: string, end: number, today: Date): string | null {
  const time = TIME_AFTER.exec(sentence.slice(end, end + 80));
  if (!time) return null;
  const [, count, unit, yesterday, last] = time;
  if (yesterday) return before(today, 1, 'day');
  if (last) return before(today, 1, last);
  return before(today, countOf(count), unit);
}
