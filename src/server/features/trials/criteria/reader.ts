import type { CriterionKind, CriterionRule } from '../../../../contract/trials';
import { ALLERGY_PREFIX, type Concept, isOperationHeading, type MeshTerm, STUDY_MEDICINE_PREFIX, vocabulary, type Vocabulary } from '../vocabulary';
import { isTechnique } from '../vocabulary/treatment';
import { readAgeRule } from './age';
import { readConceptRule } from './concepts';
import {
  deviceMaterialAllergy,
  JUDGEMENT,
  KEEPS_TO_RESTRICTION,
  NON_ADHERENCE,
  namesStudysPlannedTreatment,
  neurologicalFindingOnly,
  readJudgementRule,
} from './judgement';
import { readAnalyteLabRule } from './analyte-labs';
import { readKidneyStageRule } from './kidney-stages';
import { readAsaRule, readLabRule, readPerformanceRule } from './labs';
import { readHealthyRule, readPregnancyRule, readSexRule, readSmokingRule } from './status';
import { inclusionOnlyPermits, readExclusionPermission, readStudyConductRule } from './study-conduct';
import { readOperationRule } from './operations';
import { readOtherStudyRule } from './other-studies';
import { readOtherCancerRule } from './other-cancers';
import { readScreeningTestRule } from './screening-tests';
import { isWholePair } from './qualifiers';
import { labelLength, namesOneSex, type TextRule } from './text';
import { narrowNamedVaccine } from './vaccines';
import { criterionMentions } from './criterion-mentions';
import { onlyWomenHave } from './how-known';
import { rationaleSpans } from './rationale';

/**
 * One criterion's rule: the ordered table of readers, and the guards that stop a measure read out of its context.
 */

export interface ReadOptions {
  /** The vocabulary, with the record's own MeSH terms; default: the product's. */
  vocabulary?: Vocabulary;
  /** Concept ids of the conditions the trial studies (the record's condition MeSH terms). */
  trialConditions?: Set<string>;
  /** The trial's conditions as concepts: what "symptoms" and "pain" without a named condition are about. */
  trialConcepts?: Concept[];
  /** The names of the trial's own medicines (its drug interventions): what an allergy "to finerenone" is to. */
  studyMedicines?: readonly string[];
}

/** What a reader of the table may need besides the criterion: the vocabulary, the record's options, the measure read first. */
interface ReaderContext {
  vocabulary: Vocabulary;
  options: ReadOptions;
  /** The lab, vital, score, pregnancy or smoking rule, read before the table (its guards below may stop the reading). */
  measured: TextRule | null;
  /** Telling conditions apart or keeping to a treatment: the concepts named are not the criterion. */
  conceptsUnread: boolean;
}

/** Measures, in order: a performance status or ASA class before a lab value (their digits would read as one), then pregnancy and smoking. */
const MEASURE_READERS: ReadonlyArray<{ name: string; read: (kind: CriterionKind, text: string) => TextRule | null }> = [
  { name: 'performance status', read: readPerformanceRule },
  { name: 'ASA class', read: readAsaRule },
  // A chronic kidney disease's stage, as the eGFR that defines it (decision 379).
  { name: 'kidney disease stage', read: readKidneyStageRule },
  { name: 'labs and vitals', read: readLabRule },
  // Any other analyte the vocabulary names, with a laboratory's unit (decision 304): after the table, for what it lacks.
  { name: 'analyte labs', read: readAnalyteLabRule },
  { name: 'pregnancy and contraception', read: readPregnancyRule },
  { name: 'smoking', read: readSmokingRule },
];

/**
 * The readers in order; the first that reads a rule (or decides a person must) wins. An age before anything (its numbers
 * are read only beside an age word), then measures, the concepts a criterion names, staff's judgement, healthy
 * volunteers, a criterion of sex words alone, and what the study itself arranges.
 */
