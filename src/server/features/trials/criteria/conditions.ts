import type { ConceptReview, ConceptScope } from './concept-scope';
import { spanOf, type TextRule } from './text';
import { isProcedure, type Mention } from '../vocabulary';
import { everByAntibody, isLifelongInfection } from '../vocabulary/antibody-tests';
import { TRANSPLANT_RECIPIENT } from './how-known';

/**
 * Conditions a criterion names: what a treatment is for, definitions, history, and the condition rule of a concept reading.
 */

// "Over the past year" is a window (read or not), never "ever". "At any time", "at any point in their life": ever
// (decision 236), not "at any time during the study" (the study's own time). "Has experienced a stroke", "underwent a
// mastectomy": ever (decision 240).
export const HISTORY =
  /\b(?:history|(?<!\d\s)prior(?!\s+to\b)|(?<!\d\s)previous(?:ly)?(?!\s+to\b)|past(?!\s+(?:\d+\s*|few\s+|several\s+)?(?:days?|weeks?|months?|years?)\b)|ever|had|former|(?<=\b(?:have|has)\s+(?:ever\s+)?)(?:experienced|undergone)|underwent|at\s+any\s+(?:time|point|stage)(?!\s+(?:during|while|throughout|within|after|from|of\s+the\s+(?:study|trial)|in\s+the\s+(?:study|trial|last|next|past\s+\d)|since)\b))\b/i;

export const CURRENT = /\b(?:current(?:ly)?|active|ongoing|present|uncontrolled|now)\b/i;

/** "Active or prior documented autoimmune disorders", "current or past use of", "history or presence of": now or before,
 * which is "ever" (hand-check Q); "active" alone is now. */
export const NOW_OR_BEFORE_ALL =
  /\b(?:current(?:ly)?|now)\s+(?:ha(?:ve|s)|suffer(?:s|ing)?\s+from|(?:is|are)\s+(?:being\s+)?treated\s+for)\s+(?:or|and\/or)\s+(?:(?:have|has)\s+)?(?:previous(?:ly)?|former(?:ly)?|ever|in\s+the\s+past)\b|\b(?:active|current(?:ly)?|present|ongoing|existing),?\s+(?:or|and\/or)\s+(?:a\s+)?(?:prior|previous|past|former|history)\b|\b(?:prior|previous|past|history|former),?\s+(?:or|and\/or)\s+(?:active|current|present|ongoing|existing|presence)\b/gi;

export const NOW_OR_BEFORE = new RegExp(NOW_OR_BEFORE_ALL.source, 'i');

/** "Facetectomy to treat back pain", "surgery for the treatment of stenosis": the condition a treatment is for. */
const INDICATION = /\b(?:to\s+treat(?:ing)?|(?:for|in)\s+(?:the\s+)?(?:treatment|management|relief)\s+of)\s+(?:[\w/-]+\s+|[\w-]+\/){0,3}$/i;

/** "Instability associated with reconstructive surgery for primary tumours", "a history of surgery for a hernia": the
 * condition a past operation, or one that caused something else, was for (decision 110). Not "undergoing surgery for X"
 * in a surgical trial, where X is what excludes. */
const SURGERY_FOR =
  /\b(?:associated\s+with|after|following|from|due\s+to|secondary\s+to|caused\s+by|complications?\s+(?:of|from)|history\s+of|prior|previous(?:ly)?)\s+(?:[\w-]+\s+){0,3}(?:surger(?:y|ies)|operations?|resections?)\s+for(?:\s+(?:an?|the))?\s+(?:[\w/-]+\s+|[\w-]+\/){0,3}$/i;

const TREATED_WITH = /\b(?:treated|treatment|managed|operated(?:\s+on)?)\s+(?:with|by|using)\s+(?:(?:an?|the)\s+)?(?:[\w-]+\s+){0,2}$/i;

const PROCEDURE_FOR = /^\s+for\s+(?:(?:the|an?|their|his|her)\s+)?$/i;

