import type { Mention } from '../vocabulary';
import { lexicon } from '../vocabulary/lexicon';
import { phraseKey, standardSpelling } from '../vocabulary/normalize';
import type { ConceptReview, ConceptScope } from './concept-scope';
import { knownByTest, unreadAntibody } from '../vocabulary/antibody-tests';
import { TUMOR_ID } from './conditions';
import { leftoverDuration } from './durations';
import { isAllergy, pastUseOf } from './medications';
import { tissueConfirmedSpans } from './how-known';
import { isWholePair, QUALIFIER, readQualifiers, wholePairSpans } from './qualifiers';
import { SHARED_MODIFIER } from './shared-modifier';
import { leftoverNumbers, leftoverWords, type Span, unreadListItem } from './text';

/**
 * What a person must still check of a concept rule: the words it left, the qualifiers it holds, and every flag that says
 * the rule reads less than the criterion. Steps in order: points in time and optional words set aside, the words left,
 * what narrows the concept, the flags, and an unread alternative beside the concepts.
 */

/** "(with ... imaging)", "histology", "RECIST": a finding only staff can read. */
const CLINICIAN_WORDS =
  /\b(?:histolog\w*|cytolog\w*|(?:histo)?patholog(?:ic\w*|ist\w*)|histopatholog\w*|biops\w*|mri|ct scan|imaging|radiograph\w*|radiolog\w*|x-ray|ultrasound|echocardiogra\w*|ecg|ekg|electrocardiogra\w*|measurable|recist|stage|staging|grade|tnm|mutation|positive for|expression|pd-l1|egfr|alk|her2|kras|braf|msi|dmmr|biomarker|metasta\w*|lesions?|refractory|relapsed|line of therapy|lines of therapy|cycles?|nyha|gold|child-pugh|spirometr\w*|culture|pcr|serolog\w*|antibod\w* (?:test|titer|titre))\b/i;

/** A product's code before it has a name: "ABBV-399", "BI 764532", "AZD9291", "MK-3475A". */
const SPONSOR_CODE = String.raw`[a-z]{1,6}\s?-?\s?\d{2,7}[a-z]?`;

const REFERENCE_POINT = new RegExp(
  String.raw`\b(?:prior to|before|after|preceding|until|at|of)\s+(?:the\s+)?(?:(?:first|initial|last)\s+)?(?:(?:index|planned|study|trial)\s+)?(?:surgery|operation|procedure|registration|randomi[sz]ation|enrol?ment|screening|inclusion|entry|(?:cycle\s*1,?\s*)?day\s*1|c1d1|(?:dose|administration|dosing|infusion|injection|initiation|start|receipt)(?:\s+of\s+(?:the\s+)?(?:(?:study|trial)\s+(?:interventions?|drugs?|treatments?|medications?|products?)|${SPONSOR_CODE}|[\w-]+(?:\s*(?:,|\/|or|and)\s*[\w-]+){0,2}))?)\b`,
  'gi',
);

/**
 * "Within 2 weeks of starting protocol treatment", "prior to beginning study therapy", "before starting treatment": the
 * start of the study's own treatment is a point in time, as "before the first dose" is. Not a named medicine ("before
 * starting capecitabine", "starting treatment with ...": what is started is then a concept of its own), not "after".
 */
const STARTING_POINT =
  /\b(?:prior\s+to|before|of|preceding)\s+(?:the\s+)?(?:starting|initiating|beginning|commencing)\s+(?:the\s+)?(?:(?:study|protocol|trial|investigational)(?:\s+drug)?\s+)?(?:treatments?|therapy|therapies|drugs?|medications?|interventions?|regimens?)\b(?!\s+(?:with|for|of)\b)/gi;

/**
 * "Migraine with or without aura", "... with or without aura according to ICHD-3 criteria": a short optional phrase that
 * ends the clause, or runs up to the words that say how the condition is known or for how long (decision 364).
 */
const WITH_OR_WITHOUT =
  /\bwith\s+or\s+without\s+[a-z-]+(?:\s+[a-z-]+){0,2}(?=\s*(?:[),;.]|$)|\s+(?:according\s+to|per|as\s+defined|defined|based\s+on|meeting|fulfil\w*|diagnosed|confirmed|documented|for|lasting|since)\b)/gi;