const READERS: ReadonlyArray<{ name: string; read: (kind: CriterionKind, text: string, context: ReaderContext) => TextRule | null }> = [
  { name: 'age', read: (kind, text) => readAgeRule(kind, text) },
  { name: 'measures', read: (_kind, _text, context) => context.measured },
  // Another cancer, "other than the disease under study", with the cancers it excepts (decision 305).
  { name: 'another cancer', read: (kind, text, { vocabulary, conceptsUnread }) => (conceptsUnread ? null : readOtherCancerRule(kind, text, vocabulary)) },
  {
    name: 'conditions and medications',
    read: (kind, text, { vocabulary, options, conceptsUnread }) =>
      conceptsUnread ? null : readConceptRule(kind, text, vocabulary, options.trialConditions, options.trialConcepts),
  },
  // An operation by its generic name ("any surgery within 28 days"), when no concept was read (decision 306).
  { name: 'operations', read: (kind, text, { vocabulary, conceptsUnread }) => (conceptsUnread ? null : readOperationRule(kind, text, vocabulary)) },
  // Another study, however it is called, when the vocabulary's forms did not name it (decision 245).
  { name: 'other studies', read: (kind, text, { vocabulary, conceptsUnread }) => (conceptsUnread ? null : readOtherStudyRule(kind, text, vocabulary)) },
  { name: 'judgement', read: (kind, text) => readJudgementRule(text, false, kind) },
  { name: 'healthy volunteers', read: readHealthyRule },
  { name: 'sex', read: readSexRule },
  // The study's own screening tests and their window, a site check (decision 267).
  { name: 'screening tests', read: (_kind, text, { vocabulary }) => readScreeningTestRule(text, vocabulary) },
  // Last: what the study itself arranges (its schedule, setting, permissions, the operation's needs), only when no
  // reader above read the criterion (decision 224).
  { name: 'study conduct', read: (kind, text, { vocabulary }) => readStudyConductRule(kind, text, vocabulary) },
];

/**
 * "COPD, non-smoker", "adults aged 18-65 with asthma": a rule of another reader (an age, a measure, smoking) that leaves a
 * condition or medicine the vocabulary names outside its words drops a requirement; a person reads the criterion.
 */
const INSTRUMENT_AFTER = /^[\s-]*(?:epi\w*|formula|equation|(?:rating\s+)?scales?|scores?|index|questionnaires?|criteria|classification|staging)\b/i;

/** A sample a lab value is measured in, which the vocabulary may read as a blood product ("plasma"). */
const SPECIMEN = /^(?:plasma|serum|whole\s+blood)$/i;

function leavesConceptUnread(rule: CriterionRule, text: string, vocab: Vocabulary): boolean {
  if (rule.type === 'condition' || rule.type === 'medication' || rule.type === 'site_judgement' || !rule.span) return false;
  const { start, end } = rule.span;
  // The medicines a pregnancy criterion names in its reason ("the effects of X on the developing fetus") are no requirement.
  const reasons = rule.type === 'pregnancy' || rule.type === 'contraception' ? rationaleSpans(text) : [];
  return vocab.find(text).some(
    (mention) =>
      (mention.concept.kind === 'condition' || mention.concept.kind === 'medication') &&
      (mention.end <= start || mention.start >= end) &&
      !reasons.some(([from, to]) => mention.start >= from && mention.end <= to) &&
      // "CKD-EPI formula", "Parkinson's disease rating scale": the concept names an instrument, not a requirement.
      !INSTRUMENT_AFTER.test(text.slice(mention.end, mention.end + 30)) &&
      // "Plasma aldosterone ≥ 15 ng/dL", "fasting plasma triglycerides": the sample the value is measured in (decision 366).
      !(SPECIMEN.test(text.slice(mention.start, mention.end)) && /^\s*(?:fasting\s+)?$/i.test(text.slice(mention.end, start))),
  );
}

/**
 * "Referred for neoadjuvant chemotherapy", "scheduled for radiation therapy": in an inclusion, a treatment the study plans
 * for the person is the site's to schedule (decision 246), not a medicine the person takes now. Only when every concept
 * named is a treatment (a medicine or a MeSH technique, tree E): "scheduled for surgery for a disc herniation" still
 * names the condition a person is asked about.
 */
function plannedStudyTreatment(kind: CriterionKind, text: string, vocab: Vocabulary): boolean {
  if (!namesStudysPlannedTreatment(kind, text)) return false;
  const named = vocab.find(text).filter((mention) => mention.concept.kind === 'condition' || mention.concept.kind === 'medication');
  return named.every((mention) => mention.concept.kind === 'medication' || isTechnique(mention.concept, vocab));
}

