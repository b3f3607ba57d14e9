import type { CandidateFactInput, FactKind } from '../../../contract/matching';
import {
  ALLERGY_PREFIX,
  ancestorsOf,
  everByAntibody,
  inClass,
  isA,
  meshIdByName,
  namedAsMeasured,
  readAntibodyTests,
  vocabulary,
  type Mention,
  type Vocabulary,
} from '../trials/vocabulary';
import { withAcuteByNature } from './acute-infections';
import { readGeneralDenials } from './general-denials';
import { readPertinentNegatives } from './note-pertinent-negatives';
import { operationDate, readOperationDenials } from './note-operations';
import { markTestFindings } from './note-test-findings';
import { isLifelong } from './lifelong-conditions';
import { readAge, readSex } from './note-demographics';
import { gradeBySeverityScales } from './note-severity-scales';
import { conditionDetails, givenOn, lastDoseOn, medicineStoppedOn, nameWithQualifiers, type StatedDuration } from './note-details';
import { readMeasures, readPerformanceStatus } from './note-measures';
import { allergyDenied, biologicMentions, inAllergyList, localMedicineName, saidNaive } from './note-medicine-forms';
import { dateSpineCausesByTheirPain } from './note-radiating-pain';
import { readNoteSyndromes } from './note-syndromes';
import { spineMentions } from './note-spine';
import { discLevelsIn } from './spinal-levels';
import { CUES, TERMINATOR, type Cue, type CueType } from './note-cues';
import { matches, readSections, splitSentences, type Sentence } from './note-text';

export { splitSentences } from './note-text';

/**
 * The clinical-note reader (trial matcher, issue 11; docs/note-extraction.md): free text typed or pasted on
 * a candidate -> candidate facts (age, sex, conditions, medications, smoking, pregnancy, a few labs and
 * vitals). Pure and deterministic: rules and the product's concept vocabulary, no model, no I/O.
 *
 * Each sentence is read for cues in the NegEx / ConText manner: a cue before a mention reaches forward until
 * a word that ends its scope (but, however, which, presents, ";"...); a cue after a mention reaches back a
 * few words ("... was ruled out"). The nearest cue before a mention speaks for it, so "history of X, no Y"
 * reads X as history and Y as absent, and "denies A, B, or a family history of C" reads A and B as absent
 * and C as someone else's.
 */

export interface NoteExtractionOptions {
  /** The note's id, kept on every fact as `sourceRef`. */
  noteId?: string;
  /** The day the note is read, for an age computed from a written date of birth. */
  today?: Date;
  /** Concept ids the note is known to be about (the trial's conditions): support for an ambiguous short form. */
  context?: readonly string[];
}

/** MeSH headings the reader has its own rules for (smoking, pregnancy): read there, with their own cues, never as a condition. */
let dedicated: Set<string> | null = null;
const DEDICATED_HEADINGS = ['Pregnancy', 'Smoking', 'Tobacco Smoking', 'Cigarette Smoking', 'Tobacco Use', 'Pregnancy, Multiple'];
const isDedicated = (conceptId: string) => {
  dedicated ??= new Set(DEDICATED_HEADINGS.map(meshIdByName).filter((id): id is string => Boolean(id)));
  return dedicated.has(conceptId);
};

// ---- sentences: note-text.ts; age and sex: note-demographics.ts; labs and vitals: note-measures.ts ----

// ---- cues ----

// The cue words (NegEx/ConText): note-cues.ts.

/** A kind or cause written before a disease's name; denying it leaves the disease itself unsaid. */
const QUALIFIED =
  /\b(?:obstructive|bacterial|viral|fungal|infectious|septic|hemorrhagic|haemorrhagic|ischemic|ischaemic|embolic|thrombotic|traumatic|alcoholic|drug-induced|autoimmune|malignant|metastatic|invasive|residual|metabolic|congenital|hereditary|inherited|genetic|cholestatic|decompensated|end-stage|uncontrolled|unstable)\s+$/i;

/** Words that date an onset ("diagnosed ... 2 years ago"): the time then says when it began, not that it ended. */
const ONSET = /\b(?:diagnos(?:ed|is)|confirmed|detected|discovered|identified|found|started|began|begun|onset|since|developed)\b/i;

/** How far (in words) a cue reaches: before a mention, after it. */
const REACH_FORWARD: Record<CueType, number> = { neg: 12, hist: 30, pmh: 30, sp: 30, medHist: 4, hypo: 8, plan: 0, fam: 12, allergy: 6, pseudo: 6 };
const REACH_BACK: Record<CueType, number> = { neg: 5, hist: 6, pmh: 6, sp: 6, medHist: 4, hypo: 4, plan: 4, fam: 6, allergy: 0, pseudo: 0 };

interface SentenceCues {
  cues: Cue[];
  /** `clause`: "and he", "and is": a new clause, but often about the same relative ("her husband has X and he takes Y"). */
  stops: Array<{ start: number; end: number; clause: boolean }>;
  /** The sentence's concept mentions, which a planned treatment's cue does not reach back past. */
  mentions?: Array<{ start: number; end: number }>;
}