/**
 * "Polyneuropathy (diabetic or other)", "anaemia (any cause)", "arthritis (of any type)": a parenthesis right after a
 * condition that names its causes or kinds and then all the others qualifies nothing; the condition is the whole.
 */
const ANY_KIND_PARENTHESIS =
  /^\s*\((?:[^()]{0,60}?\b(?:or|and\/or)\s+)?(?:(?:any\s+)?others?|any\s+(?:other\s+)?(?:causes?|types?|kinds?|origins?|a?etiolog(?:y|ies)|forms?)|all\s+(?:causes|types|forms|kinds)|(?:of\s+)?any\s+(?:cause|type|origin|a?etiology|kind|form)|whatever\s+the\s+cause)\s*\)/i;

/** The spans of parentheses that say "any kind of" the condition before them. */
export function anyKindParentheses(text: string, found: Mention[]): Span[] {
  const spans: Span[] = [];
  for (const mention of found) {
    if (mention.concept.kind !== 'condition') continue;
    const match = ANY_KIND_PARENTHESIS.exec(text.slice(mention.end, mention.end + 120));
    if (match) spans.push([mention.end, mention.end + match[0].length]);
  }
  return spans;
}

/** How a condition was found by the screening tests: "evident on blood testing", "in the preoperative laboratory tests", "laboratory evidence of" (decision 184). */
const ASCERTAINED =
  /\b(?:(?:as\s+)?(?:evident|evidenced|detected|found|seen|shown|documented)\s+(?:on|in|by)\s+|in\s+)(?:the\s+)?(?:pre-?operative\s+|screening\s+|baseline\s+)?(?:blood\s+(?:sample\s+)?|laboratory\s+|lab\s+)(?:tests?|testing|results?|work-?up)\b|\b(?:laboratory|lab)\s+evidence\s+of\b/gi;

/**
 * How a condition was seen on imaging: "seen on MRI", "on plain X-ray", "confirmed by CT scan", "radiographic evidence
 * of", "radiologically confirmed", a "Radiological exclusion criteria:" label. In an exclusion it says no more than having
 * the condition, as a blood test does (decision 184); the site of the scan ("on lumbar MRI") is not part of it, so a
 * place the condition is not named with stays a word a person reads. In an inclusion the scan is a requirement.
 */
const SCAN = String.raw`(?:mri|mr\s+imaging|magnetic\s+resonance\s+imaging|ct|computed\s+tomography|x-?rays?|radiographs?|radiography|plain\s+films?|imaging|(?:mri|ct)\s+scans?|scans?)`;
const IMAGED = new RegExp(
  [
    String.raw`(?:,\s*)?\b(?:(?:as\s+)?(?:evident|evidenced|detected|found|seen|shown|documented|confirmed|demonstrated|visible|identified|diagnosed|proven)\s+)?(?:on|in|by|with|using|via)\s+(?:an?\s+|the\s+)?(?:screening\s+|baseline\s+|pre-?operative\s+|prior\s+|plain\s+)?${SCAN}(?:\s+(?:scans?|imaging|examinations?|studies|images))?\b`,
    String.raw`\b(?:radiolog\w*|radiographic(?:al)?(?:ly)?|imaging|mri|ct)\s+(?:evidence|signs?|findings?|confirmation)\s+of\b`,
    String.raw`\bradiolog\w*\s+(?:confirmed|documented|evident|diagnosed|proven)\b`,
    String.raw`^\s*(?:radiolog\w*|radiographic|imaging|mri)\s+exclusion\s+criteri(?:a|on)\s*:`,
  ].join('|'),
  'gi',
);

/** The spans of an exclusion that say only how its condition was seen on imaging (decision 184). */
function imagedSpans(scope: ConceptScope): Span[] {
  if (scope.kind !== 'exclusion' || scope.first.concept.kind !== 'condition') return [];
  return [...scope.text.matchAll(IMAGED)].map((match) => [match.index, match.index + match[0].length]);
}

type LeftWord = { word: string; start: number; end: number };
type Held = ConceptReview['held'];