/** The condition a treatment is for, or one listed right after it ("surgery for primary tumours or metastatic cancer"). */
export function isIndication(text: string, mention: Mention, found: Mention[]): boolean {
  const before60 = text.slice(Math.max(0, mention.start - 60), mention.start);
  if (INDICATION.test(before60) || SURGERY_FOR.test(text.slice(Math.max(0, mention.start - 100), mention.start))) return true;
  const before = found.filter((other) => other.end <= mention.start).sort((a, b) => b.end - a.end)[0];
  // "Intubation for asthma", "dialysis for kidney failure": what a procedure named right before was for, not another
  // condition the person must not have (decision 340).
  if (before && PROCEDURE_FOR.test(text.slice(before.end, mention.start)) && isProcedure(before.concept.id)) return true;
  // "Not treated with discectomy for the disc herniation": what a named treatment was for (decision 188).
  if (
    before &&
    TREATED_WITH.test(text.slice(Math.max(0, before.start - 40), before.start)) &&
    /^\s+for\s+(?:(?:the|an?|their|his|her)\s+)?(?:[\w-]+\s+){0,2}$/i.test(text.slice(before.end, mention.start))
  )
    return true;
  return (
    before !== undefined &&
    /^\s*(?:,\s*(?:or\s+|and\s+)?|(?:or|and|and\/or)\s+)(?:[a-z-]+\s+){0,2}$/i.test(text.slice(before.end, mention.start)) &&
    isIndication(text, before, found)
  );
}

// "Hepatitis C (with evidence of recent infection)": a parenthesis that opens with "with evidence of" describes the concept
// before it (hand-check R), as "defined as" does.
const DEFINITION_ALL =
  /\b(?:defined|characteri[sz]ed|manifested|evidenced|diagnosed|confirmed|documented)\s+(?:as|by)\b|\bi\.\s?e\.|\(\s*with\s+(?:evidence|signs)\s+of\b/gi;

export const DEFINITION = new RegExp(DEFINITION_ALL.source, 'i');

/** A concept named only inside a definition of an earlier one ("neuropathy, defined as a patient with diabetes ..."),
 * up to the definition's next comma or semicolon; a restatement of the same concept ("(i.e., acute renal failure)") stays. */
export function definitionOnly(text: string, mention: Mention, found: Mention[]): boolean {
  const earlier = found.filter((other) => other.end <= mention.start);
  if (!earlier.length || earlier.some((other) => other.concept.id === mention.concept.id)) return false;
  const between = text.slice(earlier[0].end, mention.start);
  const definition = [...between.matchAll(DEFINITION_ALL)].at(-1);
  return Boolean(definition && !/[,;)]/.test(between.slice(definition.index + definition[0].length)));
}

/** A noun after a concept that makes the concept a modifier ("physical therapy physician", "dialysis unit"). */
export const TUMOR_ID = 'cohortly:tumor';

export const NOT_THE_TUMOR_AFTER =
  /^[\s-]*(?:tissues?|samples?|specimens?|blocks?|biops(?:y|ies)|markers?|necrosis|related|associated|induced|cells?|types?|sizes?|volumes?|burden|mutational|response|assessments?|measurements?|lesions?|board|load|progression|grade|stage|site|bed|lysis|flare|growth)\b/i;

/**
 * "A complication (bleeding, hospital infection) developed ... after the operation", "adverse events or complications
 * assessed during surgery (e.g., infection)": what happens during or after the study's operation is not a condition the
 * person has before it (hand-check O).
 */
export const COMPLICATION_BEFORE = /\b(?:complications?|adverse\s+events?)\b[^.;]{0,100}$/i;

export const DURING_OPERATION =
  /\b(?:during|after|following)\s+(?:the\s+)?(?:index\s+|study\s+)?(?:operation|surgery|procedure|intervention)\b|\b(?:intra|post)-?operative(?:ly)?\b/i;