function readCues(text: string): SentenceCues {
  const found: Cue[] = [];
  for (const { type, before, pattern } of CUES) {
    for (const match of matches(pattern, text)) if (match[0].trim()) found.push({ type, before, start: match.index, end: match.index + match[0].length });
  }
  // Longest first, then leftmost: "no history of" is one negation, not a negation and a history cue.
  found.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const cues: Cue[] = [];
  // The same words read both ways ("stopped": "stopped X", "X, stopped for side effects") keep both cues: each side
  // speaks only for its own mentions.
  const bothWays = (kept: Cue, cue: Cue) => kept.start === cue.start && kept.end === cue.end && kept.before !== cue.before;
  for (const cue of found) if (!cues.some((kept) => cue.start < kept.end && kept.start < cue.end && !bothWays(kept, cue))) cues.push(cue);
  cues.sort((a, b) => a.start - b.start);
  const stops = [...matches(TERMINATOR, text)]
    .map((match) => ({
      start: match.index,
      end: match.index + match[0].length,
      clause: match[1] !== undefined || match[2] !== undefined || match[3] !== undefined,
    }))
    .filter((stop) => !cues.some((cue) => stop.start < cue.end && cue.start < stop.end));
  return { cues, stops };
}

/** Items sorted by start, per sentence: those wholly inside it, moved to its offsets. */
function bySentence<T extends { start: number; end: number }>(items: readonly T[], sentences: readonly Sentence[]): T[][] {
  const out: T[][] = [];
  let next = 0;
  for (const sentence of sentences) {
    const inside: T[] = [];
    while (next < items.length && items[next].start < sentence.start) next++;
    for (let i = next; i < items.length && items[i].start < sentence.end; i++) {
      const item = items[i];
      if (item.end <= sentence.end) inside.push({ ...item, start: item.start - sentence.start, end: item.end - sentence.start });
    }
    out.push(inside);
  }
  return out;
}

const WORD = /[\p{L}\p{N}]+/gu;
const wordsIn = (text: string) => text.match(WORD)?.length ?? 0;

/** How a test of the condition itself is named between it and its result ("now", "repeat PCR", "stool cultures"). */
const TEST_OF_IT =
  /^\s*(?:(?:now|repeat|repeated|follow-up|subsequent|rapid|nasal|nasopharyngeal|throat|stool|blood|urine|sputum|serum|RT-?PCR|PCR|NAAT|swabs?|tests?|testing|antigen|antibod(?:y|ies)|cultures?|serology|screen(?:ing)?|smear|was|were|is|are|came back|returned|remains?|and)\s+)*$/i;

/** Words between a mention and a bare "negative" that make the result another test's: a result, or a name after a comma. */
function otherResult(between: string): boolean {
  if (/\bpositive\b|\+/i.test(between)) return true;
  const lastComma = Math.max(between.lastIndexOf(','), between.lastIndexOf(';'));
  return lastComma >= 0 && !TEST_OF_IT.test(`${between.slice(lastComma + 1)} `);
}

/** "Codeine and morphine allergies": an allergy named after a list of medicines is to each of them (decision 368). */
function listedBefore(sentence: string, mentions: ReadonlyArray<{ start: number; end: number }>, end: number, cue: Cue): boolean {
  if (cue.type !== 'allergy') return false;
  let between = sentence.slice(end, cue.start);
  for (const mention of mentions)
    if (mention.start >= end && mention.end <= cue.start) between = between.replace(sentence.slice(mention.start, mention.end), ' ');
  // A conjunction joins the list: "on aspirin, penicillin allergy" is two things.
  return /^(?:[\s,/]|\band\b|\bor\b)*$/i.test(between) && /\/|\band\b|\bor\b/i.test(between);
}

/** `historyOf`: "history of X", "PMH: X": had it; still has it when X is a lifelong diagnosis (the reader decides). */
type Reading = 'present' | 'history' | 'historyOf' | 'absent' | 'family' | 'hypothetical' | 'allergy';

/**
 * What the sentence says about the words at [start, end): the nearest cue before them (within its reach, no
 * stop in between) and the nearest cue after them. Someone else's and not-asserted win over negation, which
 * wins over history. `medicine` lets the cues that only speak of medicines and smoking ("stopped", "off")
 * count.
 */
