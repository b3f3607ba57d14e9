import { lexicon } from '../vocabulary/lexicon';
import type { Mention } from '../vocabulary';
import type { ConceptScope } from './concept-scope';
import type { Span } from './text';

/**
 * Words that say how a condition is known or held, never what it is (decision 214): who diagnosed or reports it
 * ("physician-diagnosed asthma", "self-reported migraine", "medically documented epilepsy"), the verb of having it
 * ("suffering from", "presenting with", "living with"), that it sits beside others ("comorbid", "pre-existing"),
 * "any form of", the "medical" of "medical history", and "recent" where the rule holds the window that says how recent.
 * The condition rule's question is already "Have you been told by a doctor that you have ...?", so none of these is a
 * requirement a person must check. Only the words in these phrases are read; a word elsewhere stays unread.
 */

/** Who diagnosed, confirmed or documented it: a doctor, the investigator, the person's own report. */
const DIAGNOSED_BY = [
  /\b(?:physicians?|doctors?|clinicians?|specialists?|investigators?)[- ](?:diagnosed|confirmed|documented|verified)\b/gi,
  /\b(?:diagnosed|confirmed|documented|verified|established|made)\s+by\s+(?:the\s+|a\s+|an\s+|your\s+|their\s+)?(?:treating\s+)?(?:physicians?|doctors?|clinicians?|specialists?|investigators?)\b/gi,
  // A named specialist: "confirmed by a dermatologist", "diagnosed by a psychiatrist or paediatrician" (decision 229).
  /\b(?:diagnosed|confirmed|documented|verified|established|made)\s+by\s+(?:the\s+|a\s+|an\s+|your\s+|their\s+)?(?:treating\s+)?[a-z]+(?:ologists?|iatrists?|icians?)\b/gi,
  /\bmedically\s+(?:diagnosed|confirmed|documented|verified)\b/gi,
  /\b(?:self|patient)[- ]reported\b/gi,
  // "Have been told (by a doctor) that they have": the condition question's own words (decision 229).
  /\btold\s+(?:by\s+(?:a|the|their|your)\s+(?:doctor|physician|clinician)\s+)?(?:that\s+)?(?:they|he|she|you)\s+(?=(?:have|has|had)\b)/gi,
  // "Lifetime history of": ever, which the rule's history says.
  /\blifetime\s+(?=(?:history|diagnosis)\b)/gi,
  /\breports?\s+(?:a\s+|an\s+)?(?:history|diagnosis)\s+of\b/gi,
  /\b(?:established|verified)\s+diagnosis\s+of\b/gi,
];

/**
 * A named set of diagnostic criteria (decision 240): "DSM-5", "DSM-IV-TR", "ICD-10", "the UK Parkinson's Disease Society
 * Brain Bank", "NINCDS-ADRDA", "Rome IV", "McDonald", "ICHD-3": the standards a diagnosis is made by. Not classification
 * criteria ("the 2016 ACR classification criteria", ACR/EULAR), stricter than a diagnosis, nor response, toxicity and
 * grading criteria (RECIST, RANO, CTCAE), which say more than the condition: they stay words to read.
 */
const CRITERIA_SET = String.raw`(?:dsm(?:-?\s?(?:[ivx]+|\d+))?(?:-?tr)?|icd(?:-?\s?\d+)?(?:-cm)?|(?:uk\s+)?(?:parkinson'?s?\s+disease\s+society\s+)?brain\s+bank(?:\s*\([^()]{0,30}\))?|nincds-adrda|rome\s+(?:[ivx]+|\d)|(?:revised\s+)?mcdonald|ichd(?:-?\s?(?:[ivx]+|\d+))?)`;
const BY_CRITERIA_SET = new RegExp(
  [
    // "Meets DSM-5 criteria for", "fulfilling the ACR criteria for", "DSM-IV criteria for".
    String.raw`\b(?:(?:meets?|meeting|fulfil\w*|satisf(?:y|ies|ying))\s+(?:the\s+)?)?${CRITERIA_SET}\s+(?:diagnostic\s+)?criteria\s+(?:for|of)\b`,
    // "Per UK Brain Bank criteria", "based on DSM-IV-TR criteria", "according to the Rome IV criteria".
    String.raw`\b(?:per|according\s+to|based\s+on|by|using|consistent\s+with|as\s+defined\s+by|meeting)\s+(?:the\s+)?${CRITERIA_SET}(?:\s+(?:diagnostic\s+)?criteria)?\b`,
    // "A DSM-5 diagnosis of".
    String.raw`\b${CRITERIA_SET}\s+diagnosis\s+of\b`,
  ].join('|'),
  'gi',
);

