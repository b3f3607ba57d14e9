import type { ConceptReview, ConceptScope } from './concept-scope';
import { CURRENT, NOW_OR_BEFORE } from './conditions';
import { readWindow } from './durations';
import { labelLength, type Span, spanOf, type TextRule } from './text';
import { ALLERGY_PREFIX, type Concept, type Mention, namedAsMeasured, withoutExample } from '../vocabulary';

/**
 * Medicines a criterion names: allergies to named medicines, products used in an operation, past use, and the
 * medication rule of a concept reading.
 */

export const PAST_TREATMENT =
  /\b(?:failed|failure (?:of|to)|tried|despite|prior(?!\s+to\b)|previous(?:ly)?(?!\s+to\b)|history of|received|underwent|inadequate response|unresponsive|refractory)\b/i;

/** "Non-adherence to use of induction and/or maintenance immunosuppressive therapies": the object of adherence, in its clause. */
export const ADHERENCE_TO =
  /\b(?:(?:non-?|poor\s+|lack\s+of\s+)?(?:compliance|adherence)|(?:non-?|not\s+)?(?:compliant|adherent)|(?:unable|unwilling|fail\w*)\s+to\s+(?:adhere|comply))\s+(?:to|with)\b[^.;\n]*$/i;

/** Products put on or into the body during a procedure ("application of products to the exposed neural element, including:
 * steroids", "intraoperative steroids"): what the surgeon uses, not a medicine the person takes. */
export const PROCEDURE_PRODUCT =
  /\b(?:(?:application|applied|placement|placed|implantation|implanted|use|used|administ\w+)\s+(?:of\s+)?(?:[\w-]+\s+){0,3}?(?:to|on|onto|into|in)\s+(?:the\s+)?(?:exposed\s+)?(?:neural|nerve|wound|dura\w*|surgical|operative|disc|epidural\s+space|spinal\s+canal|graft)\b|intra-?operative(?:ly)?|during\s+(?:the\s+)?(?:index\s+)?(?:surgery|operation|procedure))/i;

/** "Steroids applied to the nerve root", "fibrin glue used during surgery": the same, named first. */
export const PRODUCT_APPLIED =
  /^[^.;\n]{0,30}?\b(?:(?:(?:applied|placed|used|administered|given|injected)\s+(?:directly\s+)?(?:to|on|onto|into|in|at)|on|onto|into)\s+(?:the\s+)?(?:exposed\s+)?(?:neural|nerve|wound|dura\w*|surgical|operative|disc|epidural\s+space|spinal\s+canal|graft)\b|intra-?operative(?:ly)?|during\s+(?:the\s+)?(?:index\s+)?(?:surgery|operation|procedure))/i;