function readStatus(sentence: string, { cues, stops, mentions = [] }: SentenceCues, start: number, end: number, medicine: boolean): Reading {
  const counts = (cue: Cue) => (cue.type === 'medHist' || cue.type === 'allergy' ? medicine : true);
  const stopBetween = (from: number, to: number, cue: Cue) =>
    stops.some((stop) => stop.start >= from && stop.end <= to && !(stop.clause && cue.type === 'fam'));
  let before: Cue | null = null;
  for (const cue of cues) {
    if (!cue.before || cue.end > start || !counts(cue)) continue;
    if (stopBetween(cue.end, start, cue) || wordsIn(sentence.slice(cue.end, start)) > REACH_FORWARD[cue.type]) continue;
    if (cue.type === 'sp' && sentence.slice(cue.end, start).includes(',')) continue;
    before = cue;
  }
  let after: Cue | null = null;
  for (const cue of cues) {
    if (cue.before || cue.start < end || !counts(cue)) continue;
    if (stopBetween(end, cue.start, cue) || (wordsIn(sentence.slice(end, cue.start)) > REACH_BACK[cue.type] && !listedBefore(sentence, mentions, end, cue)))
      continue;
    // A planned start speaks for a medicine up to its reach, never past another concept; for a procedure (dialysis,
    // a transplant) only as its direct subject, since a disease is never "started".
    if (
      cue.type === 'plan' &&
      (medicine ? mentions.some((mention) => mention.start >= end && mention.end <= cue.start) : wordsIn(sentence.slice(end, cue.start)) > 0)
    )
      continue;
    // A bare "negative" is a test's result: it speaks for its own test, never back past another result or another
    // test's name after a comma ("breast cancer, estrogen receptor positive, HER2 negative" does not deny the cancer;
    // "COVID-19 infection, repeat PCR negative" still speaks of the infection).
    if (cue.type === 'neg' && /negative$/i.test(sentence.slice(cue.start, cue.end)) && otherResult(sentence.slice(end, cue.start))) continue;
    after = cue;
    break;
  }
  // "Diagnosed with HCV 2 years ago", "asthma diagnosed a year ago": when it began, not that it is over.
  if (
    ((after?.type === 'hist' && /\b(?:ago|earlier|before)$/i.test(sentence.slice(after.start, after.end))) || after?.type === 'pmh') &&
    ONSET.test(sentence.slice(Math.max(0, start - 40), after.start))
  )
    after = null;
  // A relative as the subject speaks for the whole clause, whatever cue is nearer ("siblings are well without neoplasms").
  const relative = cues.some(
    (cue) =>
      cue.type === 'fam' && cue.before && cue.end <= start && !stopBetween(cue.end, start, cue) && wordsIn(sentence.slice(cue.end, start)) <= REACH_FORWARD.fam,
  );
  const types = new Set([before?.type, after?.type]);
  if (relative || types.has('fam')) return 'family';
  if (types.has('hypo') || types.has('plan')) return 'hypothetical';
  if (types.has('allergy')) return 'allergy';
  // "Negative for obstructive pancreatitis", "no metastatic breast cancer": the kind is denied, not the disease.
  if (types.has('neg')) return !medicine && QUALIFIED.test(sentence.slice(Math.max(0, start - 24), start)) ? 'hypothetical' : 'absent';
  if (types.has('hist') || types.has('sp') || types.has('medHist')) return 'history';
  if (types.has('pmh')) return 'historyOf';
  return 'present';
}

// ---- sections ----

// ---- concepts ----

/**
 * Short abbreviations the vocabulary reads as conditions that mean something else in a note: "PE:" the
 * physical examination, "on RA" room air, "MS" mental status, "IMP:" the impression, "HS" at bedtime.
 */
function otherSense(mentionText: string, sentence: string, start: number, end: number): boolean {
  const before = sentence.slice(Math.max(0, start - 12), start).toLowerCase();
  const after = sentence.slice(end, end + 3);
  switch (mentionText) {
    case 'PE':
    case 'IMP':
    case 'MS':
    case 'HEENT':
      return /^\s*:/.test(after) || /\b(?:on|mental|altered)\s*$/.test(before);
    case 'RA':
      return /(?:\bon|%|\broom)\s*$/.test(before) || /^\s*:/.test(after);
    case 'HS':
    case 'AD':
    case 'MM':
      return true;
    default:
      // "Pain without leg radiation", "radiation to the left arm": pain spreading, not radiotherapy.
      if (/^radiation$/i.test(mentionText))
        return (
          /\b(?:leg|arm|buttock|neck|back|jaw|shoulder|pain|radicular|distal)\s+$/i.test(sentence.slice(Math.max(0, start - 16), start)) ||
          (/^\s+(?:to|into|down)\b/i.test(sentence.slice(end, end + 8)) && /\b(?:pain|ache|aching|discomfort)\b/i.test(sentence.slice(0, start)))
        );
      return false;
  }
}

/**
 * "Stenosis of the left internal carotid artery", "cancer of the pancreas", "infarction of the myocardium": the
 * site written after the disease. Read as the site before it ("carotid stenosis", "pancreatic cancer") when that
 * is one concept of the vocabulary, spanning the words from the disease to the site.
 */
const INVERTED =
  /\b(cancer|carcinoma|adenocarcinoma|tumou?r|neoplasm|stenosis|fracture|infarction|aneurysm|abscess|ulcer|insufficiency|regurgitation|prolapse|thrombosis|dissection)\s+(?:of|in|involving|affecting)\s+(?:the\s+|his\s+|her\s+)?(?:(?:left|right|bilateral|both|proximal|distal|internal|external|common|upper|lower|main|anterior|posterior|ascending|descending)\s+)*([a-z]+)(?:\s+([a-z]+))?/gi;
/** An organ's noun -> the adjective diseases are named with ("cancer of the stomach" -> "gastric cancer"). */
const ORGAN_ADJECTIVE: Record<string, string> = {
  pancreas: 'pancreatic',
  ovary: 'ovarian',
  ovaries: 'ovarian',
  cervix: 'cervical',
  uterus: 'uterine',
  esophagus: 'esophageal',
  oesophagus: 'oesophageal',
  stomach: 'gastric',
  kidney: 'renal',
  liver: 'hepatic',
  heart: 'cardiac',
  myocardium: 'myocardial',
  aorta: 'aortic',
  spine: 'spinal',
  rectum: 'rectal',
  duodenum: 'duodenal',
  larynx: 'laryngeal',
  testis: 'testicular',
  testicle: 'testicular',
};