/** What a person must check of the rule: the words it left, its qualifiers, and every flag that says it reads less than the text. */
export function reviewOf(scope: ConceptScope, extra: Set<string>): ConceptReview {
  const references = setAsideSpans(scope, extra);
  const { leftWords, held } = wordsLeft(scope, references, extra);
  const left = leftWords.map((item) => item.word);
  const { everTaken } = pastUseOf(scope);
  if (unreadAlternative(scope, leftWords)) return { needsReview: true, reasons: [], left, held, everTaken, unreadAlternative: true };
  const flags = reviewFlags(scope, extra, leftWords, held);
  // The words the rule left are named, so a breakdown can count which words most often keep a rule in review.
  const reasons = Object.keys(flags)
    .filter((flag) => flags[flag])
    .map((flag) => (flag === 'words' ? `words: ${left.join(' ')}` : flag));
  return { needsReview: reasons.length > 0, reasons, left, held, everTaken, unreadAlternative: false };
}

/** "Prior to the first dose of ABBV-399", "before Cycle 1 Day 1": the study's own points in time, with their numbers. */
const referencePoints = (text: string): Span[] =>
  [...text.matchAll(REFERENCE_POINT), ...text.matchAll(STARTING_POINT)].map((match) => [match.index, match.index + match[0].length]);

/** Words that say no more than the rule: a point in time, what is optional, "any kind of", a reason given. */
function setAsideSpans(scope: ConceptScope, extra: Set<string>): Span[] {
  const { text, mentions, same } = scope;
  // "Prior to the surgery", "before the first dose of study intervention": a point in time, said by the window or
  // by the trial's schedule, not part of the concept.
  const references: Span[] = referencePoints(text);
  // "Pre-operative dysphagia", "preoperative radicular pain": before the study's operation is the time of screening, which
  // a condition rule's present (or its history) already says (decision 180). Not a treatment ("preoperative
  // chemotherapy" is one kind of it, given before another operation).
  if (scope.first.concept.kind === 'condition')
    for (const match of text.matchAll(/\bpre-?\s?op(?:erative(?:ly)?)?\b/gi)) references.push([match.index, match.index + match[0].length]);
  // "Migraine (with or without aura)": what is optional narrows nothing; only a short phrase that ends the clause.
  for (const match of text.matchAll(WITH_OR_WITHOUT)) references.push([match.index, match.index + match[0].length]);
  references.push(...anyKindParentheses(text, same));
  // "Recent stroke within 6 months", "recent (within 8 weeks) use of steroids": "recent" is the window the rule holds
  // (decision 266); without a window it stays unread (the time flag).
  if (scope.window) for (const match of text.matchAll(/\brecent(?:ly)?\b/gi)) references.push([match.index, match.index + match[0].length]);
  // "Coagulopathy evident on blood sample testing", "bleeding diathesis in preoperative laboratory tests": in an exclusion,
  // how a condition is found says no more than having it (decision 161). Not in an inclusion, where the test is required.
  if (scope.kind === 'exclusion') for (const match of text.matchAll(ASCERTAINED)) references.push([match.index, match.index + match[0].length]);
  references.push(...imagedSpans(scope));
  // "Already on ACE inhibitors, as they may raise the effect of the study drug": the reason given says why, not what
  // (decision 110); only when it names no concept of its own.
  const reason = /,?\s+(?:as|because|since)\s+(?:it|they|this|these|such\s+\w+)\s+(?:may|might|can|could|will|would)\b[^.;]*/i.exec(text);
  if (reason && !mentions.some((mention) => mention.end > reason.index && mention.start < reason.index + reason[0].length)) {
    references.push([reason.index, reason.index + reason[0].length]);
    if (/\balready\s+(?:on|taking|receiving|using|treated)\b/i.test(text)) extra.add('already');
  }
  return references;
}

/** The words the rule did not read, less the qualifiers a condition rule holds in plain words (decision 077). */
function wordsLeft(scope: ConceptScope, references: Span[], extra: Set<string>): { leftWords: LeftWord[]; held: Held } {
  const { text, first, same, unique, spans } = scope;
  // "Severe osteoporosis", "lumbar disc herniation", "radiculopathy (bilateral)": the words it holds are no longer left over.
  const unreadWords = leftoverWords(text, [...spans, ...references], extra);
  const held = first.concept.kind === 'condition' ? readQualifiers(text, same, unique, unreadWords) : null;
  return { leftWords: held ? unreadWords.filter((word) => !held.consumed.has(word.start)) : unreadWords, held };
}