/** The condition rule of a concept reading: present or absent, ever ("history of"), in a window, lasting, with its qualifiers. */
export function conditionRule(scope: ConceptScope, review: ConceptReview): TextRule {
  const { kind, text, starts, firstSentence, applies, window, duration, concepts, name, span } = scope;
  const { needsReview, reasons, left, held } = review;
  // History words count in the sentence that names the concept, not in another clause ("exercises in the past; claustrophobia").
  const sentence = text.slice(starts[firstSentence], starts[firstSentence + 1] ?? text.length);
  // "Based on history, examination and MRI": history-taking, not a past condition.
  // "On the currently painful segment": "currently" says which segment, not that the surgery is now (hand-check R).
  // "All patients had radiculopathy due to ...": in an inclusion, the trial's patients described, not a past condition.
  const described = kind === 'inclusion' ? sentence.replace(/\b(?:all\s+)?(?:the\s+)?(?:patients|participants|subjects)\s+had\b/gi, ' ') : sentence;
  const historical = described
    .replace(/\bcurrent(?:ly)?\s+(?:painful|affected|symptomatic|involved|index|treated|operated)\b/gi, ' ')
    .replace(
      /\b(?:based on|by|from|per|according to|confirmed by|on)\s+(?:the\s+)?(?:(?:medical|clinical|patient)\s+)?history\b|\b(?:evidenced|established|confirmed|determined|documented|assessed|shown)\s+by\b[^.;]{0,60}?\bhistory\b/gi,
      '',
    );
  // "Chronic or acute pancreatitis": both courses together are the whole condition, never one of them.
  const bothCourses = /\b(?:acute|chronic)\s*(?:,|or|and\/or|and)\s*(?:acute|chronic)\b/i.test(text);
  const qualifiers = (held?.qualifiers ?? []).filter((qualifier) => !(bothCourses && (qualifier === 'acute' || qualifier === 'chronic')));
  // "Kidney transplant recipients", "recipient of a liver transplant": ever had the transplant (decision 341).
  const recipient = historical.search(TRANSPLANT_RECIPIENT) >= 0 && scope.unique.every((mention) => /transplant/i.test(mention.concept.en));
  const historyWords = (HISTORY.test(historical) || recipient) && (!CURRENT.test(historical) || NOW_OR_BEFORE.test(historical));
  // "Hepatitis C antibody positive": ever had it (decision 376). Beside an infection read now ("HBsAg or HCV antibody
  // positive") the one rule cannot hold both times, so a person reads it; HIV is the same ever and now.
  const byAntibody = scope.unique.some(everByAntibody);
  const everAndNow = byAntibody && !historyWords && scope.unique.some((mention) => !everByAntibody(mention) && !isLifelongInfection(mention));
  const history = historyWords || (byAntibody && !everAndNow);
  // "Has hyperthyroidism, or has had previous fractures": a history word only after the first concept speaks of a later
  // one; "ever" would reach the first too, so a person reads it.
  // A window's "previous 2 months" is no history word.
  const pastWords = historical.replace(/\b(?:previous|prior|past|preceding|last)\s+(?:\d+|few|several)?\s*(?:days?|weeks?|months?|years?)\b/gi, (words) =>
    ' '.repeat(words.length),
  );
  const laterHistory =
    HISTORY.test(pastWords) && scope.unique.length > 1 && !HISTORY.test(pastWords.slice(0, Math.max(0, scope.first.end - starts[firstSentence])));
  return {
    rule: {
      type: 'condition',
      condition: name,
      present: applies,
      concepts,
      ...(history ? { history: true } : {}),
      ...(window ? { within: window.window } : {}),
      ...(duration ? { duration: { ...duration.bounds, span: spanOf(duration.span) } } : {}),
      ...(qualifiers.length ? { qualifiers } : {}),
      ...(scope.excepted ? { except: scope.excepted.concepts } : {}),
      // The words a qualifier was read from are highlighted with the concept's.
      span: spanOf(held ? [Math.min(span[0], ...held.consumed.keys()), Math.max(span[1], ...held.consumed.values())] : span),
    },
    needsReview: needsReview || laterHistory || everAndNow,
    reasons: [...(reasons ?? []), ...(laterHistory ? ['historyOfLater'] : []), ...(everAndNow ? ['everAndNow'] : [])],
    unread: left,
  };
}