/** "Investigational or non-registered product (drug, vaccine, or device)": the parenthesis names kinds of the unread product, not things excluded by themselves. */
export const PRODUCT_KINDS =
  /\b(?:investigational|experimental|non-?registered|unregistered|unapproved|unlicensed|non-?approved|study)\b[^()]{0,40}\b(?:products?|agents?|drugs?|treatments?|therap(?:y|ies)|interventions?|devices?|medications?|medicines?)\s*\($/i;

/** Foods and other allergens that are not medicines: "an allergy to medicines like this one" would name the wrong thing. */
const NOT_A_MEDICINE_ALLERGEN =
  /\b(?:foods?|peanuts?|nuts?|eggs?|milk|shellfish|fish|pollen|latex|nickel|metals?|titanium|cobalt|chromium|polyethylene|polyester|plastics?|silicone|materials?|adhesives?|tapes?|insects?|bees?|wasps?|venom|animals?|dust|seasonal)\b/i;

/** What an allergy is to, when it is a medicine: "hypersensitivity to the study drug, its excipients, pembrolizumab, penicillins". */
const MEDICINE_ALLERGEN =
  /^[^.;]{0,40}?\b(?:to|against)\b[^.;]{0,80}?\b(?:drugs?|medic\w*|products?|ingredients?|excipients?|components?|vaccines?|antibiotics?|contrast|an(?:a)?esthe\w*|agents?|treatments?|therap\w*|study|investigational|compounds?|formulations?|antibod\w*|proteins?|inhibitors?|analog(?:ue)?s?|[a-z]+oids?|[a-z]+(?:mab|nib|cillins?|mycin|floxacin|statins?|prazole|sartan|pril|olol|azole|vir|sporins?|sulfa\w*|opioids?|nsaids?|steroids?))\b/i;

export const ALLERGY_TO = 'an allergy to ';

/**
 * "Known allergy to local anaesthetics or opioids", "hypersensitivity to NSAIDs": an allergy whose allergens are named
 * medicines, read as one condition per medicine ("an allergy to opioid pain medicines"), in place of "an allergy to
 * medicines like this one" (which is the study's own product). Only when the concepts right after "to" are medicines in a
 * plain list, and nothing that is not a medicine (a food, a metal, the study's product) is named in the clause
 * (decision 107).
 */
export function allergyToNamed(text: string, mentions: Mention[]): { mentions: Mention[]; narrower: boolean } | null {
  if (!mentions[0] || !isAllergy(mentions[0])) return null;
  // "Allergy or hypersensitivity to": the allergy words together are one allergy.
  let lead = 0;
  while (
    mentions[lead + 1] &&
    isAllergy(mentions[lead + 1]) &&
    /^[\s,/]*(?:or|and(?:\/or)?)?[\s/]*$/i.test(text.slice(mentions[lead].end, mentions[lead + 1].start))
  )
    lead++;
  const allergy = { ...mentions[lead], start: mentions[0].start };
  const clauseEnd = allergy.end + (/[.;:\n]/.exec(text.slice(allergy.end))?.index ?? text.length - allergy.end);
  const clause = text.slice(allergy.start, clauseEnd);
  if (NOT_A_MEDICINE_ALLERGEN.test(clause) || /\b(?:study|investigational|trial|placebo|imp)\b/i.test(clause)) return null;
  const after = mentions.filter((mention) => mention.start >= allergy.end && mention.start < clauseEnd);
  if (!after.length || after[0].concept.kind !== 'medication') return null;
  // "Allergy or hypersensitivity to", "allergic reaction against", "allergy (anaphylaxis) to any of the following:".
  if (
    !/^(?:\s*(?:\/\s*[a-z]+|reactions?|or|and(?:\/or)?|,|\([^()]{0,30}\)|allerg\w*|hypersensitiv\w*|anaphyla\w*|intolerance|sensitivity))*\s+(?:to|against|(?:attributed|attributable|due)\s+to\s+(?:compounds?|agents?|drugs?|medications?)\s+(?:of|with)\s+(?:a\s+)?similar\s+(?:chemical|biologic(?:al)?)(?:\s+(?:or|and|and\/or)\s+(?:chemical|biologic(?:al)?))?\s+(?:composition|structure)\s+(?:to|as))\s+(?:(?:any|all|one)\s+(?:of\s+)?)?(?:the\s+)?(?:following\s+)?$/i.test(
      text.slice(allergy.end, after[0].start),
    )
  )
    return null;
  // The medicines are a plain list: "X, Y or Z", "X and/or Y"; a condition after them ("allergy to local anaesthetics,
  // coagulopathy") is another item of the criterion's list, not an allergen.
  const medicines = [after[0]];
  for (const next of after.slice(1)) {
    if (!/^\s*(?:,|\/|or|and\/or|and|,\s*or|,\s*and)\s*$/i.test(text.slice(medicines.at(-1)!.end, next.start))) return null;
    if (next.concept.kind !== 'medication') break;
    medicines.push(next);
  }
  if (medicines.some(isAllergy)) return null;
  const others = mentions.filter((mention, index) => index > lead && !medicines.includes(mention));
  return {
    mentions: [
      ...medicines.map((medicine, index) => ({
        concept: allergyConcept(medicine.concept),
        start: index === 0 ? allergy.start : medicine.start,
        end: medicine.end,
      })),
      ...others,
    ],
    // "Compounds of similar chemical or biologic composition to X": X's kin too, more than an allergy to X alone.
    narrower:
      /\bsimilar\s+(?:chemical|biologic)/i.test(text.slice(allergy.end, after[0].start)) ||
      medicines.some((medicine) => oneMember(text.slice(medicine.start, medicine.end), medicine.concept)),
  };
}

/** The allergy named after its allergens: "penicillin allergy", "NSAID hypersensitivity", "sulfa allergies" (decision 368). */
const ALLERGY_AFTER = /^[\s-]*(?:drug\s+)?(?:allerg(?:y|ies)|hypersensitivit(?:y|ies))\b/i;

/**
 * "Known penicillin or cephalosporin allergy", "aspirin hypersensitivity": medicines named before the allergy word are
 * its allergens, never medicines taken (decision 368). Only a plain list of medicines standing right before the word, in
 * a clause that names no other allergen (a food, a metal) nor the study's product; one condition per medicine, the last
 * spanning the allergy word.
 */
export function allergyNamedBefore(text: string, mentions: Mention[]): { mentions: Mention[]; narrower: boolean } | null {
  const last = mentions.findIndex((mention) => mention.concept.kind === 'medication' && ALLERGY_AFTER.test(text.slice(mention.end, mention.end + 40)));
  if (last < 0) return null;
  let first = last;
  while (
    first > 0 &&
    mentions[first - 1].concept.kind === 'medication' &&
    /^\s*(?:,|\/|or|and\/or|and|,\s*or|,\s*and)\s*$/i.test(text.slice(mentions[first - 1].end, mentions[first].start))
  )
    first--;
  // A conjunction joins the list: "on aspirin, penicillin allergy" is a medicine taken and an allergy.
  while (first < last && !/\/|\band\b|\bor\b/i.test(text.slice(mentions[first].end, mentions[last].start))) first++;
  const medicines = mentions.slice(first, last + 1);
  const clauseStart = Math.max(0, ...[...text.slice(0, medicines[0].start).matchAll(/[.;:\n]/g)].map((match) => (match.index ?? 0) + 1));
  const allergyEnd = medicines.at(-1)!.end + ALLERGY_AFTER.exec(text.slice(medicines.at(-1)!.end))![0].length;
  const clause = text.slice(clauseStart, allergyEnd);
  if (medicines.some(isAllergy) || NOT_A_MEDICINE_ALLERGEN.test(clause) || /\b(?:study|investigational|trial|placebo|imp)\b/i.test(clause)) return null;
  return {
    mentions: [
      ...mentions.slice(0, first),
      ...medicines.map((medicine, index) => ({
        concept: allergyConcept(medicine.concept),
        start: medicine.start,
        end: index === medicines.length - 1 ? allergyEnd : medicine.end,
      })),
      // The allergy word the vocabulary may have read on its own is the allergens' allergy, not another.
      ...mentions.slice(last + 1).filter((mention) => !(isAllergy(mention) && mention.start < allergyEnd)),
    ],
    narrower: medicines.some((medicine) => oneMember(text.slice(medicine.start, medicine.end), medicine.concept)),
  };
}

/**
 * "Pembrolizumab", "lidocaine": one medicine of the concept's class, not the class ("NSAIDs", "opioids", "penicillin
 * antibiotics"). An allergy to one medicine is narrower than an allergy to its class, so a person checks the rule.
 */
function oneMember(written: string, concept: Concept): boolean {
  const word = written.toLowerCase();
  const className = concept.en.replace(/\([^)]*\)/g, ' ').toLowerCase();
  // The class's own name in the singular ("cephalosporin" of "cephalosporins") is the class.
  return !/\s/.test(word) && !/s$/.test(word) && !new RegExp(`\\b${word.replace(/[^a-z0-9-]/g, '')}s?\\b`).test(className);
}