/** A concept only staff can read: a clinician-only concept or a test, scan or stage named beside it. */
function clinicianOnly(scope: ConceptScope): boolean {
  const { text, unique } = scope;
  // "Tested positive for HIV": a person knows a positive test of these infections (the extra words of the concept
  // reader), so it is not a test only staff can read; "positive for HER2" still is (decision 110).
  // "Spinal fracture seen on MRI", in an exclusion: how it was seen is not a test only staff can read (decision 184).
  let clinicianText = text;
  // "Histologically confirmed melanoma": how a tumour's diagnosis was made, not a finding only staff read (decision 238).
  // "Brain metastases", "end-stage renal disease": the concept's own words are the vocabulary's to judge
  // (`clinicianOnly`), not a test named beside it (decision 238).
  const ownWords: Span[] = scope.same.map((mention) => [mention.start, mention.end]);
  // "Before Cycle 1 Day 1": the study's schedule, not a line of therapy (decision 353).
  for (const [start, end] of [...imagedSpans(scope), ...tissueConfirmedSpans(scope), ...ownWords, ...referencePoints(text)])
    clinicianText = clinicianText.slice(0, start) + ' '.repeat(end - start) + clinicianText.slice(end);
  for (const mention of unique.filter((one) => knownByTest(one) && !unreadAntibody(text, unique))) {
    // "Known to be positive for HIV" says the same as "tested positive for" it (decision 238).
    const test = /\b(?:test(?:ed)?\s+)?positive\s+for\s+(?:the\s+)?$/i.exec(text.slice(0, mention.start));
    if (test) clinicianText = clinicianText.slice(0, test.index) + ' '.repeat(test[0].length) + clinicianText.slice(mention.start);
  }
  return unique.some((mention) => mention.concept.clinicianOnly) || CLINICIAN_WORDS.test(clinicianText);
}

/** The words name less than the rule's concept: a subtype, one member of a class, a named allergen, a qualifier or a duration. */
function narrowerThanRule(scope: ConceptScope, extra: Set<string>, leftWords: LeftWord[], held: Held): boolean {
  const { text, same, unique, allergens, spans } = scope;
  // "Allergy to peanuts / nickel / penicillin": the allergen is more than "an allergy to medicines like this one",
  // which only the study's own product ("study drug", "its excipients") is.
  const allergen =
    unique.some(isAllergy) &&
    /\b(?:allerg\w*|hypersensitiv\w*|anaphyla\w*|reactions?)\s+(?:to|against)\s+(?!(?:the\s+|any\s+(?:of\s+)?(?:the\s+)?|one\s+of\s+the\s+)?(?:study|investigational|trial|ingredients?|components?|excipients?|placebo|drugs?\s+(?:under|used|in)|product|imp|active\s+(?:substances?|ingredients?|compounds?))\b)/i.test(
      text,
    );
  // A synonym that names a subtype ("lumbar spine surgery", "lumbar fracture" for spine surgery / spine fracture):
  // the rule's concept is broader than the words, so a person checks.
  const subtype = same.some((mention) =>
    [
      ...text
        .slice(mention.start, mention.end)
        .toLowerCase()
        .matchAll(/[a-z-]+/g),
    ].some(
      (word) =>
        QUALIFIER.test(word[0]) &&
        !mention.concept.en.toLowerCase().includes(word[0]) &&
        !held?.consumed.has(mention.start + word.index) &&
        // "Active or chronic hepatitis B": a course both sides name is no subtype.
        !extra.has(word[0].toLowerCase()),
    ),
  );
  // "Syphilis" read as a sexually transmitted infection: one member of the class, narrower than the rule (decision 110).
  // "Sexually transmitted infections (e.g. syphilis)" names the class too.
  // "End-stage renal disease" is a member as written; "syphilis infection" as "syphilis" (decision 239). "Active or latent
  // tuberculosis": a member whose course word ends a pair naming every course is the whole (decision 240).
  const wholes = wholePairSpans(text);
  const isMember = (mention: Mention) => {
    if (wholes.some(([start, end]) => mention.start > start && mention.start < end)) return false;
    const written = text
      .slice(mention.start, mention.end)
      .toLowerCase()
      .replace(/\s*\([^)]*\)/g, '')
      .replace(/[()]/g, '')
      // "Allogenic stem cell transplant" is the member "allogeneic stem cell transplant" (normalize.ts).
      .replace(/[a-z]+/g, standardSpelling);
    const members = mention.concept.members ?? [];
    return (
      members.includes(written) ||
      members.includes(written.replace(/\s+(?:infections?|diseases?)$/, '')) ||
      namesOneMedicineOfClass(mention, text.slice(mention.start, mention.end))
    );
  };
  const member = same.some((mention) => isMember(mention) && !same.some((other) => other.concept.id === mention.concept.id && !isMember(other)));
  // A severity, course or control word narrows the concept ("severe asthma", "chronic back pain", "uncontrolled
  // hypertension"), and a time quantity the rule did not take is a duration ("back pain for more than three months").
  return (
    subtype ||
    member ||
    allergen ||
    Boolean(allergens?.narrower) ||
    leftWords.some(({ word }) => QUALIFIER.test(word)) ||
    leftoverDuration(text, [...spans, ...referencePoints(text)])
  );
}