/** "Greater than", "worse than", "more severe than", "predominant over", "exceeds": how one thing stands against another. */
const COMPARISON =
  /\b(?:(?:is|are|be)\s+)?(?:(?:greater|worse|stronger|higher|larger|more\s+(?:severe|intense|prominent|bothersome|painful|disabling)|predominant|predominating|dominant|dominating)\s+(?:than|over)|predominates?\s+over|exceed(?:s|ing)?|outweigh(?:s|ing)?)\b/gi;

/**
 * "Leg pain worse than back pain", "arm symptoms predominant over neck symptoms": a condition or medicine on each side
 * of a comparison, in one clause, asks which of the two is greater (decision 188); a person reads it, never "has either".
 */
function comparesConcepts(text: string, vocab: Vocabulary): boolean {
  // The concepts are looked up only when the words compare (most criteria do not).
  let named: ReturnType<typeof criterionMentions> | null = null;
  for (const comparison of text.matchAll(COMPARISON)) {
    named ??= criterionMentions(vocab, text).filter((mention) => mention.concept.kind === 'condition' || mention.concept.kind === 'medication');
    const [start, end] = [comparison.index, comparison.index + comparison[0].length];
    const clauseBefore = text
      .slice(0, start)
      .split(/[.;\n]/)
      .at(-1)!.length;
    const clauseAfter = /[.;\n]/.exec(text.slice(end))?.index ?? text.length;
    const before = named.some((mention) => mention.end <= start && mention.start >= start - clauseBefore);
    const after = named.some((mention) => mention.start >= end && mention.start <= end + Math.min(clauseAfter, 40));
    // "Arm symptoms predominant over neck pain": one side named is enough when the other is words, not a number
    // ("HbA1c greater than 8%", "pain greater than 4 on a 10-point scale"), a length of time or a degree ("greater
    // than a mild degree of scoliosis").
    const otherSide = text.slice(end, end + clauseAfter);
    const amount =
      /^\s*(?:or\s+equal\s+to\s+)?(?:[\d<>≤≥=.,]|(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twice|half|normal|baseline|usual|expected|(?:an?\s+)?(?:minimal|mild|moderate|slight|small)(?:ly)?)\b)/i;
    if ((before || after) && !amount.test(otherSide) && /[a-z]/i.test(otherSide) && /[a-z]{3}/i.test(text.slice(start - clauseBefore, start))) return true;
  }
  return false;
}

/**
 * "Prior surgery for the condition under study", "previous operations on the same knee": an operation placed or given a
 * purpose is narrower than any operation, which is all the rule says (decision 140); a person reads it.
 */
function placedOperation(rule: CriterionRule, text: string): boolean {
  if (rule.type !== 'condition' || !rule.concepts?.some((concept) => concept.id === PRIOR_SURGERY_ID)) return false;
  const named = text.replace(/\bhistory\s+of\s+(?=(?:prior\s+|previous\s+)?(?:surger|operation))/gi, '');
  return /\b(?:surger(?:y|ies)|operations?|procedures?|interventions?|history)\s+(?:for|at|on|of|in|to|involving)\s+(?!the\s+(?:last|past|previous)\b|(?:the\s+)?(?:last|past|previous)\b)/i.test(
    named,
  );
}
const PRIOR_SURGERY_ID = 'cohortly:prior-surgery';

/**
 * "Conversion to open surgery", "Ambulatory surgery": an exclusion that is a MeSH heading of operations (tree E04) and
 * nothing else, with no word of the past ("prior", "history of", "had"), is most often about the study's own operation,
 * its kind and its plan (decision 224), which the site sets; it is not something to ask the person ("have you had ...?").
 * Whether the trial is one of an operation is not known here, so a person reads it (decision 235). An inclusion
 * ("CABG", "Total knee arthroplasty") the more so: it names who undergoes the operation, not who had one (decision 309).
 */
function operationHeadingAlone(rule: CriterionRule, text: string): boolean {
  if (rule.type !== 'condition' || rule.history || rule.within || !rule.concepts?.length || !rule.span) return false;
  if (!rule.concepts.every((concept) => isOperationHeading(concept.id))) return false;
  const body = text.slice(labelLength(text));
  if (/\b(?:history|prior|previous(?:ly)?|past|had|has\s+had|have\s+had|underwent|undergone|former|ever)\b/i.test(body)) return false;
  // The whole criterion: what is left outside the rule's words is at most a subject ("patients with", "need for").
  const outside = `${text.slice(labelLength(text), rule.span.start)} ${text.slice(rule.span.end)}`;
  return !/[a-z]{3}/i.test(
    outside.replace(
      /\b(?:the|an?|any|patients?|participants?|subjects?|who|with|requiring|require[sd]?|need(?:s|ing)?|for|of|undergoing|planned|scheduled|expected|likely|to)\b/gi,
      '',
    ),
  );
}