function invertedMentions(sentence: string, vocab: Vocabulary, mentions: Mention[]): Mention[] {
  const found: Mention[] = [];
  for (const match of matches(INVERTED, sentence)) {
    const [words, head, first, second] = match;
    const both = second ? `${first} ${second}` : null;
    // "Of the aortic valve" -> "aortic valve", "of the left carotid artery" -> "carotid", "of the pancreas" -> "pancreatic".
    for (const site of [both, first, ORGAN_ADJECTIVE[first.toLowerCase()]]) {
      if (!site) continue;
      const phrase = `${site} ${head}`;
      const read = vocab.find(phrase, { reach: 'full' });
      if (read.length !== 1 || read[0].start !== 0 || read[0].end !== phrase.length) continue;
      // The span runs from the disease to the last site word read ("stenosis of the left carotid", not "... artery" when unread).
      const end = match.index + (site === both ? words.length : words.lastIndexOf(first) + first.length);
      const concept = read[0].concept;
      if (!mentions.some((mention) => mention.concept.id === concept.id && mention.start < end && match.index < mention.end))
        found.push({ concept, start: match.index, end });
      break;
    }
  }
  return found;
}

/**
 * A substance named with a measured value ("creatinine: 0.5 mg/dl", "urea of 8.5", "glucose level of 15") is a
 * laboratory result, not a medicine the person takes; a dose ("500 mg", "10 units", "2 L") keeps it a medicine, and so
 * does a time or a count after it ("stopped methotrexate 6 months ago", "rituximab 4 cycles"; decision 337), and a
 * strength in percent before a cream or drops ("ketoconazole 2% cream"; decision 373).
 */