/** The spans of a named set of diagnostic criteria, whose version numbers ("DSM-5", "ICD-10") are no requirement. */
export function criteriaSetSpans(scope: ConceptScope): Span[] {
  if (scope.first.concept.kind !== 'condition') return [];
  return [...scope.text.matchAll(BY_CRITERIA_SET)].map((match) => [match.index, match.index + match[0].length]);
}

/** Having it: "suffering from", "presenting with", "afflicted with", "affected by", "living with", "has experienced"
 * (ever, which the rule's history says: conditions.ts). */
const HAVING =
  /\b(suffer(?:s|ing)?\s+from|present(?:s|ed|ing)?\s+with|afflicted\s+(?:with|by)|affected\s+by|living\s+with|lives\s+with|(?<=\b(?:have|has|had)\s+(?:ever\s+)?)experienced)\s+(?:an?\s+|the\s+)?/gi;

/** "Past or present asthma", "present or previous": now or before, which the rule's "ever" says (decision 229). */
const NOW_OR_PAST = /\b(?:(?:past|previous|prior)\s+or\s+(present|current)|(present|current)\s+or\s+(?:past|previous|prior))\b/gi;

/** "Kidney transplant recipients", "recipient of a liver transplant": had the transplant, which the rule says (decision 341). */
export const TRANSPLANT_RECIPIENT = /\btransplant(?:ation|ed)?\s+(recipients?)\b|\b(recipients?\s+of)\s+(?=(?:an?\s+)?(?:[\w-]+\s+){0,3}transplant)/gi;

/** Beside other conditions, or there before the study: "comorbid", "coexisting", "pre-existing", "medical history". */
const BESIDE = /\b(co-?morbid|co-?existing|pre-?existing|(?:past\s+)?medical\s+history)\b/gi;

/**
 * "Any form of epilepsy", "diabetes of any type", "hepatitis of any aetiology", "anaemia regardless of cause", "whatever
 * its origin": every kind of the condition, which the rule names (decisions 214, 229).
 */
const ANY_KIND = new RegExp(
  [
    String.raw`\b(?:any|all)\s+(?:forms?|kinds?|degrees?|severity)\s+of\b`,
    String.raw`\bof\s+any\s+(?:form|kind|type|cause|origin|a?etiology|severity|degree)\b`,
    String.raw`\b(?:regardless|irrespective)\s+of\s+(?:the\s+|its\s+|their\s+)?(?:cause|origin|a?etiology|type|kind|form|severity)\b`,
    String.raw`\bwhatever\s+(?:the|its|their)\s+(?:cause|origin|a?etiology|type|kind|form|severity)\b`,
  ].join('|'),
  'gi',
);

/**
 * An exclusion that ends by restating that such people are refused: "are not eligible", "will be ineligible", "cannot
 * take part", "may not be enrolled in this study", "are not allowed to participate" (decisions 229, 356). Only at the clause's end, so "not eligible for surgery"
 * (a statement about the person) is not one; never an inclusion's "are eligible", which often permits rather than requires.
 */