/**
 * "Active or uncontrolled infection", "severe or refractory asthma": two narrowings written as alternatives. The rule's
 * qualifiers are all required, so holding one (or both) refuses fewer than the text does; a person reads it (decision
 * 235). Not a pair that names every form ("controlled or uncontrolled", decision 227).
 */
const NARROWING =
  /\b(?:active|uncontrolled|poorly\s+controlled|unstable|severe|serious|significant|refractory|recurrent|chronic|acute|symptomatic|progressive|persistent|untreated|advanced|decompensated|intractable|clinically\s+significant|life-threatening)\b/gi;
function qualifierAlternatives(rule: CriterionRule, text: string): boolean {
  if (rule.type !== 'condition' || !rule.qualifiers?.length) return false;
  const words = [...text.matchAll(NARROWING)];
  for (let i = 0; i + 1 < words.length; i++) {
    const [a, b] = [words[i], words[i + 1]];
    const between = text.slice(a.index + a[0].length, b.index);
    if (!/^\s*(?:,\s*(?:or\s+|and\/or\s+)?|\/\s*|(?:or|and\/or)\s+)$/i.test(between)) continue;
    if (isWholePair(a[0].toLowerCase(), b[0].toLowerCase())) continue;
    return true;
  }
  return false;
}

/** The concepts the trial's own condition names ("Low Back Pain", "Lumbar Disc Herniation") are, each read whole. */
export function trialConceptsOf(names: readonly string[], vocab: Vocabulary = vocabulary()): Concept[] {
  const concepts: Concept[] = [];
  for (const name of names) {
    const text = name.trim();
    const found = vocab.find(text);
    // Only a name that is one concept: "Pain, Postoperative" or a list would be a guess.
    if (found.length !== 1 || found[0].start > 0 || found[0].end < text.replace(/[\s.]+$/, '').length) continue;
    if (found[0].concept.kind === 'condition' && !concepts.some((concept) => concept.id === found[0].concept.id)) concepts.push(found[0].concept);
  }
  return concepts;
}

/**
 * "Must be at least 18 years of age", "Patients must not have diabetes", "Subjects should have a haemoglobin of 10 g/dL or
 * more", written among the exclusions: the words state what the person must be or have, and turning them round as an
 * exclusion would refuse the very people the trial takes (decision 277). Not "should be excluded if".
 */
const REQUIREMENT_OPENING =
  /^(?:(?:all\s+)?(?:the\s+)?(?:patients?|participants?|subjects?|individuals?|persons?|people|women|men|females?|males?|volunteers?|candidates?|children|adults?|they)\s+)?(?:must|should|shall|needs?\s+to|ha(?:s|ve)\s+to|(?:is|are)\s+required\s+to)\s+(?!(?:not\s+)?be\s+(?:excluded|ineligible|disqualified)\b)/i;

/** A requirement's word after a short subject: "Platelets must be at least 100", "BMI should not exceed 35". */
const MODAL = /\b(?:must|should|shall|needs?\s+to|ha(?:s|ve)\s+to|(?:is|are)\s+required\s+to)\s+(?!(?:not\s+)?be\s+(?:excluded|ineligible|disqualified)\b)/i;

/**
 * Where the words of a requirement end in an exclusion's opening, or null: a group's ("patients must"), or a short
 * subject's such as a measure ("platelets must be at least 100", decision 355); never a relative clause ("patients who
 * must take warfarin" are excluded for taking it).
 */
function requirementOpening(opening: string): number | null {
  const grouped = REQUIREMENT_OPENING.exec(opening);
  if (grouped) return grouped[0].length;
  const modal = MODAL.exec(opening);
  if (!modal || modal.index === 0) return null;
  const subject = opening.slice(0, modal.index);
  if (subject.trim().split(/\s+/).length > 4 || /\b(?:who|that|which|whom|whose|if|when|unless|where|while)\b|[,;:()]/i.test(subject)) return null;
  return modal.index + modal[0].length;
}