/**
 * "Nivolumab" or its brand read as immunotherapy, "ibuprofen" as the anti-inflammatory medicines: the words name one
 * medicine whose pharmacological action is the concept's class, a member narrower than the rule (decision 192).
 */
function namesOneMedicineOfClass(mention: Mention, words: string): boolean {
  const heading = mention.concept.descriptor ?? mention.concept.mesh;
  if (mention.concept.kind !== 'medication' || !heading) return false;
  const lex = lexicon();
  // "Heparins": a member written in the plural is still the one member (the lexicon holds the singular).
  const [own, named] = [lex.byId(heading), lex.term(phraseKey(words)) ?? lex.term(phraseKey(words.replace(/s$/i, '')))];
  if (own === undefined || named === undefined || named === own || lex.concepts[named].kind !== 'medication') return false;
  return lex.concepts[named].actions.some((action) => lex.isA(action, own));
}

/** A MeSH term of a narrower or related kind than its heading, whose narrowing words neither the heading's name nor a held qualifier says. */
function narrowerTerm(scope: ConceptScope, held: Held): boolean {
  const { text, same } = scope;
  // "Bilateral sciatica" is narrower than sciatica, but the rule holds "both sides" (decision 140).
  // "Schizoaffective disorder or any psychotic disorder": a narrower term beside its concept named whole is covered by it
  // (decision 239), as a member is.
  return same.some(
    (mention) =>
      mention.narrower &&
      !same.some((other) => other.concept.id === mention.concept.id && !other.narrower) &&
      [...text.slice(mention.start, mention.end).matchAll(/[a-z]+/gi)].some(
        (word) =>
          !mention.concept.en.toLowerCase().includes(word[0].toLowerCase().replace(/s$/, '')) &&
          !held?.consumed.has(mention.start + (word.index ?? 0)) &&
          !/^(?:of|the|and|or|with|in|to)$/i.test(word[0]),
      ),
  );
}

/**
 * "Autoimmune disease requiring systemic treatment", "asthma needing daily inhaled steroids", "epilepsy treated with two
 * drugs": a condition qualified by the treatment it requires is narrower than the condition, and no condition rule holds
 * a treatment; read without it, the rule would act on everyone with the condition (decision 180).
 */
const TREATMENT_REQUIRED =
  /^[^.;]{0,40}?\b(?:requir(?:ing|es?|ed)|needing|needs?|necessitat(?:ing|es?|ed)|treated\s+(?:with|by)|managed\s+(?:with|by)|controlled\s+(?:with|by)|under\s+(?:active\s+)?treatment|receiving\s+(?:active\s+)?(?:treatment|therapy))\b/i;
function treatmentRequired(scope: ConceptScope, held: Held): boolean {
  const { text, same, first } = scope;
  return (
    first.concept.kind === 'condition' &&
    same.some((mention) => {
      const need = TREATMENT_REQUIRED.exec(text.slice(mention.end, mention.end + 80));
      // "Requiring systemic therapy" held as the rule's qualifier, or the infection concept's own "needs treatment"
      // (decision 357): the rule says the treatment.
      if (!need) return false;
      const verbEnd = mention.end + need.index + need[0].length - 1;
      return ![...(held?.consumed ?? [])].some(([start, end]) => verbEnd >= start && verbEnd < end);
    })
  );
}