const REFUSED =
  /\b(?:(?:is|are|will\s+be|would\s+be|shall\s+be|be)\s+(?:not\s+eligible|ineligible)|not\s+eligible|(?:cannot|can\s?not|may\s+not|will\s+not|must\s+not|shall\s+not)\s+(?:be\s+)?(?:eligible|enrolled|included|randomi[sz]ed|participate|take\s+part)|(?:are|is)\s+not\s+(?:allowed|permitted)\s+to\s+(?:participate|take\s+part|enter|enrol+))(?:\s+(?:in|for|into)\s+(?:this|the)\s+(?:study|trial))?(?=\s*(?:[.;]|$))/gi;

/**
 * "Histologically confirmed prostate cancer", "histologically or cytologically documented melanoma", "pathological diagnosis
 * of", "biopsy-proven": a tumour is diagnosed on its tissue, so the words say how the diagnosis was made, which the rule's
 * "told by a doctor" already is (decision 238). Only for a neoplasm: "biopsy-proven fatty liver disease" is narrower than
 * the disease, most often diagnosed without one.
 */
const TISSUE = String.raw`(?:histolog\w*|cytolog\w*|(?:histo)?patholog\w*)`;
const TISSUE_CONFIRMED = new RegExp(
  [
    String.raw`\b${TISSUE}-?(?:\s*(?:,|or|and\/or|and|\/)\s*${TISSUE}-?)*[\s-]+(?:confirmed|proven|documented|verified|established)(?:\s+(?:diagnosis|evidence)\s+of)?\b`,
    String.raw`\b${TISSUE}(?:\s*(?:,|or|and\/or|and|\/)\s*${TISSUE})*\s+(?:diagnosis|evidence|confirmation|documentation|proof)\s+of\b`,
    String.raw`\bbiopsy[\s-]+(?:confirmed|proven)\b`,
    String.raw`\b(?:confirmed|proven|documented|diagnosed)\s+(?:by|on)\s+(?:a\s+)?(?:histology|cytology|pathology|biopsy|histopathology)\b`,
  ].join('|'),
  'gi',
);

/** MeSH's neoplasms, and the marrow's clonal diseases it files under blood diseases (myelodysplastic syndromes). */
const NEOPLASM_TREE = /^(?:C04|C15\.378\.190\.6)/;

/** Whether MeSH files the concept's heading under one of these tree numbers. */
export function filedUnder(mention: Mention, trees: RegExp): boolean {
  const heading = mention.concept.descriptor ?? mention.concept.mesh;
  const at = heading ? lexicon().byId(heading) : undefined;
  return at !== undefined && lexicon().concepts[at].trees.some((tree) => trees.test(tree));
}

/** MeSH trees of what only women have: the female genital diseases, pregnancy and its complications, breastfeeding, lactation. */
const FEMALE_ONLY_TREES =
  /^(?:C12\.050\.351\.500|C12\.100\.250|C12\.050\.703|G08\.686\.784\.769|G08\.686\.523|G07\.203\.650\.(?:195|220\.500\.500|353\.199))(?:\.|$)/;

/** ICD-10-CM chapters of what only women have: pregnancy (O), female genital cancers (C51-C58), female pelvic and genital disorders (N70-N98). */
const femaleOnlyCodes = (mention: Mention) => {
  const codes = mention.concept.icd10Codes ?? [];
  return codes.length > 0 && codes.every((code) => /^(?:O|C5[1-8]|N(?:7\d|8\d|9[0-8]))/.test(code));
};

/**
 * "Women currently breastfeeding", "female participants with endometriosis": every concept is one only women have, so a
 * criterion that names women says no more than its concepts. Never when it names men too.
 */
export function onlyWomenHave(mentions: Mention[], text: string): boolean {
  return (
    mentions.length > 0 &&
    mentions.every((mention) => filedUnder(mention, FEMALE_ONLY_TREES) || femaleOnlyCodes(mention)) &&
    /\b(?:females?|wom[ae]n)\b/i.test(text) &&
    !/\b(?:males?|m[ae]n|boys?|fathers?)\b/i.test(text)
  );
}

const isNeoplasm = (mention: Mention) => mention.concept.id === 'cohortly:tumor' || filedUnder(mention, NEOPLASM_TREE);