/**
 * "No history of heart attack", "Without known HIV infection" among the exclusions: read as written, the person must have
 * had the condition, which is what a trial of it may mean, or the author's inclusion wording in the wrong list. Which one
 * is not in the words: a rule that requires a condition, a medicine or smoking goes to a person (decision 277).
 */
/**
 * "Patients older than 65 years will not be enrolled", "Smokers are excluded", written among the inclusions: the words
 * say who is refused, and read as a requirement the rule would take only them (decision 352). Not "will not be excluded".
 */
const EXCLUDED_PREDICATE =
  /\b(?:(?:will|shall|would|must|should|may|can)\s+(?:then\s+)?be\s+|(?:are|is)\s+)(?:excluded|ineligible|disqualified)\b|\b(?:(?:will|shall|would|must|should|may|can)\s*not\s+be|cannot\s+be|(?:are|is)\s+not)\s+(?:eligible|enrolled|included|allowed|permitted|accepted|recruited|randomi[sz]ed)\b/gi;
/** What "eligible for" or "excluded from" names when it is the study itself. */
const THE_STUDY =
  /^\s*(?:(?:for|from|in|to|on)\s+(?:this|the)\s+(?:study|trial|protocol|research)|for\s+(?:participation|enrol?ment|inclusion|this\s+study))\b/i;

/**
 * "May not take part", "cannot participate", "are not allowed to enter" (decision 356): a refusal by the verb of taking
 * part, only where nothing but the study follows. "May not participate in another clinical trial during the study" asks
 * a person to keep out of other studies, which is no refusal.
 */
