import type { CriterionKind } from '../../../../contract/trials';
import type { ConceptScope } from './concept-scope';
import { namedByItsCause } from './named-by-cause';
import { markSharedModifiers } from './shared-modifier';
import { ALLERGY_PREFIX, type Concept, conceptRef, inClass, type Mention, type Vocabulary, withoutExample } from '../vocabulary';
import { COMPLICATION_BEFORE, DEFINITION, definitionOnly, DURING_OPERATION, isIndication, NOT_THE_TUMOR_AFTER, TUMOR_ID, conditionRule } from './conditions';
import { DURATION_WORDS, MAY_HAVE_DURATION, readDuration, readSubjectDuration, readWindow } from './durations';
import { exceptionScope, heldException } from './exceptions';
import { criteriaSetSpans, filedUnder, howKnownWords, meansOfDiagnosis, onlyWomenHave } from './how-known';
import { conditionAffectingStudy, JUDGEMENT } from './judgement';
import {
  ADHERENCE_TO,
  ALLERGY_TO,
  allergyNamedBefore,
  allergyToMedicine,
  allergyToNamed,
  DOSE_OF,
  isAllergy,
  PROCEDURE_PRODUCT,
  PRODUCT_APPLIED,
  PRODUCT_KINDS,
  SYSTEMIC_TREATMENT,
  medicationRule,
  naiveTo,
  namesTheStudysOwnProduct,
} from './medications';
import { anyKindParentheses, reviewOf } from './review';
import { readSpinePlaces } from './spine-places';
import { initialsStart, joinNames, labelLength, NEAR_NEGATION, REQUIRED_ABSENCE, sentenceStarts, type Span, type TextRule } from './text';
import { knownByTest, unreadAntibody } from '../vocabulary/antibody-tests';
import { criterionMentions } from './criterion-mentions';
import { allergyWords, containingWords, ownNameSpans, receiptAndTransplantWords } from './understood-words';

/**
 * The concept reader: which concepts a criterion asserts (not excepted, planned, a cause, an example), their negation,
 * time and words, and what a person must still check; conditions.ts and medications.ts make the rule.
 */

/** Conditions and medicines named in the criterion, read into present/absent/history and taking/not taking, with a time window. */
/** A concept named as something planned, needed, excepted or as a cause is not one the person has or takes. */
const NOT_ASSERTED =
  /\b(?:(?:non-?)?(?:compliance|adherence)\s+(?:to|with)|candidates?\s+for|eligible\s+for|consent(?:s|ed|ing)?\s+to|agree(?:s|d|ing)?\s+to|willing(?:ness)?\s+to|accept(?:s|ed|ing)?\s+(?:to\s+)?|indicated\s+for|(?:pre-?)?plann(?:ed|ing)|preplanned|scheduled|for\s+whom|in\s+whom|contraindicat\w*\s+(?:to|of|for|with)|(?:effects?|toxicity|absorption|metabolism)\s+of|(?:could|may|might|can|would)\s+(?:cause|induce|lead\s+to|result\s+in|provoke|trigger|produce|(?:\w+\s+)?affect|influence)|plans?\s+(?:to|of|for)|will\s+(?:undergo|receive|have)|(?:registered|due|expected|going|scheduled|eligible|waiting)\s+to\s+(?:receive|undergo|have)|requir(?:es|ed|ing)|need(?:s|ing)?|to\s+undergo|undergo(?:ing)?|application\s+of|due\s+to|caused\s+by|secondary\s+to|associated\s+with|related\s+to|other\s+than|except(?:\s+for)?|excluding|instead\s+of|prevent(?:ion)?\s+of|risk\s+of|suspicion\s+of|rule\s+out|affinity\s+(?:for|to)|susceptib\w*\s+(?:for|to)|predispos\w*\s+(?:for|to)|propensity\s+(?:for|to)|tendency\s+(?:for|to)|prone\s+to)\b[^.;()]{0,25}$/i;