/**
 * "Drug or alcohol addiction", "viral or alcoholic hepatitis": a word of a list sharing the head noun of the concept after
 * it names a second condition. When the vocabulary did not read that word with the head, the rule holds only the last
 * item (alcoholism for both addictions), even where the word is one the rule otherwise understands ("drug"); a person
 * reads it (decision 180).
 */
const COURSE = /^(?:acute|active|chronic|local(?:i[sz]ed)?|systemic)$/i;
function unreadSharedHead(scope: ConceptScope): boolean {
  const { text, mentions } = scope;
  const covered = (start: number, end: number) => mentions.some((mention) => mention.start <= start && mention.end >= end);
  return mentions.some((mention) => {
    if (!/\s/.test(text.slice(mention.start, mention.end).trim())) return false;
    const item = /\b([a-z][a-z-]{2,})\s*(?:,|\/|\bor\b|\band\/or\b|\band\b)\s*$/i.exec(text.slice(Math.max(0, mention.start - 40), mention.start));
    if (!item) return false;
    const start = mention.start - item[0].length;
    // "Chronic or acute pancreatitis" read as pancreatitis, "active or chronic hepatitis B" as hepatitis B: both courses
    // together are the whole condition, which the concept names. Read as chronic pancreatitis, the first course is lost.
    const firstWord = /^[a-z]+/i.exec(text.slice(mention.start))?.[0] ?? '';
    // So are two opposites ("unilateral or bilateral sciatica", decision 227).
    const whole =
      ((COURSE.test(item[1]) && COURSE.test(firstWord)) || isWholePair(item[1], firstWord)) &&
      !mention.concept.en.toLowerCase().includes(firstWord.toLowerCase());
    return !whole && !covered(start, start + item[1].length);
  });
}

const withoutSpan = (text: string, [start, end]: Span) => text.slice(0, start) + ' '.repeat(end - start) + text.slice(end);