/** A concept that is a class of medicines: "chemotherapy", "blood thinners (such as warfarin)", "proton pump inhibitors". */
const CLASS_NAME =
  /\(such as\b|\b(?:chemotherapy|medicines?|agents|inhibitors?|blockers|antagonists|drugs|cancer treatment|immunotherapy|antibiotics|steroids)\b/i;

/** "Irinotecan" read as chemotherapy: one medicine by name (one word, not a class word like "anticoagulation"), its class read. */
function memberOfClass(written: string, concept: Concept): boolean {
  const word = written.trim();
  // "Platinum-based chemotherapy", "taxane-containing regimens": a kind of the class, named by what it is made of.
  const madeOf = /^([a-z]+)[- ]?(?:based|containing)\b/i.exec(word);
  if (madeOf && !concept.en.toLowerCase().includes(madeOf[1].toLowerCase())) return true;
  return (
    CLASS_NAME.test(concept.en) &&
    /^[a-z][a-z-]{4,}$/i.test(word) &&
    // Class words: "anticoagulant", "sedative", "anxiolytic", "anticoagulation". The example the class's plain name
    // gives is a member too: "semaglutide" is one GLP-1 medicine, never all of them.
    !/^anti|(?:s|tion|ic|ics|ive|therapy|apy|ants?|ing)$/i.test(word) &&
    !withoutExample(concept.en).toLowerCase().includes(word.toLowerCase())
  );
}

function allergyConcept(medicine: Concept): Concept {
  return {
    id: `${ALLERGY_PREFIX}${medicine.id}`,
    kind: 'condition',
    en: `${ALLERGY_TO}${medicine.en}`,
    es: medicine.es ? `una alergia a ${medicine.es}` : null,
    clinicianOnly: false,
  };
}

/** The allergy to the study's kind of medicine; a concept that names its allergen ("an allergy to latex") is that allergen's. */
export const isAllergy = (mention: Mention) =>
  mention.concept.id.endsWith('D006967') || (/allerg/i.test(mention.concept.en) && !/\ballergy to (?!medicines)/i.test(mention.concept.en));

/** "Allergic to X", "hypersensitivity reactions to Y": an allergy concept stands only when what it is to is a medicine
 * (named, a medicine concept, or the study's product); "allergic symptoms such as hay fever", "allergy to titanium" are not it. */
export function allergyToMedicine(text: string, mention: Mention, found: Mention[]): boolean {
  if (NOT_A_MEDICINE_ALLERGEN.test(text)) return false;
  const after = text.slice(mention.end);
  if (MEDICINE_ALLERGEN.test(after)) return true;
  const clauseEnd = mention.end + (/[.;]/.exec(after)?.index ?? after.length);
  return found.some((other) => other.concept.kind === 'medication' && other.start >= mention.end && other.start < clauseEnd);
}

export const SYSTEMIC_TREATMENT =
  /^(?:treatments?|therap(?:y|ies)|antibiotics?|antimicrobials?|antivirals?|antifungals?|anti-?infectives?|steroids?|corticosteroids?|glucocorticoids?|immunosuppress\w*|medications?|medicines?|drugs?|agents?|administ\w*|use|exposure)$/i;

/** "Within 14 days before the first dose of durvalumab", "prior to the administration of the investigational drug",
 * "prior to initiation of radiotherapy": the study's product names a point in time, not a medicine taken. */
export const DOSE_OF =
  /\b(?:(?:first|last|initial|final)\s+|(?:prior\s+to|before|after|following|until|at)\s+(?:the\s+)?(?:first\s+|initial\s+)?)(?:dose|administration|infusion|injection|initiation|start)s?\s+of\s+(?:the\s+)?(?:[\w-]+\s*(?:,|\/|or|and)\s*)?$/i;

/**
 * The medication rule of a concept reading: a medicine taken or not ("no systemic corticosteroids within 4 weeks"), ever
 * taken ("prior treatment with X"), or medicines for a condition ("on treatment for hypertension"); null when the
 * first concept is a condition that no treatment words name.
 */
/**
 * "Prior exposure to the investigational product", "treated with this study drug": the study's own product, which only
 * its site can name (the study-conduct reader's site check, decision 224), never any trial's medicine; a person who took
 * part in another drug trial is not excluded by it. "The investigational drug of another study" stays any trial's.
 */
const THE_STUDYS_OWN = /\b(?:the|this)\s+$/i;
const ANOTHER_STUDY = /\b(?:another|other|previous|prior|different|any)\s+(?:clinical\s+|interventional\s+|investigational\s+)?(?:stud(?:y|ies)|trials?)\b/i;
export function namesTheStudysOwnProduct(text: string, first: Mention): boolean {
  return (
    first.concept.id === 'cohortly:investigational-drug' &&
    THE_STUDYS_OWN.test(text.slice(Math.max(0, first.start - 6), first.start)) &&
    !ANOTHER_STUDY.test(text)
  );
}

/**
 * "Prior HCV treatment", "osteoporosis treatment within 12 months", "current diabetes medication" among the exclusions:
 * the treatment of the condition, never "must not have" the condition (decision 344). Not "treatment-naive" or
 * "treatment-resistant", which say more of it. An inclusion ("on stable asthma medication") keeps the condition it
 * implies, in review, as before.
 */
const TREATMENT_AFTER =
  /^[\s-]*(?:(?:-?directed|specific|related)\s+)?(?:treatments?|therap(?:y|ies)|medications?|medicines?|drugs?|regimens?)\b(?![\s-]*(?:na[iï]ve|experienced|resistant|refractory|failures?|response|responsive|intoleran\w*|free|holiday|criteria|guidelines?))/i;

export function medicationRule(scope: ConceptScope, review: ConceptReview): TextRule | null {
  const { text, first, before, negated, applies, window, concepts, name, span } = scope;
  const { needsReview, reasons, left } = review;
  const treatmentFor =
    first.concept.kind === 'condition' &&
    (/\b(?:medications?|medicines?|drugs?|agents?|treatments?|therap(?:y|ies))\b[^.;]{0,40}\bfor\b[^.;]{0,30}$/i.test(before) ||
      (scope.kind === 'exclusion' && TREATMENT_AFTER.test(text.slice(first.end))));
  if (treatmentFor) {
    // "Plans of receiving treatment for X": a plan, not a treatment taken.
    if (/\b(?:plann\w*|plans?|scheduled|will|candidates?|expected|intend\w*|present(?:s|ing)|referred|seeking|awaiting)\b[^.;]*$/i.test(before.slice(-80)))
      return { rule: null, needsReview: true };
    // "Must not have received prior systemic therapy for HCC": a negation further back than the near one, or past
    // treatment, which "taking now" cannot say.
    if ((!negated && /\b(?:no|not|never|without)\b[^.;]*$/i.test(before)) || PAST_TREATMENT.test(before)) return { rule: null, needsReview: true };
    return {
      rule: {
        type: 'medication',
        medication: `medicines for ${name}`,
        taking: applies,
        concepts,
        ...(window ? { within: window.window } : {}),
        span: spanOf(span),
      },
      needsReview,
      reasons,
      unread: left,
    };
  }
  if (first.concept.kind === 'medication') {
    // "Partial thromboplastin time", "urine calcium", "glucose-lowering medication": a test or what a medicine is for,
    // not the substance taken; no medicine rule of it (decision 334).
    if (namedAsMeasured(text, first.start, first.end)) return { rule: null, needsReview: true };
    // "Cisplatin" read as chemotherapy, "esomeprazole" as acid reducers: one medicine named, its class read, which would
    // ask about (and act on) every member of the class; a person reads it (decision 244).
    const member = scope.same.some(
      (mention) => mention.concept.kind === 'medication' && memberOfClass(text.slice(mention.start, mention.end), mention.concept),
    );
    if (member) return medicineRule(scope, { ...review, needsReview: true, reasons: [...reasons, 'oneMemberOfClass'] });
    // "Antibiotics: clarithromycin, erythromycin": a class heading over named medicines may mean those only, or the
    // class; the rule holds both, and a person reads which (decision 337).
    const heading = scope.same.find(
      (mention) =>
        mention.concept.kind === 'medication' &&
        CLASS_NAME.test(mention.concept.en) &&
        /^\s*:/.test(text.slice(mention.end)) &&
        scope.same.some((other) => other.start > mention.end && other.concept.id !== mention.concept.id),
    );
    if (heading) return medicineRule(scope, { ...review, needsReview: true, reasons: [...reasons, 'classThenList'] });
    return medicineRule(scope, review);
  }
  return null;
}

/**
 * "At least two prior lines of therapy", "more than 3 regimens", "4 cycles of X": a count of treatments, which a rule of
 * taking (or ever taking) the medicine cannot hold: met by one course, it would refuse or take the wrong people, and the
 * matcher acts on rules in review too. Left unread (decision 307). "At least one" / "one or more" is ever taken, as before.
 */
const COUNTED_TREATMENTS =
  /(?<!\b(?:day|cycle|week|visit|dose|part|arm|phase|stage|grade|step)\s+)\b(?:(?:\d+|two|three|four|five|six|multiple|several)\s+(?:or\s+more\s+)?|(?:more|fewer|less)\s+than\s+(?:one|1)\s+)(?:(?!(?:days?|weeks?|months?|years?|hours?|after|before|since|from|prior\s+to|until|following|of)\b)[a-z-]+\s+){0,3}?(?:lines?|regimens?|courses?|cycles?)\b/i;

/** The rule of a medicine the criterion names, taken or not, ever or within its window. */
function medicineRule(scope: ConceptScope, review: ConceptReview): TextRule {
  const { kind, text, applies, window, concepts, name, span } = scope;
  const { needsReview, reasons, left, everTaken } = review;
  if (COUNTED_TREATMENTS.test(text)) return { rule: null, needsReview: true };
  // "Steroids (within the last month), immunosuppressive treatment (within the last 2 months)": a second window, other
  // than the rule's, is another medicine's; its words are all filler, so nothing else would tell (decision 307).
  const twoWindows = Boolean(scope.anyWindow && anotherWindow(text, scope.anyWindow.span));
  // "At least 6 weeks of failed treatment including physical therapy": past treatment, which "taking now" cannot say;
  // a past use the trial requires is said by `history` (decision 244).
  if (kind === 'inclusion' && applies && !window && !everTaken && PAST_TREATMENT.test(text)) return { rule: null, needsReview: true };
  return {
    rule: {
      type: 'medication',
      medication: name,
      taking: applies,
      concepts,
      ...(everTaken ? { history: true } : {}),
      ...(window ? { within: window.window } : {}),
      ...(scope.excepted ? { except: scope.excepted.concepts } : {}),
      span: spanOf(span),
    },
    needsReview: needsReview || twoWindows,
    reasons: twoWindows ? [...(reasons ?? []), 'timeUnread'] : reasons,
    unread: left,
  };
}

/** A window in the text besides the one at `span`, of another length. */
function anotherWindow(text: string, span: Span): boolean {
  const first = readWindow(text);
  const other = readWindow(text.slice(0, span[0]) + ' '.repeat(span[1] - span[0]) + text.slice(span[1]));
  return Boolean(first && other && (other.window.value !== first.window.value || other.window.unit !== first.window.unit));
}

/** "Naive to X", "treatment-naive for X", "X-naive": the person has never been given the medicine (decision 188). */
const NAIVE_TO = /\b(?:treatment[\s-])?na[iï]ve\s+(?:to|for)\s+(?:(?:any|all|prior|previous)\s+)?(?:[\w-]+\s+){0,2}$/i;
const NAIVE_AFTER = /^(?:\s*(?:therapy|treatment))?[\s-]*na[iï]ve\b/i;
/** "Not naive to X", "non-naive", "not X-naive": the "not" cancels the one the word carries (decision 307). */
const NOT_BEFORE = /\b(?:not|non)(?:\s+(?:be|been|being))?[\s-]+$/i;

/**
 * Whether the criterion says the person was never given the first medicine ("naive"), or, with a "not" before the word,
 * that they were (`given`); the words' span, which the rule reads. Null when it says neither.
 */
export function naiveTo(text: string, first: Mention): { given: boolean; span: Span } | null {
  const before = text.slice(0, first.start);
  const to = NAIVE_TO.exec(before);
  if (to) return { given: NOT_BEFORE.test(before.slice(0, to.index)), span: [to.index, first.start] };
  const after = NAIVE_AFTER.exec(text.slice(first.end));
  return after ? { given: NOT_BEFORE.test(before), span: [first.end, first.end + after[0].length] } : null;
}

/** Whether a medicine rule speaks of past use ("history of steroid use", "prior treatment with X"), and when that is "ever taken". */
export function pastUseOf(scope: ConceptScope): { pastUse: boolean; everTaken: boolean } {
  const { text, first, window, anyWindow, applies } = scope;
  // "History of steroid use", "prior treatment with X" in an exclusion: ever taken, which the rule says with `history`.
  const pastUse =
    first.concept.kind === 'medication' &&
    !window &&
    // A section label's "Prior/Concomitant therapy:" names the section, not the time.
    (/\b(?:history|prior(?!\s+to\b)|previous(?:ly)?(?!\s+to\b)|ever|na[iï]ve|in\s+the\s+past(?!\s+(?:\d|few|several|one|two|three|six|twelve|days?|weeks?|months?|years?)\b)|at\s+any\s+(?:time|point)(?!\s+during\b)|(?:have|has|had)\s+(?:ever\s+|previously\s+|already\s+)?(?:been\s+)?(?:used|received|taken|treated|exposed))\b/i.test(
      text.slice(labelLength(text)),
    ) ||
      // "Treated with epidural injections.": a criterion that opens with a past participle speaks of the past.
      /^\s*(?:\(?\w{1,3}[.)]\s*)?(?:treated|received|underwent|took)\b/i.test(text.slice(labelLength(text))));
  // Not when a window stands elsewhere in the criterion ("have received opioids, ... or injections within 7 days"): it
  // may cover the medicine too, and "ever" would be broader; nor for "recent" use.
  const everTaken =
    // "Naive to X" is never given X, "not naive to X" given it once: ever, either way (decision 307).
    (pastUse && !anyWindow && naiveTo(text, first) !== null) ||
    (pastUse && priorUseRequired(scope)) ||
    (pastUse &&
      !anyWindow &&
      !/\brecent(?:ly)?\b/i.test(text) &&
      // An exclusion of past use, or an inclusion that says "must not have received prior ...".
      !applies &&
      // "For treatment of the current episode" says which episode, not that the use is current.
      (!CURRENT.test(text.replace(/\bcurrent\s+(?:episode|condition|illness|disease|symptoms?|complaint|pain)\b/gi, '')) || NOW_OR_BEFORE.test(text)) &&
      !/\b(?:use|using|taking|receiving|on)\s+(?:\w+\s+){0,2}(?:now|currently|at (?:screening|present))\b/i.test(text));
  return { pastUse, everTaken };
}

/** What says more of a past treatment than that it was taken: how it went, or that it is still going on. */
const MORE_THAN_TAKEN =
  /\b(?:fail\w*|tried|despite|inadequate(?:ly)?|insufficient(?:ly)?|unresponsive|refractory|resist\w*|intoleran\w*|progress\w*|relaps\w*|recurr\w*|lost|loss|respon\w*|toxicit\w*|recovered|stopped|discontinu\w*|completed|ongoing|still|currently|current|now|stable)\b/i;

/** An inclusion that allows a past treatment rather than requiring it: "may have received", "is allowed", "any number of". */
const PAST_USE_ALLOWED =
  /\b(?:may|might|can|could|allowed|permitted|permissible|acceptable|eligible|regardless|irrespective|whether|optional|not\s+required|any\s+number|no\s+limit\w*|up\s+to|at\s+most|no\s+more\s+than|with\s+or\s+without)\b/i;

/**
 * "Prior treatment with bevacizumab", "patients who have received gemcitabine or paclitaxel" in an inclusion: the trial
 * wants people who have ever taken the medicine, which a medication rule wanting it with `history` says (the matcher
 * counts a past use, the question asks "Have you ever taken or received ...?"; decision 244). Not beside a window (the
 * matcher does not read a wanted medicine's window), nor when the text says how the treatment went ("failed",
 * "refractory to"), that it still goes on, or that it is only allowed ("may have received").
 */
function priorUseRequired(scope: ConceptScope): boolean {
  const { kind, text, applies, anyWindow } = scope;
  const body = text.slice(labelLength(text));
  // "At least 4 weeks since prior chemotherapy": a time since the treatment, not that it was taken.
  const timeSince = /\b(?:\d+|one|two|three|four|six|eight|twelve)\s*(?:days?|weeks?|months?|years?)\b|\b(?:since|elapsed|wash-?out)\b/i.test(body);
  return (
    kind === 'inclusion' &&
    applies &&
    !anyWindow &&
    !timeSince &&
    !/\brecent(?:ly)?\b/i.test(body) &&
    !MORE_THAN_TAKEN.test(body) &&
    !PAST_USE_ALLOWED.test(body)
  );
}