/** The spans that say a tumour was diagnosed on its tissue, when every concept of the rule is one (decision 238). */
export function tissueConfirmedSpans(scope: ConceptScope): Span[] {
  if (scope.first.concept.kind !== 'condition' || !scope.unique.every(isNeoplasm)) return [];
  return [...scope.text.matchAll(TISSUE_CONFIRMED)].map((match) => [match.index, match.index + match[0].length]);
}

/** The words of these phrases, for the rule to count as read. */
export function howKnownWords(scope: ConceptScope): string[] {
  const { text, first, window } = scope;
  if (first.concept.kind !== 'condition') return [];
  const words: string[] = [];
  const take = (phrase: string) => words.push(...(phrase.toLowerCase().match(/[a-z]+/g) ?? []));
  for (const pattern of [...DIAGNOSED_BY, BY_CRITERIA_SET]) for (const match of text.matchAll(pattern)) take(match[0]);
  for (const match of text.matchAll(HAVING)) take(match[1]);
  for (const match of text.matchAll(BESIDE)) take(match[1]);
  if (/transplant/i.test(first.concept.en)) for (const match of text.matchAll(TRANSPLANT_RECIPIENT)) take(match[1] ?? match[2]);
  for (const match of text.matchAll(ANY_KIND)) take(match[0]);
  if (scope.kind === 'exclusion') for (const match of text.matchAll(REFUSED)) take(match[0]);
  for (const match of text.matchAll(NOW_OR_PAST)) take(match[0]);
  // "Recent stroke (within 6 months)": the window says how recent. Without one, "recent" stays a time to check.
  if (window) for (const match of text.matchAll(/\b(recent(?:ly)?)\b(?:\s+past\b)?/gi)) take(match[0]);
  for (const [start, end] of tissueConfirmedSpans(scope)) take(text.slice(start, end));
  return words;
}

/** MeSH's diagnostic techniques (E01): a biopsy, an endoscopy, a colonoscopy. */
const DIAGNOSIS_TREE = /^E01(?:\.|$)/;
/** MeSH's diseases (C) and mental disorders (F03): what a test finds. */
const DISEASE_TREE = /^(?:C\d\d|F03)(?:\.|$)/;

/** "Biopsy-proven", "biopsy showing", "colonoscopy demonstrating": the test, then what it found. */
const FINDS_AFTER = /^[\s-]*(?:proven|confirmed|documented|verified|documentation|specimens?\s+showing|showing|shows|showed|shown|demonstrat\w*|reveal\w*)\b/i;
/** "On biopsy", "by kidney biopsy", "after a bone marrow biopsy": how what was named before was found. */
const FOUND_BY_BEFORE = /\b(?:by|on|via|using|through|after|at|with)\s+(?:an?\s+|the\s+)?(?:[a-z]+\s+){0,2}$/i;

/**
 * A diagnostic test named as the way a disease the criterion names was found ("biopsy-proven prostate cancer",
 * "granulomatous inflammation on biopsy", "Crohn's disease diagnosed by endoscopy"): the test is how the disease is
 * known, never an alternative to it. Its words stay for the reader's checks (decision 319).
 */
export function meansOfDiagnosis(text: string, mention: Mention, found: readonly Mention[]): boolean {
  if (!filedUnder(mention, DIAGNOSIS_TREE) || filedUnder(mention, DISEASE_TREE)) return false;
  const disease = (other: Mention) => other !== mention && filedUnder(other, DISEASE_TREE) && !filedUnder(other, DIAGNOSIS_TREE);
  const clauseAfter = text.slice(mention.end, mention.end + 80).split(/[.;]/)[0];
  if (FINDS_AFTER.test(clauseAfter) && found.some((other) => disease(other) && other.start >= mention.end && other.start < mention.end + clauseAfter.length))
    return true;
  const before = text.slice(Math.max(0, mention.start - 40), mention.start);
  return (
    FOUND_BY_BEFORE.test(before) && found.some((other) => disease(other) && other.end <= mention.start && !/[.;]/.test(text.slice(other.end, mention.start)))
  );
}