/** Every reason a person must read the rule, by name (scripts/criteria-breakdown.ts counts them). */
function reviewFlags(scope: ConceptScope, extra: Set<string>, leftWords: LeftWord[], held: Held): Record<string, boolean> {
  const { kind, text, mentions, laterSentences, compound, laterNegated, parenthetical, first, same, unique, window, spans, span } = scope;
  const { pastUse, everTaken } = pastUseOf(scope);
  return {
    qualified: narrowerThanRule(scope, extra, leftWords, held),
    // "Hyperosmolar state/coma": one word after a slash shares the words before it (hyperosmolar coma), narrower than it.
    slashed: same.some((mention) => SHARED_MODIFIER.has(mention)),
    narrower: narrowerTerm(scope, held),
    // One unread word is enough: "interstitial pneumonia", "congenital deformity", "grade II" say more than the concept.
    words: leftWords.length > 0,
    // "In the past month" that the rule did not take as its window: the time scope is unread.
    // "For treatment of the current episode" (hand-check S): since the episode began, which no rule's time can say.
    timeUnread:
      (!window &&
        /\b(?:last|past|previous|preceding|recent(?:ly)?)\s+(?:\d+\s*|few\s+|several\s+)?(?:days?|weeks?|months?|years?)\b|\brecent(?:ly)?\b/i.test(text)) ||
      /\b(?:current|present|this|same|index)\s+episodes?\b/i.test(text),
    listItem: unreadListItem(text, leftWords),
    // A number the rule did not take (a duration "for at least 12 weeks", a dose, a count) is more than the rule.
    // A qualifier's words are the rule's: "HER2-positive" is no number left (decision 316).
    // Nor is the study's own point in time ("before the first dose of BI 764532", decision 353).
    numbers: leftoverNumbers(text, [...spans, ...(held ? [...held.consumed].map(([start, end]): Span => [start, end]) : []), ...referencePoints(text)]),
    // "(other than ...)", "except ...": the rule does not hold the exception unless it is held as excepted concepts
    // (decision 202; an inclusion's stays in review: the matcher's reading of the trial's condition takes no exception);
    // "family history": not the person's own.
    exception: /\b(?:other than|except|excluding|unless|family)\b/i.test(
      scope.excepted && kind === 'exclusion' ? withoutSpan(text, scope.excepted.span) : text,
    ),
    pastUse: pastUse && !everTaken,
    laterSentences,
    compound,
    laterNegated,
    parenthetical,
    // "Spinal infection or tumor", "tumor in the lumbar region": a tumour beside a place may be the place's, narrower
    // than any tumour; a person reads it.
    tumorSite:
      same.some((mention) => mention.concept.id === TUMOR_ID) &&
      /\b(?:spin\w*|spine|lumbar|cervical|thoracic|vertebra\w*|brain|cns|bone|liver|lung|breast|skin|region|area|site)\b/i.test(text),
    // "Diabetes, drug treated", "insulin-dependent": how the condition is treated narrows it.
    treatedAs: /\b(?:drug|insulin|medication|medically|diet|surgically|pharmacologically)[- ](?:treated|controlled|requiring)\b/i.test(text),
    treatmentRequired: treatmentRequired(scope, held),
    sharedHead: unreadSharedHead(scope),
    lines: /\n/.test(text),
    // "AKI is defined as acute kidney injury", "suspected OSA will be defined as ...": a definition of the concept names
    // no requirement of the person; which way it counts is the list's (decision 237).
    definition: /^[^.;:]{0,60}?\b(?:is|are|will\s+be|shall\s+be)\s+defined\s+(?:as|by)\b/i.test(text),
    clinician: clinicianOnly(scope),
    mixedKinds: mentions.some((mention) => mention.concept.kind !== first.concept.kind),
    // "Back pain and/or sciatica" is an "or" (decision 110); "back pain and sciatica" asks for both. An inclusion that
    // wants them absent ("without asthma and eczema", "no epilepsy, migraine and glaucoma") wants none of them, as an
    // exclusion's "and" does (decision 228), unless it says the two together.
    joined:
      kind === 'inclusion' &&
      unique.length > 1 &&
      /\band\b(?!\s*\/\s*or\b)/i.test(text.slice(spans[0][0], span[1])) &&
      (scope.applies || /\b(?:both|together|combined|combination|concurrent\w*|simultaneous\w*|at the same time)\b/i.test(text)),
    // "Disc prolapse with radiculopathy", "diabetes with neuropathy": one condition with another is both together, which
    // a rule of alternatives does not say, in an inclusion or an exclusion (decision 191). "Steroids as anti-cancer
    // therapy": one concept given as the other is one treatment, not either of two (decision 278).
    withJoined:
      unique.length > 1 &&
      /\bwith\b(?!\s+or\s+without\b)|(?<!\bsuch\s)\bas\b/i.test(text.slice(Math.min(...same.map((m) => m.end)), Math.max(...same.map((m) => m.start)))),
  };
}

/**
 * "Epidural fibrosis and/or disc herniation": in an inclusion, an unread alternative right beside the concepts means the
 * rule would require one alternative the text does not require; a person reads it.
 */
function unreadAlternative(scope: ConceptScope, leftWords: LeftWord[]): boolean {
  const { kind, text, first, lastMention, applies } = scope;
  if (kind !== 'inclusion' || !applies) return false;
  const unreadWord = (from: number, to: number) =>
    leftWords.some((word) => word.start >= from && word.end <= to && !/^(?:ct|mri|mr|x-ray|imaging)$/.test(word.word));
  const alternativeBefore = /([a-z][a-z-]+(?:\s+[a-z][a-z-]+){0,2})\s+(?:or|and\/or)\s+$/i.exec(text.slice(Math.max(0, first.start - 50), first.start));
  const alternativeAfter = /^\s+(?:or|and\/or)\s+(?:an?\s+|the\s+)?([a-z][a-z-]+(?:\s+[a-z][a-z-]+){0,2})/i.exec(
    text.slice(lastMention.end, lastMention.end + 50),
  );
  return Boolean(
    (alternativeBefore && unreadWord(first.start - alternativeBefore[0].length, first.start)) ||
      (alternativeAfter && unreadWord(lastMention.end, lastMention.end + alternativeAfter[0].length)),
  );
}