const MEASURED_VALUE_AFTER =
  /^\s*(?:\(\s*)?(?:(?:serum|blood|plasma|urine|level|levels|concentration|count|value)\s+)*(?:of|:|=|was|is|at|were)?\s*[<>≤≥]?\s*\d+(?:[.,]\d+)?(?!\d|[.,]\d|\s*(?:mg|mcg|µg|ug|g|gm|units?|iu|tablets?|tabs?|puffs?|ml|l|lpm|liters?|drops?|sprays?)\b(?!\s*\/)|\s*(?:hours?|hrs?|days?|weeks?|wks?|months?|mos?|years?|yrs?|times?|cycles?|doses?|courses?)\b|\s*%\s*(?:topical\s+)?(?:creams?|ointments?|gels?|lotions?|foams?|solutions?|shampoos?|washes|(?:eye|ear|nasal)\s+drops|drops|(?:nasal\s+)?sprays?)\b)/i;

/** Operations by MeSH's tree (the headings "... surgical procedures"), less those that leave something in place. */
const operationCache = new Map<string, boolean>();
function isOneTimeOperation(conceptId: string): boolean {
  let found = operationCache.get(conceptId);
  if (found === undefined) {
    const names = [conceptId, ...ancestorsOf(conceptId)].map((id) => vocabulary().concept(id)?.en ?? '');
    found = names.some((name) => /surgical procedures$/i.test(name)) && !names.some((name) => /ostomy|transplant|implant|prosthe|stent|shunt/i.test(name));
    operationCache.set(conceptId, found);
  }
  return found;
}

/** "on warfarin", "takes metformin": a medicine taken now, whatever history the sentence tells. */
const ON_MEDICINE = /\b(?:on|takes|taking|uses|using)\s+$/i;
/** "currently on", "now takes": said to be taken now, whatever a cue further back says. */
const ON_MEDICINE_NOW = /(?:^|[,;:]\s*|\b(?:and|now|currently|presently|still|remains|is|he|she)\s+)(?:on|takes|taking|uses|using)\s+$/i;

/** Words after a disease's name that make it the name of a vaccine ("TB vaccination", "hepatitis B vaccine"). */
const VACCINE_AFTER = /^[\s-]*(?:vaccin\w*|immuni[sz]ations?|boosters?|shots?)\b/i;
/** "Not on diabetes medication", "no blood pressure pills": a denial of the medicine for it, not of the condition (decision 298). */
const MEDICINE_FOR_AFTER = /^[\s-]*(?:medications?|medicines?|meds|drugs|pills|tablets|treatments?|therap(?:y|ies))\b/i;

// ---- smoking and pregnancy ----

const SMOKING =
  /\b(?:(non-?smok(?:er|ing)|never[- ]smok(?:er|ed)|life-?long non-?smoker|(?:does not|doesn't|do not|don't|did not|didn't|never|not) smoke)|(ex-?smoker|former smoker|past smoker|smoked)|smok(?:er|ers|es|ing)|tobacco(?:\s+(?:use|abuse|user|dependence))?|cigarettes?|cigars?|(\d+(?:\.\d+)?\s*[- ]?pack[- ]?years?|pack[- ]?years?))\b/gi;
const CURRENT = /\b(?:current(?:ly)?|active(?:ly)?|still|continues? to|smokes)\b/i;

const GESTATION =
  /\b\d{1,2}(?:\s*\+\s*\d)?\s*(?:weeks?|wks?)(?:\s*(?:and\s*)?\d\s*days?)?\s*(?:of\s+)?(?:gestation(?:al age)?|pregnan(?:t|cy)|ga)\b|\b\d{1,2}\s*w\s*\d\s*d\b|\bgestational age\b|\bG\d+\s*P\d+(?:\s*A\d+)?\b(?=[^.]*\b(?:at|is)\s+\d{1,2}(?:\s*\+\s*\d)?\s*(?:weeks?|wks?|w\b))/gi;
const PREGNANT = /\b(?:pregnant|(?:ectopic|intrauterine|tubal|current|ongoing|molar) pregnancy)\b/gi;
const PREGNANCY_TEST =
  /\b(?:(negative|positive)\s+(?:urine |serum |home |point[- ]of[- ]care )?(?:pregnancy test|(?:beta[- ]?)?h?cg)|(?:urine |serum |home |point[- ]of[- ]care )?(?:pregnancy test|(?:beta[- ]?)?hcg|upt)\b[^.;]{0,80}?\b(negative|positive))\b/gi;
const BIRTH = /\b(?:born|birth|delivered at|neonat|newborn|infant|preterm baby)\w*/i;
/** A woman who cannot be pregnant: past the menopause, or without a uterus or ovaries ("s/p total hysterectomy"). */
const CANNOT_CONCEIVE =
  /\b(?:post-?menopausal|postmenopause|(?:went|gone|has been) through (?:the )?menopause|(?:total |abdominal |vaginal |radical )?hysterectomy|bilateral (?:salpingo-)?oophorectomy|surgically sterile)\b/gi;

// ---- the facts ----

interface Draft {
  fact: CandidateFactInput;
  key: string;
  /** A condition's own name and qualifiers, so a later mention's disc levels can join them. */
  named?: { name: string; qualifiers: string[] };
}

const isMedicine = (kind: FactKind) => kind === 'medication' || kind === 'smoking';

/** MeSH's Vaccines heading: a vaccine or anything under it (the hand file's vaccines say so in their name). */
const VACCINES = 'mesh:D014612';
const TOPICAL_CORTICOSTEROIDS = 'cohortly:topical-corticosteroids';
const GLUCOCORTICOIDS = 'mesh:D005938';
const ON_THE_SKIN = /\b(?:topical|creams?|ointments?|gels?|lotions?|foams?)\b/i;
const isVaccine = (concept: { id: string; en: string }) => /\bvaccin/i.test(concept.en) || isA(concept.id, VACCINES);
/** Any injection at the spine (an epidural, a nerve block): given once, on a day. */
const SPINAL_INJECTIONS = 'cohortly:epidural-injection';

/** The index of the sentence holding `offset` (-1 between sentences): a binary search, sentences being in order. */
function sentenceAt(sentences: readonly Sentence[], offset: number): number {
  let [low, high] = [0, sentences.length - 1];
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (offset < sentences[middle].start) high = middle - 1;
    else if (offset >= sentences[middle].end) low = middle + 1;
    else return middle;
  }
  return -1;
}

/**
 * The concepts each sentence names, in its own offsets, sorted by start; the dedicated headings (smoking, pregnancy)
 * left to their own readers. The whole note is read at once, so a short form defined or supported anywhere in it
 * is read everywhere (decision 127).
 */
function mentionsBySentence(text: string, sentences: readonly Sentence[], vocab: Vocabulary, context: readonly string[]): Mention[][] {
  const noteMentions = vocab.find(text, { reach: 'full', context });
  let next = 0;
  return sentences.map((sentence) => {
    const mentions: Mention[] = [];
    while (next < noteMentions.length && noteMentions[next].start < sentence.start) next++;
    for (; next < noteMentions.length && noteMentions[next].end <= sentence.end; next++) {
      const mention = noteMentions[next];
      if (!isDedicated(mention.concept.id)) mentions.push({ ...mention, start: mention.start - sentence.start, end: mention.end - sentence.start });
    }
    // "HCV antibody positive": the infection, ever (decision 376).
    readAntibodyTests(vocab, sentence.text, mentions);
    const inverted = invertedMentions(sentence.text, vocab, mentions);
    const spine = spineMentions(sentence.text, vocab, [...mentions, ...inverted]);
    const more = [...inverted, ...spine, ...biologicMentions(sentence.text, vocab, mentions)];
    return more.length ? [...mentions, ...more].sort((a, b) => a.start - b.start) : mentions;
  });
}

/** What the note says of smoking and (for a person not read as male) pregnancy, through the caller's readers. */
function readSmokingAndPregnancy(
  text: string,
  mayBePregnant: boolean,
  statusAt: (start: number, end: number, medicine: boolean) => Reading | null,
  sentenceOf: (start: number, end: number) => Sentence | null,
  add: (kind: FactKind, key: string, name: string, conceptId: string | null, reading: Reading, start: number, end: number) => void,
): void {
  for (const match of matches(SMOKING, text)) {
    const [start, end] = [match.index, match.index + match[0].length];
    const sentence = sentenceOf(start, end);
    if (!sentence) continue;
    let reading: Reading;
    if (match[1]) reading = 'absent';
    else {
      reading = statusAt(start, end, true)!;
      if (reading === 'present' && !CURRENT.test(sentence.text)) {
        // "ex-smoker", "smoked", "40 pack-years", "smoking history": smoked, not said to smoke now.
        if (match[2] || match[3] || /^\s+history\b/i.test(text.slice(end, end + 10))) reading = 'history';
      }
    }
    add('smoking', 'smoking', 'smoking', null, reading, start, end);
  }

  if (mayBePregnant) {
    for (const match of matches(PREGNANCY_TEST, text)) {
      const result = (match[1] ?? match[2]).toLowerCase();
      if (sentenceOf(match.index, match.index + match[0].length))
        add('pregnancy', 'pregnancy', 'pregnancy', null, result === 'negative' ? 'absent' : 'present', match.index, match.index + match[0].length);
    }
    for (const match of matches(PREGNANT, text)) {
      const reading = statusAt(match.index, match.index + match[0].length, false);
      if (reading) add('pregnancy', 'pregnancy', 'pregnancy', null, reading, match.index, match.index + match[0].length);
    }
    // Past the menopause or after a hysterectomy, as stated (never denied, never planned): not pregnant.
    for (const match of matches(CANNOT_CONCEIVE, text)) {
      const [start, end] = [match.index, match.index + match[0].length];
      const reading = statusAt(start, end, false);
      if (reading === 'present' || reading === 'history') add('pregnancy', 'pregnancy', 'pregnancy', null, 'absent', start, end);
    }
    for (const match of matches(GESTATION, text)) {
      const sentence = sentenceOf(match.index, match.index + match[0].length);
      // "Born at 38w3d": a baby's gestational age at birth, not a pregnancy.
      if (sentence && !BIRTH.test(sentence.text)) add('pregnancy', 'pregnancy', 'pregnancy', null, 'present', match.index, match.index + match[0].length);
    }
  }
}

/**
 * A later mention of a kept condition that names other disc levels ("L4-L5 herniation ... and another at L5-S1"):
 * the fact holds every level the note names, so a criterion's level is never judged against only the first one.
 */
function joinLevels(held: Draft, qualifiers: readonly string[]): void {
  const named = held.named!;
  const more = qualifiers.filter((word) => discLevelsIn(word).length && !named.qualifiers.includes(word));
  if (!more.length) return;
  named.qualifiers = [...named.qualifiers, ...more];
  held.fact = { ...held.fact, name: nameWithQualifiers(named.name, named.qualifiers) };
}

/**
 * The reading after what the words around a mention add: "history of" a lifelong diagnosis is still had, "history of
 * atrial fibrillation on warfarin" and "diagnosed previously, on metformin" are taken now ("previously on glipizide",
 * "was on" stay taken before), and an operation is done once ("she underwent a cholecystectomy" was had, so an undated
 * one never fails "surgery within 4 weeks"; an ostomy, a transplant or an implant stays with the person).
 */
function adjustedReading(kind: FactKind, reading: Reading, sentence: string, mention: Mention): Reading {
  const before = (chars: number) => sentence.slice(Math.max(0, mention.start - chars), mention.start);
  if (reading === 'historyOf') reading = (kind === 'condition' ? isLifelong(mention.concept.id) : ON_MEDICINE.test(before(12))) ? 'present' : 'history';
  if (kind === 'medication' && reading === 'history' && ON_MEDICINE_NOW.test(before(24))) return 'present';
  if (kind === 'condition' && reading === 'present' && isOneTimeOperation(mention.concept.id)) return 'history';
  // A positive antibody says the infection was had, not that it is had now (decision 376).
  if (kind === 'condition' && reading === 'present' && everByAntibody(mention)) return 'history';
  return reading;
}

const INTOLERANCE_AFTER = /^[\s-]*intolerance\b/i;

/** What a medicine's mention gives: the medicine (dated when its stop or last dose is), or an allergy to it; null for none. */
function medicineReading(
  sentence: string,
  mention: Mention,
  reading: Reading,
  today: Date,
): { kind: FactKind; key: string; conceptId: string | null; name: string; reading: Reading; since: string | null } | null {
  const { id, en } = mention.concept;
  // "Allergic to penicillin", "Allergies: sulfa, codeine": an allergy to that medicine, a condition the person has
  // (never when the allergy is denied: "no known allergy to penicillin").
  if (reading === 'allergy' || (reading !== 'absent' && inAllergyList(sentence, mention.start))) {
    // "Metformin intolerance": a medicine the person cannot take, neither taken nor an allergy (decision 368).
    if (allergyDenied(sentence, mention.start) || INTOLERANCE_AFTER.test(sentence.slice(mention.end, mention.end + 20))) return null;
    return { kind: 'condition', key: ALLERGY_PREFIX + id, conceptId: ALLERGY_PREFIX + id, name: `an allergy to ${en}`, reading: 'present', since: null };
  }
  // A cream or eye drops: the note's words, never the systemic class; "biologic-naive": never given one (decision 205).
  const local = id === TOPICAL_CORTICOSTEROIDS ? null : localMedicineName(sentence, mention.start, mention.end);
  // A corticosteroid put on the skin ("betamethasone 0.1% cream", "topical clobetasol") is a topical corticosteroid,
  // which a criterion names (decision 373); eye drops and nose sprays keep their own words.
  if (local && ON_THE_SKIN.test(local) && (isA(id, GLUCOCORTICOIDS) || inClass(id, GLUCOCORTICOIDS))) {
    const topical = vocabulary().concept(TOPICAL_CORTICOSTEROIDS);
    if (topical) return { kind: 'medication', key: topical.id, conceptId: topical.id, name: topical.en, reading, since: null };
  }
  if (local) return { kind: 'medication', key: `local:${local}`, conceptId: null, name: local, reading, since: null };
  if (reading === 'present' && saidNaive(sentence, mention)) reading = 'absent';
  const medicine = (read: Reading, since: string | null) => ({ kind: 'medication' as const, key: id, conceptId: id, name: en, reading: read, since });
  // A vaccine is given once, never taken now: received is had, dated when the note says when (a washout reads it).
  if (reading === 'present' && isVaccine(mention.concept)) return medicine('history', givenOn(sentence, mention.end, today));
  // A spinal injection the note dates ("an epidural steroid injection 5 weeks ago") was given that day (decision 298).
  const injected = (reading === 'present' || reading === 'history') && isA(id, SPINAL_INJECTIONS) ? givenOn(sentence, mention.end, today) : null;
  if (injected) return medicine('history', injected);
  // A medicine whose last dose the note dates was taken before, that day (a washout window reads it); one the clause
  // says the person is on ("on infliximab, last infusion 6 weeks ago") is still taken.
  const onNow = ON_MEDICINE.test(sentence.slice(Math.max(0, mention.start - 12), mention.start));
  const lastDose = !onNow && (reading === 'present' || reading === 'history') ? lastDoseOn(sentence, mention.start, mention.end, today) : null;
  if (lastDose) return medicine('history', lastDose);
  // A medicine taken before: the day it stopped, when the note dates it (a washout window reads it).
  return medicine(reading, reading === 'history' ? medicineStoppedOn(sentence, mention.start, mention.end, today) : null);
}

/**
 * The facts a note states about its patient. One fact per concept (per lab measure, for smoking, for
 * pregnancy): the first mention that asserts it (present or history) in reading order wins, because a note
 * opens with its summary and later mentions repeat or qualify it; only when every mention denies it is the
 * fact 'absent'. Family history and not-asserted mentions (rule out, possible, differential) give no fact.
 */
export function extractNoteFacts(text: string, options: NoteExtractionOptions = {}): CandidateFactInput[] {
  const sourceRef = options.noteId ?? null;
  const sentences = splitSentences(text);
  const today = options.today ?? new Date();
  // Cues are read once over the whole note, then handed to their sentences in the sentence's own offsets.
  const noteCues = readCues(text);
  const vocab = vocabulary();
  const sentenceMentions = mentionsBySentence(text, sentences, vocab, options.context ?? []);
  // Cues and stops come sorted by their start: one sweep hands each sentence those wholly inside it, in its offsets.
  const cuesIn = bySentence(noteCues.cues, sentences);
  const stopsIn = bySentence(noteCues.stops, sentences);
  const sentenceCues: SentenceCues[] = sentences.map((_, index) => ({ cues: cuesIn[index], stops: stopsIn[index], mentions: sentenceMentions[index] }));
  const sentenceIndex = (offset: number) => sentenceAt(sentences, offset);
  const base = (kind: FactKind, name: string, start: number, end: number): CandidateFactInput => ({
    kind,
    conceptId: null,
    name,
    status: null,
    value: null,
    unit: null,
    valueText: null,
    observedOn: null,
    source: 'note',
    sourceRef,
    sourceText: sentences[sentenceIndex(start)]?.text.slice(0, 2000) ?? null,
    span: { start, end },
    criterionId: null,
    code: null,
  });
  const facts: CandidateFactInput[] = [];
  const age = readAge(text, sentences, options.today);
  if (age) facts.push({ ...base('age', 'age', age.start, age.end), value: age.value as number, unit: 'years' });
  const sex = readSex(text, sentences, age);
  const drafts: Draft[] = [];
  const add = (
    kind: FactKind,
    key: string,
    name: string,
    conceptId: string | null,
    reading: Reading,
    start: number,
    end: number,
    since: string | null = null,
    named?: Draft['named'],
    stated: StatedDuration | null = null,
  ) => {
    if (reading !== 'present' && reading !== 'history' && reading !== 'absent') return;
    // A condition's stated length ("6 weeks") is its value and unit: the matcher bounds a duration with it (decision 230).
    drafts.push({ key, fact: { ...base(kind, name, start, end), conceptId, status: reading, observedOn: since, ...stated }, named });
  };
  /** What the sentence around [start, end) (note offsets) says about it; null when the words cross sentences. */
  const statusAt = (start: number, end: number, medicine: boolean): Reading | null => {
    const index = sentenceIndex(start);
    if (index < 0 || end > sentences[index].end) return null;
    const sentence = sentences[index];
    const reading = readStatus(sentence.text, sentenceCues[index], start - sentence.start, end - sentence.start, medicine);
    return reading === 'historyOf' ? 'history' : reading;
  };
  const sentenceOf = (start: number, end: number) => {
    const index = sentenceIndex(start);
    return index >= 0 && end <= sentences[index].end ? sentences[index] : null;
  };
  const sections = readSections(text);
  const sectionAt = (offset: number) => sections.find((range) => offset >= range.start && offset < range.end)?.section ?? null;
  for (const [index, sentence] of sentences.entries()) {
    for (const mention of sentenceMentions[index]) {
      const words = sentence.text.slice(mention.start, mention.end);
      if (otherSense(words, sentence.text, mention.start, mention.end)) continue;
      // "Hypothyroidism?" in a problem list: asked, not stated.
      if (/^\s?\?/.test(sentence.text.slice(mention.end, mention.end + 2))) continue;
      const kind: FactKind = mention.concept.kind === 'medication' ? 'medication' : 'condition';
      // "TB vaccination", "flu shot", "HPV vaccine": the vaccine, not the disease.
      if (kind === 'condition' && VACCINE_AFTER.test(sentence.text.slice(mention.end, mention.end + 16))) continue;
      // A MeSH substance with a measured value after it is a lab (the hand file's medicines are medicines).
      if (kind === 'medication' && !mention.concept.es && MEASURED_VALUE_AFTER.test(sentence.text.slice(mention.end, mention.end + 40))) continue;
      // Any substance with a test's result next to it is a test ("antibodies positive", "negative for ... antigen").
      if (kind === 'medication' && namedAsMeasured(sentence.text, mention.start, mention.end)) continue;
      const [start, end] = [sentence.start + mention.start, sentence.start + mention.end];
      // Under a "Family History:" heading it is a relative's.
      if (kind === 'condition' && sectionAt(start) === 'family') continue;
      const reading = adjustedReading(
        kind,
        readStatus(sentence.text, sentenceCues[index], mention.start, mention.end, isMedicine(kind)),
        sentence.text,
        mention,
      );
      if (kind === 'condition' && (reading === 'present' || reading === 'history')) {
        // Its site, side, severity and start, from its own phrase (note-details.ts).
        const details = conditionDetails(sentence.text, mention.start, mention.end, today, age?.value, mention.concept.id);
        // An infection acute by its nature, had now, is acute (acute-infections.ts, decision 298).
        const qualifiers = reading === 'present' ? withAcuteByNature(mention.concept.id, words, details.qualifiers, details.since, today) : details.qualifiers;
        const named = { name: mention.concept.en, qualifiers };
        const { id } = mention.concept;
        const since = reading === 'history' ? operationDate(id, sentence.text, mention.end, today, details.since) : details.since;
        add(kind, id, nameWithQualifiers(named.name, named.qualifiers), id, reading, start, end, since, named, details.stated);
      } else if (kind === 'medication') {
        const read = medicineReading(sentence.text, mention, reading, today);
        if (read) add(read.kind, read.key, read.name, read.conceptId, read.reading, start, end, read.since);
      } else if (kind !== 'condition' || !MEDICINE_FOR_AFTER.test(sentence.text.slice(mention.end, mention.end + 20)))
        add(kind, mention.concept.id, mention.concept.en, mention.concept.id, reading, start, end);
    }
  }

  // "Otherwise healthy" (general-denials.ts), pertinent negatives (note-pertinent-negatives.ts), "no surgeries" (note-operations.ts).
  for (const denial of [...readGeneralDenials(text), ...readPertinentNegatives(text, vocab), ...readOperationDenials(text)]) {
    if (sectionAt(denial.start) === 'family' || statusAt(denial.start, denial.end, false) !== 'present') continue;
    add(denial.kind, denial.conceptId, denial.name, denial.conceptId, 'absent', denial.start, denial.end);
  }
  readSmokingAndPregnancy(text, sex?.value !== 'male', statusAt, sentenceOf, add);

  const measures = readMeasures(text, sentenceOf);
  for (const reading of measures)
    drafts.push({ key: `lab:${reading.name}`, fact: { ...base('lab', reading.name, reading.start, reading.end), value: reading.value, unit: reading.unit } });
  for (const reading of readPerformanceStatus(text, sentenceOf))
    drafts.push({
      key: `performance:${reading.scale}`,
      fact: {
        ...base('performance_status', `${reading.scale} performance status`, reading.start, reading.end),
        value: reading.value,
        valueText: reading.scale,
      },
    });
  // A syndrome shown by its defining findings (note-syndromes.ts, decision 297).
  const asserted = (start: number, end: number) => sectionAt(start) !== 'family' && ['present', 'history'].includes(statusAt(start, end, false) ?? '');
  for (const found of readNoteSyndromes(text, vocab, measures, typeof age?.value === 'number' ? age.value : null, asserted))
    add('condition', found.conceptId, nameWithQualifiers(found.name, found.qualifiers), found.conceptId, 'present', found.start, found.end);

  if (sex) facts.push({ ...base('sex', 'sex', sex.start, sex.end), valueText: sex.value as string });
  // The test a condition is reported on is its value text (note-test-findings.ts, decision 250).
  markTestFindings(text, drafts).sort((a, b) => a.fact.span!.start - b.fact.span!.start);
  const kept = new Map<string, Draft>();
  for (const draft of drafts) {
    const held = kept.get(draft.key);
    if (!held || (held.fact.status === 'absent' && draft.fact.status !== 'absent' && draft.fact.status !== null)) kept.set(draft.key, draft);
    else if (held.named && draft.named && draft.fact.status !== 'absent') joinLevels(held, draft.named.qualifiers);
  }
  gradeBySeverityScales(text, kept.values());
  dateSpineCausesByTheirPain(drafts, kept.values());
  return [...facts, ...[...kept.values()].map((draft) => draft.fact).sort((a, b) => a.span!.start - b.span!.start)];
}