const SIDE_OF =
  /(?:\b(?:adverse\s+(?:events?|reactions?|effects?)|i?m?aes?|toxicit(?:y|ies)|side[- ]effects?)\s+(?:from|of|after|following|due\s+to|related\s+to|caused\s+by|attributed\s+to|attributable\s+to)\b[^.;()]{0,40}|\b(?:waiting\s+list|wait-?list(?:ed)?|listed|awaiting)\s+(?:for\s+)?[^.;()]{0,25}|\brisk\b(?!\s*-?\s*factors?\b)[^.;()]{0,60}(?:\(\s*|,\s*|\s)(?:such\s+as|e\.\s?g\.?|including|like|for\s+example)(?=[\s,:]|$)[^()]*)$/i;

/** A finding of the operation itself: "noted during the index surgery", "found at the time of operation". */
const SURGICAL_FINDING_AFTER =
  /^[\s,]*(?:\w+\s+){0,2}?(?:noted|found|observed|identified|encountered|detected|seen|occurring|discovered)?\s*(?:during|at\s+the\s+time\s+of|in)\s+(?:the\s+)?(?:index\s+|study\s+|planned\s+)?(?:surgery|operation|procedure|surgical\s+procedure)\b/i;
/** MeSH's headings for complications of an operation: in criteria, the study's operation, never the person's history. */
const OPERATION_COMPLICATION = /^(?:postoperative|intraoperative|surgical)\s+complications?$/i;
const TESTED_AFTER =
  /^[\s-]*(?:(?:test(?:ing)?|titers?|titres?|levels?|concentrations?|results?)\b|(?:sero)?(?:positiv|negativ)|(?:is|are|was|were)\s+(?:positive|negative|detect))/i;
const TESTED_BEFORE =
  /\b(?:positive|negative|detectable|undetectable|elevated|serum|plasma|blood|levels?\s+of|tested\s+for|test(?:ing)?\s+for)\s+(?:for\s+)?(?:the\s+)?$/i;

/** A substance named as what a test found: "hepatitis C antibody positive", "positive for anti-HBc antibodies". */
function isTestedSubstance(text: string, mention: Mention): boolean {
  return TESTED_AFTER.test(text.slice(mention.end, mention.end + 25)) || TESTED_BEFORE.test(text.slice(Math.max(0, mention.start - 30), mention.start));
}

const PLANNED_EXAMPLE = /\b(?:pre-?planned|planned|scheduled|expected|anticipated)\b[^.;]{0,40}\b(?:such as|e\.?\s?g\.?|including|like|for example)\b[^.;]*$/i;

const MODIFIED_NOUN =
  /^[\s-]+(?:physicians?|doctors?|departments?|clinics?|specialists?|units?|services?|cent(?:er|re)s?|hospitals?|wards?|nurses?|teams?|programs?|programmes?|facilit(?:y|ies)|staff|providers?|(?:rating\s+)?scales?|scores?|index|indices|questionnaires?|inventor(?:y|ies)|assessments?)\b/i;

/** Sentences after the first that allow or permit something: what they name is not the criterion's rule. */
function permittedSentences(text: string): Span[] {
  const spans: Span[] = [];
  const sentence = /[^.;]+[.;]?/g;
  let first = true;
  for (const match of text.matchAll(sentence)) {
    if (
      !first &&
      /\b(?:(?:is|are|will be|may be|can be|be)\s+(?:\w+\s+)?(?:allowed|permitted|eligible|acceptable)|may (?:be )?(?:enrolled|included|participate)|can (?:be )?(?:enrolled|included|participate)|(?:is|are|should) not (?:be )?excluded|(?:is|are) not considered|no contraindication)\b/i.test(
        match[0],
      )
    )
      spans.push([match.index, match.index + match[0].length]);
    if (/\w/.test(match[0])) first = false;
  }
  return spans;
}

/** "Statin intolerant", "intolerance to metformin", "unable to tolerate NSAIDs": a medicine the person cannot take, not one taken. */
const INTOLERANT_BEFORE =
  /\b(?:intoleran(?:t|ce)|(?:unable|inability|failed)\s+to\s+tolerate|(?:could|can|did|does)\s*not\s+tolerate|not\s+tolerat(?:e|ed|ing))\s+(?:(?:to|of|with)\s+)?(?:(?:the|any|a|an)\s+)?(?:[\w-]+\s+){0,2}$/i;
// Never a refusal: "warfarin is not allowed", "are no longer permitted", "unacceptable".
const ALLOWED_AFTER = /^(?:(?!\b(?:not|never|no)\b|n't\b)[^.;,()]){0,30}?\b(?:(?:is|are|will\s+be)\s+)?(?:allowed|permitted|acceptable)\b/i;
const INTOLERANT_AFTER = /^[\s-]*(?:intoleran(?:t|ce)|intolerant)\b/i;

const NOT_MEETING_CRITERIA =
  /\b(?:not|never|no\s+longer|fail(?:s|ed|ing)?\s+to)\s+(?:meet(?:s|ing)?|fulfil\w*|satisf(?:y|ies|ying))\s+(?:the\s+)?(?:[\w-]+\s+){0,3}criteria\s+(?:for|of)\s+[^.;,]*$/i;

const PLACE_OF_PRODUCT =
  /\b(?:application|applied|placement|placed|implantation|implanted|insertion|inserted|administ\w+)\s+(?:of\s+)?(?:[\w-]+\s+){0,3}?(?:to|on|onto|into|in)\s+(?:the\s+)?(?:exposed\s+)?$/i;

/**
 * Conditions and medicines named in the criterion, read into present/absent/history and taking/not taking, with a time
 * window: which concepts the criterion asserts, which of them the rule reads, their scope, the words the rule
 * understands, what a person must check, and the rule (conditions.ts, medications.ts).
 */
export function readConceptRule(
  kind: CriterionKind,
  text: string,
  vocab: Vocabulary,
  trialConditions: Set<string> = new Set(),
  trialConcepts: readonly Concept[] = [],
): TextRule | null {
  const found = criterionMentions(vocab, text);
  markSharedModifiers(text, found, vocab);
  readSpinePlaces(text, found, vocab);
  const mayLast = MAY_HAVE_DURATION.test(text);
  if (!found.length) return mayLast && trialConcepts.length ? readSubjectDuration(kind, text, trialConcepts) : null;
  // "Subjects with brain metastases are eligible provided ...": a permission, not a requirement.
  // "Stable background therapies can be used including methotrexate": allowed, not required.
  // "Patients with diabetes will not be excluded", "may be enrolled": the same (decision 352).
  if (
    /\b(?:are|is|will be|may be|can be)\s+(?:\w+\s+)?(?:eligible|allowed|permitted)\b|\b(?:can|may)\s+(?:be\s+)?(?:used|continued|continue|remain)\b|\b(?:(?:will|shall|would|should|may|can)\s*not\s+be|(?:are|is)\s+not)\s+excluded\b|\b(?:may|can)\s+be\s+(?:included|enrolled)\b/i.test(
      text,
    ) &&
    kind === 'inclusion'
  )
    return null;
  // "Other chronic diseases (stroke, epilepsy) that may interfere with the outcomes": the conditions named are examples
  // of what the investigator judges (decision 180).
  if (
    conditionAffectingStudy(
      text,
      found.map((mention) => mention.start),
    )
  )
    return null;
  // "Deemed inappropriate by the investigator (e.g., active malignancy)": the judgement is the criterion.
  const judgement = JUDGEMENT.exec(text);
  const narrowed = narrowMentions(kind, text, assertedMentions(kind, text, found, trialConditions, mayLast), judgement);
  if ('stop' in narrowed) return narrowed.stop;
  const scope = readScope(kind, text, narrowed, mayLast);
  // "Exposure to the investigational product": the study's own product, a site check of the study-conduct reader.
  if (namesTheStudysOwnProduct(text, scope.first)) return null;
  // "Any cancer other than skin cancer": an exception of concepts the rule holds (decision 202); its words are read.
  scope.excepted = heldException(text, found, scope.same);
  if (scope.excepted) scope.spans.push(scope.excepted.span);
  // "Meets DSM-5 criteria for": the set's version is no number the rule must hold (decision 240).
  scope.spans.push(...criteriaSetSpans(scope));
  // "Cirrhosis of the liver": a word of the concept's own name, beside it (decisions 362, 378).
  scope.spans.push(...ownNameSpans(scope));
  const review = reviewOf(scope, understoodWords(scope));
  if (review.unreadAlternative) return { rule: null, needsReview: true };
  return medicationRule(scope, review) ?? conditionRule(scope, review);
}

/** The concepts a criterion names that it asserts the person has or takes: not excepted, planned, a cause, an example... */
function assertedMentions(kind: CriterionKind, text: string, found: Mention[], trialConditions: Set<string>, mayLast: boolean): Mention[] {
  // What follows "except", "other than", "with the exception of"... are the exceptions, never the rule's
  // concepts ("another malignancy except ... non-melanoma skin cancer" is not "must not have skin cancer").
  const exceptionSpan = exceptionScope(text);
  // In an exclusion, the trial's own condition names a form or severity of it ("life-threatening nephrotic
  // syndrome" in a nephrotic syndrome trial), never "must not have" the condition the trial studies.
  // A later sentence that allows something ("Killed vaccines are allowed.") names what is not excluded.
  const allowed = permittedSentences(text);
  // Cheap whole-text tests first, so the per-mention look-behinds run only where they can match (parse time, bench/).
  const mayDefine = DEFINITION.test(text);
  const mayDose = /\b(?:dose|administration|infusion|injection|initiation|start)s?\s+of\b/i.test(text);
  const mayPlan = /\b(?:pre-?planned|planned|scheduled|expected|anticipated)\b/i.test(text);
  const mayAdhere = /complian|adheren|adhere|comply/i.test(text);
  const mayComplicate = /complication|adverse/i.test(text);
  const maySide = /adverse|\bi?m?aes?\b|toxicit|side[- ]effect|wait|listed|risk/i.test(text);
  const mayApply =
    /\b(?:appli|plac|implant|use|administ|intra-?operative|during)/i.test(text) &&
    /neural|nerve|wound|dura|surgical|operative|disc|epidural|spinal canal|graft|surgery|operation|procedure/i.test(text);
  const anyKind = anyKindParentheses(text, found);
  const notAsserted = found.filter((mention) => NOT_ASSERTED.test(text.slice(Math.max(0, mention.start - 60), mention.start)));
  const mentions = found.filter(
    (mention) =>
      !(exceptionSpan && mention.start >= exceptionSpan[0] && mention.start < exceptionSpan[1]) &&
      !allowed.some(([start, end]) => mention.start >= start && mention.start < end) &&
      !notAsserted.includes(mention) &&
      // "Registered to receive the mRNA-1273 vaccine in the vaccination history database": a concept named as planned
      // stays planned when its clause names it again (hand-check Q).
      !notAsserted.some(
        (other) => other.concept.id === mention.concept.id && other.end <= mention.start && !/[.;\n]/.test(text.slice(other.end, mention.start)),
      ) &&
      // "Could not tolerate the traction secondary to being in an acute stage of back pain": in an exclusion, a cause
      // further back is still a cause, not what excludes (hand-check P).
      !(
        kind === 'exclusion' &&
        /\b(?:due to|secondary to|caused by|because of)\b[^.;()]{0,50}$/i.test(text.slice(Math.max(0, mention.start - 70), mention.start))
      ) &&
      // "Nonadherence to use of ... immunosuppressive therapies": adhering to a medicine is not taking or not taking it.
      !(mayAdhere && ADHERENCE_TO.test(text.slice(Math.max(0, mention.start - 120), mention.start))) &&
      // "Application of products to the exposed neural element, including: steroids": used in the operation, not taken.
      !(
        mention.concept.kind === 'medication' &&
        mayApply &&
        (PROCEDURE_PRODUCT.test(text.slice(0, mention.start)) || PRODUCT_APPLIED.test(text.slice(mention.end, mention.end + 80)))
      ) &&
      // "Other spinal diseases", "another malignancy": other than the one the trial studies, which the rule cannot name.
      // ("X or other Y", "any other Y" add alternatives and stay.)
      !/(?<!\b(?:or|and|nor|any|no|,)\s*)\b(?:other|another)\s+(?:[a-z-]+\s+){0,2}$/i.test(text.slice(Math.max(0, mention.start - 40), mention.start)) &&
      // "Liver disease of other aetiologies": the other causes are the rule, not the class the trial studies.
      !/^\s*(?:[a-z]+ing\s+)?(?:of|from|due to|caused by)\s+(?:an?\s+)?(?:other\s+(?:a?etiolog|causes?|origins?|reasons?)|(?:a?etiolog\w*|causes?|origins?|reasons?)\s+other\s+than)/i.test(
        text.slice(mention.end, mention.end + 50),
      ) &&
      // "Adverse events from prior immunotherapy", "on the waiting list for a transplant", "at a high risk of
      // osteoporosis (such as ... long-term corticosteroids)": a cause, a wait or a risk's examples, not what the person has or takes.
      // The window reaches back past a risk and its examples ("at a high risk of osteoporosis (such as postmenopausal
      // women and patients receiving long-term treatment with corticosteroids)", hand-check S).
      !(maySide && SIDE_OF.test(text.slice(Math.max(0, mention.start - 160), mention.start))) &&
      !(
        mayComplicate &&
        COMPLICATION_BEFORE.test(text.slice(Math.max(0, mention.start - 100), mention.start).replace(/\b(?:e\.\s?g|i\.\s?e|etc)\./gi, '')) &&
        DURING_OPERATION.test(text.slice(Math.max(0, mention.start - 100), mention.end + 120))
      ) &&
      // "First non-Raynaud's manifestation", "non-cancer pain": a "non-" word before what it qualifies names something
      // other than the concept ("non-diabetic adults" still says the person has no diabetes).
      !(
        /\bnon-\s*$/i.test(text.slice(Math.max(0, mention.start - 5), mention.start)) &&
        /^\s*(?:[a-z']+\s+)?(?:manifestations?|symptoms?|signs?|features?|causes?|origins?|events?|pain|related)\b/i.test(
          text.slice(mention.end, mention.end + 30),
        )
      ) &&
      // "Leg pain from sciatica": a symptom named with the condition it comes from is that condition, which the rule holds.
      !found.some(
        (cause) =>
          cause !== mention &&
          !notAsserted.includes(cause) &&
          /^\s*(?:from|resulting from|arising from)\s+(?:an?\s+|the\s+)?$/i.test(text.slice(mention.end, cause.start)),
      ) &&
      // "Biopsy-proven prostate cancer", "colitis on colonoscopy": the test is how the disease was found (decision 319).
      !meansOfDiagnosis(text, mention, found) &&
      // "With or without low back pain": optional, neither required nor excluded.
      // "Cirrhosis with or without hepatitis B co-infection": whatever follows in the clause is optional.
      !/\bwith\s+or\s+without\b[^.;,()]*$/i.test(text.slice(Math.max(0, mention.start - 60), mention.start)) &&
      // "Polyneuropathy (diabetic or other)": the causes of a condition that then says "any other" are not conditions.
      !anyKind.some(([start, end]) => mention.start >= start && mention.start < end) &&
      // "Implantation of antibiotic beads into the surgical wound": the place a product is put is not a condition.
      !(mayApply && PLACE_OF_PRODUCT.test(text.slice(Math.max(0, mention.start - 100), mention.start))) &&
      // "Statin intolerant hypercholesterolemia": a medicine the person cannot take is not one they take.
      !(
        mention.concept.kind === 'medication' &&
        (INTOLERANT_BEFORE.test(text.slice(Math.max(0, mention.start - 60), mention.start)) ||
          INTOLERANT_AFTER.test(text.slice(mention.end, mention.end + 20))) &&
        // "Allergy or intolerance to opioids": an allergy, which the allergy reader reads.
        !/\b(?:allerg|hypersensitiv|anaphyla)/i.test(text.slice(Math.max(0, mention.start - 60), mention.start))
      ) &&
      // "Systemic corticosteroids (topical steroids allowed)": what the criterion allows is no alternative of what it
      // requires or refuses (decision 373); the allowance stays unread, for staff.
      !ALLOWED_AFTER.test(text.slice(mention.end, mention.end + 50)) &&
      // "HIV-associated pulmonary hypertension": the cause written before a condition is not the condition (decision 301).
      !namedByItsCause(text, mention, found) &&
      // "Diabetic retinopathy": a complication named by its cause, not the cause itself.
      !(
        /^diabetic$/i.test(text.slice(mention.start, mention.end)) &&
        /^\s+(?:retinopathy|maculopathy|macular|neuropathy|nephropathy|kidney|foot|feet|ulcers?|ketoacidosis|gastroparesis)\b/i.test(
          text.slice(mention.end, mention.end + 20),
        )
      ) &&
      // "a physical therapy physician", "the dialysis unit": the concept names a person or a place, not a treatment.
      !MODIFIED_NOUN.test(text.slice(mention.end, mention.end + 20)) &&
      // "Investigational product (drug, vaccine, or device)": kinds of the product, not any vaccine.
      !PRODUCT_KINDS.test(text.slice(Math.max(0, text.lastIndexOf('(', mention.start) - 80), text.lastIndexOf('(', mention.start) + 1).replace(/\s+$/, '')) &&
      // "Tumour tissue", "tumour-related pain", "tumor necrosis factor", "anti-tumor treatment": the words name a sample,
      // a cause, a molecule or a treatment, not a tumour the person has (decision 108).
      !(
        mention.concept.id === TUMOR_ID &&
        (NOT_THE_TUMOR_AFTER.test(text.slice(mention.end, mention.end + 30)) || /\banti[\s-]*$/i.test(text.slice(0, mention.start)))
      ) &&
      // "Hepatitis C antibody positive", "serum ferritin level": a substance named as a test result or a level is a
      // finding, not a medicine taken (decision 140).
      !(mention.concept.kind === 'medication' && mention.concept.id.startsWith('mesh:') && isTestedSubstance(text, mention)) &&
      // "CSF leak noted during the index surgery", "a postoperative complication": what the study's operation finds or
      // causes is staff's to check then (the judgement reader), not a condition the person has (decision 140).
      !SURGICAL_FINDING_AFTER.test(text.slice(mention.end, mention.end + 60)) &&
      !OPERATION_COMPLICATION.test(mention.concept.en) &&
      // "Response Evaluation Criteria in Solid Tumors": the name of a set of criteria, not a condition.
      !/\bcriteria\s+in\s+$/i.test(text.slice(Math.max(0, mention.start - 20), mention.start)) &&
      // "Allergic to the test food or any other food": not an allergy to medicines.
      !(isAllergy(mention) && !allergyToMedicine(text, mention, found)) &&
      // "Peripheral neuropathy, defined as ... with type 2 diabetes": what a definition names is not an alternative.
      !(mayDefine && definitionOnly(text, mention, found)) &&
      !(mayDose && DOSE_OF.test(text.slice(Math.max(0, mention.start - 60), mention.start))) &&
      // "A preplanned treatment such as cardioversion or pacemaker implantation": examples of the plan.
      !(mayPlan && PLANNED_EXAMPLE.test(text.slice(Math.max(0, mention.start - 160), mention.start))) &&
      // In an exclusion, the condition a treatment is for is not what excludes ("requires facetectomy to treat back pain").
      !(kind === 'exclusion' && isIndication(text, mention, found)) &&
      // With a duration beside it ("low back pain for less than 3 months"), the trial's condition is what the exclusion is about.
      !(kind === 'exclusion' && mention.concept.mesh && trialConditions.has(mention.concept.mesh) && !(mayLast && readDuration(text, mention, mention))),
  );
  // "Allergy to peanuts or penicillin": an allergy set aside for a food keeps its medicines, which are allergens too,
  // not medicines taken.
  const setAside = found.find((mention) => isAllergy(mention) && !mentions.includes(mention));
  if (setAside) {
    const clauseEnd = setAside.end + (/[.;\n]/.exec(text.slice(setAside.end))?.index ?? text.length);
    mentions.splice(
      0,
      mentions.length,
      ...mentions.filter((mention) => !(mention.concept.kind === 'medication' && mention.start > setAside.end && mention.start < clauseEnd)),
    );
  }
  return mentions;
}

/**
 * "Low back pain (LBP)", "lumbar disc herniation (LDH)": a short form in brackets right after its concept restates it;
 * one mention spanning both, never a gloss in parentheses (which an inclusion sets aside) nor a word left unread
 * (decision 184). Only where the vocabulary read the short form as the very concept before it, written in capitals or
 * spelling the concept's initials ("human immunodeficiency virus (hiv)"). A short form the vocabulary did not read is
 * the concept's too when it spells the initials (decision 237).
 */
function restatedShortForms(text: string, mentions: Mention[]): void {
  for (let index = mentions.length - 1; index > 0; index--) {
    const [previous, mention] = [mentions[index - 1], mentions[index]];
    // "Human immunodeficiency virus (hiv) infection": the vocabulary may read the short form with words after its bracket.
    const written = /^([A-Za-z][A-Za-z0-9-]{0,7})\s*\)/.exec(text.slice(mention.start, Math.max(mention.end, mention.start + 10) + 3));
    if (!/^\s*\(\s*$/.test(text.slice(previous.end, mention.start)) || !written) continue;
    const short = written[1];
    const spelled = spellsInitials(text.slice(Math.max(0, previous.start - 40), previous.end), short, previous.end - previous.start);
    // "Acute myeloid leukemia (AML)": a short form that spells the concept before it restates it, whatever broader
    // concept the vocabulary reads it as alone (decision 237).
    const restates =
      mention.concept.id === previous.concept.id
        ? /^[A-Z][A-Za-z0-9-]{0,6}[A-Z0-9]$/.test(short) || spelled
        : spelled && mention.end <= mention.start + written[0].length;
    if (!restates) continue;
    mentions.splice(index - 1, 2, { ...previous, end: Math.max(mention.end, mention.start + written[0].length) });
  }
  for (const [index, mention] of mentions.entries()) {
    const bracket = /^\s*\(\s*([a-z][a-z0-9]{1,6})\s*\)/i.exec(text.slice(mention.end, mention.end + 12));
    if (!bracket || mentions.some((other) => other.start >= mention.end && other.start < mention.end + bracket[0].length)) continue;
    if (spellsInitials(text.slice(Math.max(0, mention.start - 40), mention.end), bracket[1], mention.end - mention.start))
      mentions[index] = { ...mention, end: mention.end + bracket[0].length };
  }
}

/**
 * "Deep vein thrombosis (dvt)", "chronic low back pain (clbp)", "end-stage renal disease (ESRD)": the letters of a short
 * form are the first letters of the words right before it, back over the whole concept (decision 237). Lower case too,
 * where the vocabulary reads no short form (a corpus written in lower case); read inside its bracket only, never as a
 * word elsewhere, where "all" or "aids" would be words.
 */
function spellsInitials(before: string, short: string, conceptLength: number): boolean {
  const start = initialsStart(before, short);
  return start !== -1 && start <= before.length - conceptLength;
}

type Narrowed = Pick<ConceptScope, 'mentions' | 'starts' | 'firstSentence' | 'laterSentences' | 'parenthetical' | 'allergens' | 'compound' | 'laterNegated'>;

/** The concepts the rule reads: criteria about a plan, a subgroup, a judgement or examples stop here (`stop`, a person reads them). */
function narrowMentions(kind: CriterionKind, text: string, mentions: Mention[], judgement: RegExpExecArray | null): Narrowed | { stop: TextRule | null } {
  if (!mentions.length) return { stop: null };
  restatedShortForms(text, mentions);
  // "Axial back pain only (no radicular symptoms)": an exclusion of the condition alone. "Must not have" it would refuse
  // those who have it with more, often the trial's own people.
  if (
    kind === 'exclusion' &&
    (/^\s*only\b/i.test(text.slice(mentions[0].end, mentions[0].end + 8)) ||
      /\bonly\s+(?:[a-z-]+\s+)?$/i.test(text.slice(Math.max(0, mentions[0].start - 20), mentions[0].start)))
  )
    return { stop: { rule: null, needsReview: true } };
  // "On stable background treatment with\n- antimalarials;\n- and/or prednisone;\n- and/or ...": list lines joined by "or"
  // are alternatives; in an inclusion, a rule requiring the one read would refuse people on another.
  if (kind === 'inclusion' && /\n\s*(?:[-•*·]|\(?\w{1,3}[.)])?\s*(?:and\s*\/\s*or|or)\b/i.test(text)) return { stop: { rule: null, needsReview: true } };
  // "Participants with HCV infection must have a confirmed diagnosis ...": a requirement of a subgroup, not that everybody
  // has the subgroup's condition.
  if (
    kind === 'inclusion' &&
    /^\s*(?:\(?\w{1,3}[.)]\s*)?(?:participants?|patients?|subjects?|those|individuals|women|men)\s+(?:with|who\s+(?:have|are))\b[^.;:]{1,80}?\b(?:must|should|need\s+to|are\s+required\s+to)\b/i.test(
      text.slice(labelLength(text)),
    )
  )
    return { stop: { rule: null, needsReview: true } };
  // "Planned or expected intervention (e.g. start of chemotherapy)", "Elective surgery planned during the study": the
  // criterion is about a plan, and what it names is not something the person has or takes.
  if (/^\s*(?:\(?\w{1,3}[.)]\s*)?(?:any\s+)?(?:planned|expected|anticipated|scheduled|foreseen|intended)\b/i.test(text.slice(labelLength(text)))) {
    // An inclusion keeps only what the planned treatment is for ("scheduled for laminectomy for treatment of stenosis").
    if (kind === 'exclusion') return { stop: null };
    const indications = mentions.filter((mention) => isIndication(text, mention, mentions));
    if (!indications.length) return { stop: null };
    mentions.splice(0, mentions.length, ...indications);
  }
  // "Has received radiotherapy within 14 days. Participants must have recovered ... not require corticosteroids":
  // a later sentence is another requirement (or a note on this one); the rule reads the first sentence that
  // names a concept, and a person reads the rest.
  const starts = sentenceStarts(text);
  const sentenceOf = (at: number) => starts.filter((start) => start <= at).length - 1;
  const firstSentence = sentenceOf(mentions[0].start);
  const laterSentences = mentions.some((mention) => sentenceOf(mention.start) !== firstSentence);
  if (laterSentences) mentions.splice(0, mentions.length, ...mentions.filter((mention) => sentenceOf(mention.start) === firstSentence));
  const { compound, laterNegated } = oneThingAndOnePolarity(text, mentions);
  infectionWithItsGerm(text, mentions);
  // "Deemed inappropriate by the investigator (e.g., active malignancy)": the judgement is the criterion.
  if (judgement && judgement.index < mentions[0].start) return { stop: null };
  // "Other inflammatory diseases, eg, IBD, skin disease, that, in the opinion of the investigator, could interfere": the
  // concepts are examples of what the investigator judges, not the rule.
  if (judgement && /\b(?:e\.?g\.?|such as|for example|for instance)(?=[\s,:]|$)/i.test(text.slice(0, mentions[0].start))) return { stop: null };
  // "Workers' compensation for back pain", "litigation related to the injury": the legal matter is the criterion.
  const legal = /\b(?:litigation|lawsuits?|workers?'?s?'?\s+comp(?:ensation)?|disability (?:remuneration|claims?|compensation))\b/i.exec(text);
  if (legal && legal.index < mentions[0].start) return { stop: null };
  // "Treatment with 1-3 oral antidiabetic drugs (metformin, glinides, ...)": in an inclusion, concepts named only
  // inside a parenthesis are examples of a class the reader did not name; requiring one of them would be wrong.
  const inParentheses = (at: number) => {
    // Depth, not the nearest bracket: "(..., failed back surgery syndrome (FBSS), radiculopathy)" is all inside.
    let depth = 0;
    for (const char of text.slice(0, at)) depth = char === '(' ? depth + 1 : char === ')' ? Math.max(0, depth - 1) : depth;
    return depth > 0;
  };
  if (kind === 'inclusion' && mentions.every((mention) => inParentheses(mention.start))) return { stop: { rule: null, needsReview: true } };
  // "Radicular pain provoked by ... list (scoliosis), straight leg raising": in an inclusion, a concept in parentheses
  // beside one named outside them glosses or exemplifies a word; as an alternative it would be met on its own.
  const parenthetical = kind === 'inclusion' && mentions.some((mention) => inParentheses(mention.start));
  if (parenthetical) mentions.splice(0, mentions.length, ...mentions.filter((mention) => !inParentheses(mention.start)));
  // "Allergy to local anaesthetics or opioids": an allergy to named medicines is one condition per medicine.
  const allergens = allergyToNamed(text, mentions) ?? allergyNamedBefore(text, mentions);
  if (allergens) mentions.splice(0, mentions.length, ...allergens.mentions);
  return { mentions, starts, firstSentence, laterSentences, parenthetical, allergens, compound, laterNegated };
}

/**
 * Narrows `mentions` in place to one thing of one polarity. "Parkinson's disease dementia": two conditions written side by
 * side name one thing, the last (the first says whose), so the rule reads the last, broader than the words (`compound`).
 * "Parkinson's disease, not meeting the criteria for dementia": a concept after a negation the first is not under has
 * the other polarity, which one rule cannot say; the rule reads the concepts before the negation (`laterNegated`).
 */
function oneThingAndOnePolarity(text: string, mentions: Mention[]): { compound: boolean; laterNegated: boolean } {
  let compound = false;
  for (let index = mentions.length - 1; index > 0; index--) {
    const [modifier, head] = [mentions[index - 1], mentions[index]];
    const together = modifier.end <= head.start && /^[\s-]*$/.test(text.slice(modifier.end, head.start));
    if (together && modifier.concept.kind === 'condition' && head.concept.kind === 'condition' && modifier.concept.id !== head.concept.id) {
      mentions.splice(index - 1, 1);
      compound = true;
    }
  }
  let laterNegated = false;
  const first = mentions[0];
  if (first && !NEAR_NEGATION.test(text.slice(Math.max(0, first.start - 40), first.start))) {
    // Only concepts of the first one's kind: another kind stays for the rule's other checks (its window, mixed kinds).
    const negatedLater = (mention: Mention) =>
      mention !== first &&
      mention.concept.kind === first.concept.kind &&
      // "Cauda equina syndrome and a negative MRI for disc herniation": a negative test for it negates it too (decision 188).
      /\b(?:not|no|without|never|nor|negative\s+(?:[\w-]+\s+){0,3}for|absence\s+of|free\s+of)\b/i.test(text.slice(first.end, mention.start));
    if (mentions.some(negatedLater)) {
      mentions.splice(0, mentions.length, ...mentions.filter((mention) => !negatedLater(mention)));
      laterNegated = true;
    }
  }
  return { compound, laterNegated };
}

/**
 * "Known infection with human immunodeficiency virus", "active infection by hepatitis B virus": an infection named by its
 * germ is that one infection, not any infection besides it (decision 266). The two mentions become one, the germ's
 * infection over all the words; only where the second is filed as an infectious disease (ICD-10 A or B).
 */
const INFECTION_ID = 'mesh:D000007239';
function infectionWithItsGerm(text: string, mentions: Mention[]): void {
  for (let index = mentions.length - 2; index >= 0; index--) {
    const [infection, germ] = [mentions[index], mentions[index + 1]];
    if (infection.concept.id !== INFECTION_ID || !/^[AB]\d/.test(germ.concept.icd10 ?? '')) continue;
    if (/^\s+(?:with|by|due\s+to|caused\s+by)\s+(?:the\s+|an?\s+)?$/i.test(text.slice(infection.end, germ.start)))
      mentions.splice(index, 2, { ...germ, start: infection.start });
  }
}

/** The rule's concepts, negation, time window, duration, name and words. */
/**
 * A medicine the rule also names by its class ("anticoagulants (e.g., warfarin, heparin)"): the class says it, so the
 * rule's name leaves it out; the rule still holds it (decision 337). A class is named in the plural or with examples;
 * one medicine under another in MeSH's tree ("azathioprine or 6-mercaptopurine") keeps both names.
 */
const CLASS_NAMED = /\(such as\b|s$/i;
function inNamedClass(mention: Mention, unique: readonly Mention[]): boolean {
  if (mention.concept.kind !== 'medication' || unique.length < 2) return false;
  return unique.some(
    (other) => other !== mention && other.concept.kind === 'medication' && CLASS_NAMED.test(other.concept.en) && inClass(mention.concept.id, other.concept.id),
  );
}

function readScope(kind: CriterionKind, text: string, narrowed: Narrowed, mayLast: boolean): ConceptScope {
  const { mentions } = narrowed;
  // The first concept's kind decides; further concepts of the same kind are alternatives ("MI, stroke or TIA").
  const first = mentions[0];
  const same = mentions.filter((mention) => mention.concept.kind === first.concept.kind);
  const unique: Mention[] = [];
  for (const mention of same) if (!unique.some((seen) => seen.concept.id === mention.concept.id)) unique.push(mention);
  const before = text.slice(0, first.start);
  // "Non-microdiscectomy lumbar surgery": a "non-" prefix negates its own word, not the concept after it.
  // "No chronic physical diseases, including skin diseases": the examples of a negated class are negated too.
  const listHead = /^(.*?)[,(]?\s*(?:including|such\s+as|e\.\s?g\.?,?)\s*$/i.exec(before);
  // "Naive to biologics", "methotrexate-naive": never given the medicine; "not naive to X": given it (decisions 188, 307).
  const naive = first.concept.kind === 'medication' ? naiveTo(text, first) : null;
  const negated = naive
    ? !naive.given
    : NEAR_NEGATION.test(negationScope(before)) ||
      REQUIRED_ABSENCE.test(negationScope(before, 100)) ||
      Boolean(listHead && NEAR_NEGATION.test(negationScope(listHead[1]))) ||
      // "Not meeting the criteria for Parkinson's disease dementia": the negation of meeting the criteria reaches the concept.
      NOT_MEETING_CRITERIA.test(before) ||
      negativeTestAfter(text, unique) ||
      negativeTestWords(text, unique).length > 0;
  const applies = kind === 'inclusion' ? !negated : negated;
  // A time window belongs to the concept when it is near it ("MI within 6 months"), not to another clause.
  const anyWindow = readWindow(text);
  const lastMention = unique.at(-1)!;
  const between = anyWindow ? text.slice(Math.min(lastMention.end, anyWindow.span[1]), Math.max(lastMention.end, anyWindow.span[0])) : '';
  // Abbreviations ("e.g.", "i.e.", "etc.", "vs.") do not end a clause.
  // The window and every concept it applies to sit in one clause (the first mention too, not only the last).
  const reach = anyWindow ? text.slice(Math.min(first.start, anyWindow.span[0]), Math.max(lastMention.end, anyWindow.span[0])) : '';
  const clauseBreak = /\n/.test(reach) || /[.;]/.test(between.replace(/\b(?:e\.\s?g|i\.\s?e|etc|vs|approx|incl|max|min|no)\./gi, ''));
  // "Nephrotic syndrome ... and no steroids within 12 weeks": a window after a concept of another kind is that one's.
  const otherBetween = Boolean(
    anyWindow &&
      mentions.some((mention) => mention.concept.kind !== first.concept.kind && mention.start >= lastMention.end && mention.end <= anyWindow.span[0]),
  );
  // "Used any of the following drugs within 14 days prior to enrollment: St. John's wort": a window in a list's lead-in
  // (the parent's words the structure writes before each item) is every item's (hand-check Q).
  const leadEnd = anyWindow && anyWindow.span[1] < first.start ? text.indexOf(': ', anyWindow.span[1]) : -1;
  const inLeadIn =
    leadEnd >= 0 &&
    leadEnd < first.start &&
    /\bfollowing\b/i.test(text.slice(0, leadEnd)) &&
    !/[.;\n]/.test(text.slice(anyWindow!.span[1], leadEnd)) &&
    !/[;\n]|\.(?:\s|$)/.test(text.slice(leadEnd, lastMention.end).replace(/\b(?:e\.\s?g|i\.\s?e|etc|vs|st)\./gi, ''));
  const window =
    anyWindow && !otherBetween && (inLeadIn || (anyWindow.span[0] - lastMention.end <= 120 && first.start - anyWindow.span[1] <= 30 && !clauseBreak))
      ? anyWindow
      : null;
  // Every mention of the chosen concepts is read, repeats too ("AIDS or HIV", "acute kidney injury (acute renal failure)").
  const spans: Span[] = same.map((mention) => [mention.start, mention.end]);
  if (window) spans.push(window.span);
  if (naive) spans.push(naive.span);
  // "Low back pain lasting more than 6 months": how long the condition has lasted (a condition only; a window wins).
  const duration = first.concept.kind === 'condition' && !window && mayLast ? readDuration(text, first, lastMention) : null;
  if (duration) spans.push(duration.reach);
  const concepts = unique.map((mention) => conceptRef(mention.concept));
  // Allergies to several medicines are named once: "an allergy to X or Y", then any other item of the list.
  // Several medicines are named without their examples, to keep the name short.
  const allergic = unique.filter((mention) => mention.concept.id.startsWith(ALLERGY_PREFIX));
  const allergenName = (mention: Mention) => {
    const medicine = mention.concept.en.slice(ALLERGY_TO.length);
    return allergic.length > 1 ? withoutExample(medicine) : medicine;
  };
  const name = allergic.length
    ? joinNames([
        `${ALLERGY_TO}${joinNames(allergic.map(allergenName))}`,
        ...unique.filter((mention) => !allergic.includes(mention)).map((mention) => mention.concept.en),
      ])
    : joinNames(unique.filter((mention) => !inNamedClass(mention, unique)).map((mention) => mention.concept.en));
  const span: Span = [Math.min(...spans.map((s) => s[0])), Math.max(...spans.map((s) => s[1]))];
  return {
    ...narrowed,
    kind,
    text,
    first,
    same,
    unique,
    lastMention,
    before,
    negated,
    applies,
    anyWindow,
    window,
    duration,
    spans,
    span,
    concepts,
    name: name ?? '',
  };
}

/**
 * "Detectable HCV RNA", "positive hepatitis C RNA": the virus found in the blood is hepatitis C now; without it the
 * infection is cured (an antibody alone stays after a cure). Not HIV or hepatitis B, whose viral load a treatment keeps
 * undetectable while the person still has the infection: a detectable load is narrower than having it (decision 184).
 */
function hepatitisCFoundWords(text: string, unique: Mention[]): string[] {
  if (unique.length !== 1 || unique[0].concept.en !== 'hepatitis C' || !/\b(?:rna|viral\s+loads?)\b/i.test(text)) return [];
  if (/\b(?:anti|antibod\w*|undetectable|negative|not\s+detect\w*)\b/i.test(text)) return [];
  return ['rna', 'ribonucleic', 'acid', 'viral', 'load', 'loads', 'detectable', 'detected', 'presence', 'test', 'tested', 'result', 'results'];
}

/**
 * "Known HIV seropositivity", "a positive test for HIV", "HIV positive status": a positive test of an infection is the
 * infection; an antibody read as its infection ("hepatitis C antibody positive") is the infection ever (decision 376),
 * and one left unread ("anti-HBs") keeps the words for a person. A positive SARS-CoV-2 test is COVID-19 too (decisions
 * 110, 278). "HIV status" alone is not.
 */
function positiveTestWords(text: string, unique: Mention[]): string[] {
  const tested = knownByTest;
  if (!unique.some(tested) || unreadAntibody(text, unique)) return [];
  const words = ['seropositive', 'seropositivity', 'positivity', 'test', 'tested', 'result', 'results', 'reactive'];
  const positiveStatus = /\bpositive\s+(?:[\w-]+\s+){0,2}(?:sero)?status\b|\b(?:sero)?status\s*(?::|is|of)?\s*positive\b/i;
  return unique.every(tested) && positiveStatus.test(text) ? [...words, 'status', 'serostatus'] : words;
}

/**
 * "HER2-negative", "hormone receptor-negative", "triple-negative", "EGFR-negative": a tumour marker's status names the
 * cancer's kind, never its absence (decision 316). Blanked before the negation test.
 */
const MARKER_NEGATIVE =
  /\b(?:her-?2(?:\/neu)?|hormone[\s-]+receptors?|hr|er|pr|(?:o)?estrogen[\s-]+receptors?|progesterone[\s-]+receptors?|triple|egfr|alk|ros-?1|kras|braf|pd-?l-?1)[\s/-]*negative\b/gi;

/**
 * The words before a concept that a negation may reach: a "non-" negates its own word, a marker's "negative" nothing, and
 * "(but) not limited to" opens examples, however the "but" is written ("including by not limited to").
 */
const negationScope = (before: string, reach = 40) =>
  before
    .slice(-reach)
    .replace(/\bnon-[a-z]+/gi, '')
    .replace(MARKER_NEGATIVE, ' ')
    .replace(/\bnot\s+(?:limited|restricted)\s+to\b/gi, ' ');

/**
 * "HIV negative", "HIV-seronegative", "hepatitis B negative status": a negative test written after an infection a person
 * knows the test of is the infection absent, as "negative for HIV" before it is (NEAR_NEGATION). Not an antibody left
 * unread ("anti-HBs negative" says no immunity, not no infection; one read as its infection is never having had it,
 * decision 376), nor a text that also says positive.
 */
const NEGATIVE_AFTER =
  /^[\s-]*(?:(?:sero)?status\s*(?::|is|was)?\s*|(?:test|tests|testing|serology)\s+(?:is\s+|was\s+|results?\s+)?)?(?:sero-?)?negative\b(?:\s+(?:sero)?status\b)?/i;
function negativeTestAfter(text: string, unique: Mention[]): boolean {
  const tested = (mention: Mention) => knownByTest(mention) || mention.concept.en === 'hepatitis C';
  if (!unique.every(tested) || unreadAntibody(text, unique) || /\bpositiv/i.test(text)) return false;
  const after = (mention: Mention) => text.slice(mention.end).replace(/^\s*(?:,|\bor\b|\band\b|\/)\s*/i, ' ');
  if (unique.every((mention) => NEGATIVE_AFTER.test(after(mention)))) return true;
  // "HIV, hepatitis B or hepatitis C negative": one negative after a list of the tested infections is every one's.
  const listed = unique.slice(1).every((mention, index) => LIST_JOINER.test(text.slice(unique[index].end, mention.start)));
  return listed && NEGATIVE_AFTER.test(after(unique.at(-1)!));
}
const LIST_JOINER = /^\s*(?:,\s*(?:(?:or|and)\s+)?|(?:or|and)\s+|\/\s*)$/i;
const NEGATIVE_TEST_WORDS = ['negative', 'seronegative', 'sero', 'status', 'serostatus', 'test', 'tests', 'testing', 'serology', 'result', 'results'];
/** "Negative for HIV", "a negative HIV test", "seronegative for hepatitis B": the negation NEAR_NEGATION reads is a test's. */
const NEGATIVE_BEFORE = /\b(?:sero-?)?negative\s+(?:(?:test|tests|testing|results?|serology)\s+)?(?:for\s+)?(?:the\s+)?$/i;
function negativeTestWords(text: string, unique: Mention[]): string[] {
  const before = NEGATIVE_BEFORE.test(text.slice(0, unique[0].start)) && !unreadAntibody(text, unique) && !/\bpositiv/i.test(text);
  return before && unique.every((mention) => knownByTest(mention) || mention.concept.en === 'hepatitis C') ? NEGATIVE_TEST_WORDS : [];
}

/** Words the rule understands beyond its concepts' own: "diagnosis", "medication", "its excipients"... */
function understoodWords(scope: ConceptScope): Set<string> {
  const { text, allergens, first, unique, duration } = scope;
  const extra = new Set([
    'diagnosis',
    'diagnosed',
    'disease',
    'disorder',
    'condition',
    'conditions',
    'event',
    'events',
    'episode',
    'episodes',
    'infection',
    'infections',
    'illness',
    'medication',
    'medications',
    'medicine',
    'medicines',
    'drug',
    'drugs',
    'agent',
    'agents',
    'administration',
    'administered',
    'exposure',
    'exposed',
    'underlying',
    'concomitant',
    'concurrent',
    'stable',
    'regimen',
    'following',
    'such',
    'like',
    'type',
    'types',
    'dependence',
    'abuse',
    'documented',
    'requiring',
    'required',
    'requires',
    'positive',
    'planned',
    'scheduled',
  ]);
  // "Chronic or acute pancreatitis", "acute and/or chronic": both courses together are the whole concept.
  if (/\b(?:acute|chronic)\s*(?:,|or|and\/or|and)\s*(?:acute|chronic)\b/i.test(text)) for (const word of ['acute', 'chronic']) extra.add(word);
  // "Active or chronic hepatitis B": whichever course, the infection now (decision 110).
  if (/\bactive\s*(?:,|or|and\/or)\s*chronic\b/i.test(text)) extra.add('chronic');
  // "HIV or AIDS-related illness": an illness of AIDS is one of HIV, which the rule names (decision 110).
  if (unique.some((mention) => mention.concept.en === 'HIV') && /\b(?:AIDS|HIV)\)?[- ]related\s+(?:illness|disease|condition)s?\b/i.test(text))
    extra.add('related');
  for (const word of ['mellitus', 'participated', 'enrolled', 'took', 'excluded', 'symptoms', 'symptom', 'their']) extra.add(word);
  // "Enrolled in or completed another investigational study within 30 days": taking part, ended or not, in the window
  // the rule holds (decision 110).
  if (
    unique.some((mention) => mention.concept.id === 'cohortly:investigational-drug') &&
    /\b(?:enrolled|participat\w*)\s+in\s+or\s+(?:have\s+|has\s+)?completed\b/i.test(text)
  )
    extra.add('completed');
  // "Meeting the diagnostic criteria for fibromyalgia": a diagnosis by its criteria is the diagnosis (decision 110).
  const byCriteria =
    /\b(?:meet(?:s|ing)?|fulfil(?:l|ls|ling|s)?|satisf(?:y|ies|ying))\s+(?:the\s+)?(?:diagnostic\s+)?criteria\s+(?:for|of)\s+(?:an?\s+|the\s+)?$/i;
  if (
    unique.some(
      (mention) =>
        byCriteria.test(text.slice(Math.max(0, mention.start - 50), mention.start)) &&
        /diagnostic/i.test(text.slice(Math.max(0, mention.start - 50), mention.start)),
    )
  )
    for (const word of [
      'meet',
      'meets',
      'meeting',
      'fulfil',
      'fulfill',
      'fulfils',
      'fulfills',
      'fulfilling',
      'satisfy',
      'satisfies',
      'satisfying',
      'diagnostic',
      'criteria',
    ])
      extra.add(word);
  // "Diabetes with uncontrolled blood glucose": the uncontrolled sugar is the uncontrolled diabetes the rule holds.
  if (
    unique.some((mention) => /diabetes/i.test(mention.concept.en)) &&
    /\bdiabet\w*(?:\s+mellitus)?\s+with\s+(?:uncontrolled|poorly\s+controlled)\s+(?:blood\s+(?:glucose|sugars?)|glyc(?:a)?emia)\b/i.test(text)
  )
    for (const word of ['blood', 'glucose', 'sugar', 'sugars', 'glycemia', 'glycaemia']) extra.add(word);
  for (const word of positiveTestWords(text, unique)) extra.add(word);
  for (const word of negativeTestAfter(text, unique) ? NEGATIVE_TEST_WORDS : negativeTestWords(text, unique)) extra.add(word);
  for (const word of hepatitisCFoundWords(text, unique)) extra.add(word);
  // "Have been given the diagnosis of ulcerative colitis": a diagnosis given is a diagnosis.
  if (/\bgiven\s+(?:a|the)\s+diagnosis\b/i.test(text)) extra.add('given');
  // "Diagnosed by the investigator / a physician with ...": who diagnosed says no more than the diagnosis.
  const diagnosedBy = /\bdiagnosed\s+by\s+(?:the\s+|a\s+|an\s+|your\s+)?(investigators?|physicians?|doctors?|specialists?)\b/i.exec(text);
  if (diagnosedBy) extra.add(diagnosedBy[1].toLowerCase());
  // "Systemic corticosteroids", "infection requiring systemic treatment": the route of a treatment says no more than the
  // treatment. "Systemic bone or joint disease" is narrower than bone disease: there the word is unread (hand-check O).
  if (first.concept.kind === 'medication' || [...text.matchAll(/\bsystemic(?:ally)?\s+([a-z-]+)/gi)].every((match) => SYSTEMIC_TREATMENT.test(match[1])))
    extra.add('systemic');
  // "Physician-diagnosed asthma", "suffering from gout", "comorbid fibromyalgia": how the condition is known (decision 214).
  for (const word of howKnownWords(scope)) extra.add(word);
  for (const word of receiptAndTransplantWords(scope)) extra.add(word);
  for (const word of containingWords(scope)) extra.add(word);
  // "Had undergone spine surgery": the verb of an operation says no more than the operation.
  // "Had undergone a hysterectomy": any operation MeSH files under surgical procedures (E04) too (decision 240).
  // "Women currently breastfeeding", "female participants with endometriosis": the sex word says nothing more (decision 278).
  if (onlyWomenHave(unique, text)) for (const word of ['women', 'woman', 'female', 'females']) extra.add(word);
  if (unique.some((mention) => /surgery|operation/i.test(mention.concept.en) || filedUnder(mention, /^E04/)))
    for (const word of ['undergone', 'underwent', 'undergo']) extra.add(word);
  if (duration) {
    for (const word of DURATION_WORDS) extra.add(word);
    // "Chronic low back pain (> 3 months)": the duration says what "chronic" means (12 weeks or more).
    if ((duration.bounds.minDays ?? 0) >= 84) extra.add('chronic');
  }
  for (const word of allergyWords(scope)) extra.add(word);
  return extra;
}