const NOT_TAKING_PART =
  /\b(?:(?:will|shall|would|must|should|may|can)\s*not|cannot|can't|(?:are|is)\s+not\s+(?:allowed|permitted)\s+to|(?:are|is)\s+(?:excluded|barred)\s+from)\s+(?:participat(?:e|ing|ion)|tak(?:e|ing)\s+part|enter(?:ing)?|join(?:ing)?|be\s+(?:entered|included)\s+(?:in|into))\b/gi;
const NOTHING_BUT_THE_STUDY = /^\s*(?:(?:in|into|on)\s+(?:this|the)\s+(?:study|trial|protocol|research)\b)?\s*(?:[.;,]|$)/i;

/** The words refuse a person from the study; "ineligible for cisplatin", "not eligible for surgery" name a treatment. */
function saysRefused(text: string): boolean {
  const refusedByPredicate = [...text.matchAll(EXCLUDED_PREDICATE)].some((match) => {
    const after = text.slice(match.index + match[0].length);
    return !/^\s*(?:for|to)\b/i.test(after) || THE_STUDY.test(after);
  });
  return refusedByPredicate || [...text.matchAll(NOT_TAKING_PART)].some((match) => NOTHING_BUT_THE_STUDY.test(text.slice(match.index + match[0].length)));
}

const NEGATED_OPENING = /^(?:no|without|absence\s+of|free\s+(?:of|from))\b/i;
function requiresPresence(rule: CriterionRule | null | undefined): boolean {
  if (rule?.type === 'condition') return rule.present;
  if (rule?.type === 'medication') return rule.taking;
  return rule?.type === 'smoking' && rule.smoker;
}

/**
 * The rule a criterion's text states, or none (a person reads it). An exclusion worded as a requirement is read as the
 * words require, in review when that differs from the exclusion's reading: the section and the words disagree, and a
 * person confirms which the author meant.
 */
export function readTextRule(kind: CriterionKind, text: string, options: ReadOptions = {}): TextRule {
  const read = readCriterion(kind, text, options);
  if (kind === 'inclusion') return saysRefused(text) ? readAsWordsSay(read, readCriterion('exclusion', text, options), 'exclusionInInclusion') : read;
  const opening = text.slice(labelLength(text)).trimStart();
  if (NEGATED_OPENING.test(opening) && requiresPresence(read.rule) && !read.needsReview)
    return { ...read, needsReview: true, reasons: [...(read.reasons ?? []), 'negatedExclusion'] };
  const requirementEnd = requirementOpening(opening);
  if (requirementEnd === null) return read;
  // "Must not have any known HIV infection": a requirement of absence says what the exclusion says; the section and
  // the words agree, and the words' reading needs no one to confirm it (decision 355).
  if (/^not\b/i.test(opening.slice(requirementEnd))) return readCriterion('inclusion', text, options);
  return readAsWordsSay(read, readCriterion('inclusion', text, options), 'requirementInExclusion');
}

/** The reading the words state, in review when it differs from the section's: a person confirms which the author meant. */
function readAsWordsSay(bySection: TextRule, byWords: TextRule, reason: string): TextRule {
  if (JSON.stringify(byWords.rule ?? null) === JSON.stringify(bySection.rule ?? null)) return bySection;
  return { ...byWords, needsReview: true, reasons: [...(byWords.reasons ?? []), reason] };
}

function readCriterion(kind: CriterionKind, text: string, options: ReadOptions): TextRule {
  // Turkish dotted and dotless i ("İn The Last Month") read as i; one code unit each, so spans still fit the text.
  text = text.replace(/İ/g, 'I').replace(/ı/g, 'i');
  // "INR < or = 1.5", "platelets >/= 100,000": a bound written with "or" or a slash is the sign it spells, padded to
  // its own length so spans still fit the text (decision 332).
  text = text.replace(/([<>])\s*(?:or|\/)\s*=(?!=)/gi, (written, sign: string) => (sign === '<' ? '≤' : '≥').padEnd(written.length, ' '));
  // The trial's own medicines are read by name only in an allergy: "hypersensitivity to finerenone" in its trial is an
  // allergy to the study medicine; elsewhere ("Arm A (HRO761) only:", "prior MRAs such as finerenone") a name says more
  // than that the person takes it (decision 108).
  const base = options.vocabulary ?? vocabulary();
  if (options.studyMedicines?.length && /\b(?:allerg|hypersensitiv|anaphyla)/i.test(text)) {
    // The names serve only as allergens: "prior exposure to sotatercept or hypersensitivity to its excipients" is read
    // as before, without them, when the allergy is not to the named medicine.
    const named = readTextRule(kind, text, { ...options, vocabulary: base.withStudyMedicines(options.studyMedicines), studyMedicines: undefined });
    if (JSON.stringify(named.rule ?? null).includes(`"${ALLERGY_PREFIX}${STUDY_MEDICINE_PREFIX}`)) return named;
  }
  const vocab = base;
  let measured: TextRule | null = null;
  for (const reader of MEASURE_READERS) if ((measured = reader.read(kind, text))) break;
  // A threshold that defines something else is not a current limit: "Blood pressure not well controlled (systolic
  // 150 mmHg or less ...)" defines control, which an exclusion's inverted bound would turn around; "renal crisis within
  // the past 12 months (eGFR < 45)" is the value of a past event, not today's. A person reads them.
  const limit = measured?.rule?.type === 'lab' ? measured.rule.span : undefined;
  if (limit) {
    const before = text.slice(0, limit.start);
    // "A change in body weight > 5 kg": a change, not the value. "Either HAQ-DI ≥ 0.25 or PtGA ≥ 3": in an inclusion,
    // one of two measures required would refuse those who meet the other.
    if (
      /\b(?:change|gain|loss|increase|decrease|reduction|drop|rise|fluctuation)s?\s+(?:in|of)\b/i.test(text.slice(Math.max(0, limit.start - 40), limit.end)) &&
      !/\b(?:change|gain|loss|increase|decrease|reduction|drop|rise|fluctuation)s?\s+(?:in|of)\b[^.;]*[.;]/i.test(
        text.slice(Math.max(0, limit.start - 40), limit.start),
      )
    )
      return { rule: null, needsReview: true };
    if (
      kind === 'inclusion' &&
      /\beither\b/i.test(before) &&
      /\bor\b[^.;]*(?:[<>≤≥=]|\b(?:at least|more than|less than|greater than)\b)/i.test(text.slice(limit.end))
    )
      return { rule: null, needsReview: true };
    const inParenthesis = before.lastIndexOf('(') > before.lastIndexOf(')');
    const defined = inParenthesis ? before.slice(0, before.lastIndexOf('(')) : '';
    if (
      (kind === 'exclusion' && /\bnot\s+(?:well\s+|adequately\s+|sufficiently\s+)?controlled\b/i.test(before)) ||
      (inParenthesis && /\b(?:history|prior|previous|past)\b/i.test(defined) && /\b(?:within|in)\s+(?:the\s+)?(?:last|past|previous|prior)\b/i.test(defined))
    )
      return { rule: null, needsReview: true };
  }
  // "Conditions that could preclude surgery in the investigator's opinion (e.g., smoking)": the judgement is the criterion.
  const judgement = measured?.rule?.span ? JUDGEMENT.exec(text) : null;
  if (judgement && measured?.rule?.span && judgement.index < measured.rule.span.start) return readJudgementRule(text, true)!;
  // "Difficulty distinguishing migraine from other headaches": telling conditions apart is the criterion, not having them.
  const distinguishing = /\b(?:distinguish\w*|tell(?:ing)?\b[^.;]{0,60}\bapart|tell(?:ing)?\s+the\s+difference)\b/i.test(text);
  // "Evidence of non-adherence to prescribed therapy": how well someone keeps to treatment is staff's judgement, not a
  // treatment taken or not (decision 110).
  const nonAdherence = kind === 'exclusion' && NON_ADHERENCE.test(text.slice(labelLength(text)));
  // "Willing to refrain from alcohol": keeping to the study's restriction, not the alcohol; "referred for chemotherapy":
  // the study's planned treatment, not a medicine taken (decision 246).
  // "May receive transfusions", "two prior lines are permissible": an inclusion that only permits names no medicine the
  // person must take; the study-conduct reader reads it (decision 246).
  const restriction =
    KEEPS_TO_RESTRICTION.test(text.slice(labelLength(text))) ||
    plannedStudyTreatment(kind, text, vocab) ||
    (kind === 'inclusion' && inclusionOnlyPermits(text));
  // "Progressive neurological deficit", "sensitivity to the device materials": an examination finding, or an allergy to
  // what only staff know the device is made of, is a site check, not the condition the words touch (decision 180).
  const siteFinding = neurologicalFindingOnly(text) || deviceMaterialAllergy(text);
  // "Neck pain greater than arm pain": a comparison of two things asks which is worse, which no condition rule says.
  const comparing = comparesConcepts(text, vocab);
  const context: ReaderContext = {
    vocabulary: vocab,
    options,
    measured,
    conceptsUnread: distinguishing || nonAdherence || restriction || siteFinding || comparing,
  };
  // A permission written among exclusions refuses no one, whatever it names: an age, a measure, a condition (decision 235).
  const permission = kind === 'exclusion' ? readExclusionPermission(text, vocab) : null;
  if (permission) return permission;
  let read: TextRule = { rule: null, needsReview: true };
  for (const reader of READERS) {
    const found = reader.read(kind, text, context);
    if (found) {
      read = found;
      break;
    }
  }
  // "Prior influenza vaccination": that vaccine, never any vaccine (decision 191).
  read = narrowNamedVaccine(read, text, vocab);
  // "Female patients aged 18-65", "Men with asthma": the rule does not hold the sex the criterion names (pregnancy and
  // contraception imply it; site checks are read by a person anyway).
  // Each guard names its flag, as the readers name theirs (decision 241), so the breakdown counts them.
  const held = (reason: string): TextRule => ({ ...read, needsReview: true, reasons: [...(read.reasons ?? []), reason] });
  if (read.rule && !read.needsReview && leavesConceptUnread(read.rule, text, vocab)) return held('conceptUnread');
  if (read.rule && !read.needsReview && placedOperation(read.rule, text)) return held('placedOperation');
  if (read.rule && !read.needsReview && operationHeadingAlone(read.rule, text)) return held('operationHeadingAlone');
  if (read.rule && !read.needsReview && qualifierAlternatives(read.rule, text)) return held('qualifierAlternatives');
  const sexImplied = ['sex', 'pregnancy', 'contraception', 'site_judgement'];
  if (read.rule && !read.needsReview && !sexImplied.includes(read.rule.type) && namesOneSex(text) && !womenOnlyRule(read.rule, text, vocab))
    return held('oneSex');
  return read;
}

/** A condition rule whose every concept only women have, in a criterion that names women (decision 278). */
function womenOnlyRule(rule: CriterionRule, text: string, vocab: Vocabulary): boolean {
  if (rule.type !== 'condition' || !rule.concepts?.length) return false;
  const ids = new Set(rule.concepts.map((concept) => concept.id));
  const named = vocab.find(text).filter((mention) => ids.has(mention.concept.id));
  return ids.size === new Set(named.map((mention) => mention.concept.id)).size && onlyWomenHave(named, text);
}

/** The vocabulary for one record: the product's, plus the record's own MeSH terms. */
export function recordVocabulary(extra: MeshTerm[] = []): Vocabulary {
  return vocabulary().with(extra);
}
