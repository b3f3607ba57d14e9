import type { CriterionKind } from '../../../../contract/trials';
import type { Vocabulary } from '../vocabulary';
import { labelLength, spanOf, type TextRule } from './text';
import { criterionMentions } from './criterion-mentions';

/**
 * What the study itself arranges, which its site answers (decision 224): its own schedule ("randomised within 48 hours
 * of symptom onset"), the setting a person is recruited from (the index admission, a registry, a participating centre,
 * an index participant's household, where they live, the care setting, their insurance, an earlier enrolment in this
 * study), its own product ("the study drug"), an inclusion that only permits ("stable background therapy may
 * continue"), its operation's needs and plan ("requires fusion at the index level", "emergency surgery"), what its
 * procedures need of a person (a phone, a study partner, accepting randomisation, no travel planned), a legal protection
 * measure or literacy (who may consent), an expected survival. Each is a site check: staff answer it, and it refuses no
 * one by itself. Read only when no earlier reader read the criterion, and (except a permission, whose medicines are
 * what it permits) only when it names no condition or medicine: a named one is a question for a person, not the site's.
 */

const NUMBER_WORD = String.raw`(?:\d+(?:[.,]\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty-?four|forty-?eight|seventy-?two)`;
const TIME_UNIT = String.raw`(?:hours?|hrs?|h|days?|weeks?|wks?|months?)`;

/** What only the study does: assign, enrol, start its treatment. */
const STUDY_EVENT = String.raw`(?:randomi[sz]ed|randomi[sz]ation|enrol(?:l)?ed|enrol(?:l)?ment|included\s+in\s+the\s+(?:study|trial)|inclusion\s+in\s+the\s+(?:study|trial)|(?:start(?:ed)?|initiat(?:ed|ion)|administ(?:ered|ration)|begin(?:ning)?)\s+(?:of\s+)?(?:the\s+)?(?:study|trial|investigational)\s+(?:drug|treatment|medication|medicine|product|intervention|therapy)|(?:the\s+)?first\s+dose\s+of\s+(?:the\s+)?(?:study|trial|investigational)\s+(?:drug|treatment|medication|medicine|product|intervention|therapy))`;

/**
 * "Can be randomised within 24 hours of admission", "enrolment possible within 6 hours after the onset of symptoms",
 * "start of study treatment within 14 days of surgery": when the study may begin for a person, counted from an event of
 * their illness or care; the site keeps the clock. Not "treated within the last 6 months" (the person's past): the
 * event is the study's own, and the count runs from something ("of", "from", "after").
 */
const SCHEDULE = new RegExp(
  String.raw`^\W*(?:(?:the\s+)?(?:patients?|participants?|subjects?)\s+(?:who\s+)?)?(?:(?:can|could|must|will|should|is|are|able\s+to|possible\s+to|expected\s+to)\s+)*(?:be\s+)?${STUDY_EVENT}\s+(?:(?:is|must\s+be|should\s+be|can\s+be|will\s+be)\s+)?(?:possible\s+|feasible\s+|performed\s+|done\s+|occurring\s+|taking\s+place\s+)?(?:(?:with)?in|no\s+later\s+than|at\s+most|up\s+to|not\s+more\s+than|less\s+than|<\s*=?|≤)\s+${NUMBER_WORD}\s*${TIME_UNIT}\b[^.;]{0,12}?\b(?:of|from|after|following|since)\b`,
  'i',
);

/** "Admission from the emergency room", "elective admission", "admitted to the ICU for trauma care": the admission through which the study recruits. */
const INDEX_ADMISSION =
  /^\W*(?:(?:the\s+)?(?:patients?|participants?|subjects?)\s+(?:who\s+(?:are|were|is|was)\s+|(?:are|were|is|was)\s+)?)?(?:(?:scheduled|elective|planned|unplanned|emergency|emergent|urgent|direct)\s+)?(?:hospital\s+)?(?:admission|admitted|hospitali[sz]ed|hospitali[sz]ation)\b/i;
/** A past admission is the person's history, which they can answer: not the index admission. */
const PAST = /\b(?:history|previous(?:ly)?|prior|past|earlier|former|last|within|recent(?:ly)?|readmi\w*|re-admi\w*|more\s+than\s+once|times)\b/i;

/** "Registered in the national diabetes registry", "recorded in the insurance claims database": the site's data source. */
const REGISTRY =
  /\b(?:registered|recorded|listed|enrolled|included|identified|captured)\s+(?:in|on|from|through|via)\s+(?:the\s+|a\s+|an\s+)?(?:[\w'-]+\s+){0,6}?(?:databases?|registry|registries|register)\b/i;

/** "Treated at one of the participating centres", "followed at the study site": where the study recruits. */
const AT_THE_SITE =
  /\b(?:treated|followed(?:\s+up)?|seen|managed|operated(?:\s+on)?|cared\s+for|registered|attending|receiving\s+care)\s+(?:at|in|by)\s+(?:the\s+|a\s+|one\s+of\s+the\s+)?(?:study|participating|investigational|trial|recruiting|enrolling|investigator'?s?)\s+(?:sites?|centres?|centers?|hospitals?|clinics?|institutions?|practices?|departments?)\b/i;

/**
 * "Prior exposure to the study drug", "patients prescribed this drug in routine care": the study's own
 * product, which the site knows by its name and code (the person may know neither). Not an allergy to it (the allergy
 * readers read that).
 */
const STUDY_PRODUCT =
  /\b(?:treated|treatment|prescribed|prescription|receiv(?:e|es|ed|ing)|started|starting|administered|administration|exposure|exposed|using|used|use|taking|taken|dosed|vaccinated|implanted)\s+(?:(?:with|to|of|on)\s+)?(?:this|the\s+(?:study|investigational|trial|marketed))\s+(?:drug|medicine|medication|product|vaccine|device|implant|agent|compound)s?\b/i;
const ALLERGY = /\b(?:allerg\w*|hypersensitiv\w*|anaphyla\w*|intoleran\w*|sensitivity)\b/i;

/**
 * "A household contact of an index participant", "lives in the same home as an enrolled case": a person the study
 * reaches through another it enrolled; the site knows who its index participants are.
 */
const INDEX_CONTACT =
  /\b(?:(?:household|close|family)\s+contacts?\s+of\s+(?:an?\s+|the\s+)?|(?:liv\w*|resid\w*|stay\w*)\s+(?:in\s+(?:an?\s+|the\s+)?(?:same\s+)?(?:household|home|house|dwelling)\s+)?(?:with|as)\s+(?:an?\s+|the\s+)?)(?:index|enrolled|study)\s+(?:participants?|patients?|cases?|subjects?)\b/i;

/**
 * "Lives within 50 km of the study site", "resident in the hospital's catchment area": where the person lives against
 * where the study is, which the site checks.
 */
const RESIDENCE =
  /\b(?:(?:liv\w*|resid\w*|located)\s+(?:with)?in\s+(?:\d+(?:[.,]\d+)?\s*(?:km|kilomet\w*|miles?|minutes?|hours?|h)|(?:a\s+)?(?:reasonable|commuting|travel(?:l)?ing|driving)\s+(?:distance|time))\s+(?:of|from)\s+(?:the\s+|a\s+)?(?:(?:study|trial|participating|investigational)\s+)?(?:sites?|centres?|centers?|clinics?|hospitals?)|catchment\s+area)\b/i;

/** "Access to a telephone", "owns a smartphone with internet access": a means the study's own procedures need. */
const DEVICES = String.raw`(?:an?\s+|the\s+)?(?:(?:working|mobile|cell(?:ular)?|landline|home|reliable|personal)\s+)?(?:tele?phones?|phones?|smart-?phones?|computers?|tablets?|internet(?:\s+(?:access|connection))?|e-?mail(?:\s+address(?:es)?)?|wi-?fi)`;
const MEANS = new RegExp(
  String.raw`^\W*(?:(?:the\s+)?(?:patients?|participants?|subjects?)\s+(?:who\s+)?)?(?:(?:must|should)\s+)?(?:(?:(?:have|has|with|having)\s+)?(?:regular\s+|reliable\s+|daily\s+)?access\s+to|owns?|owning|possess\w*|(?:have|has|having|with))\s+${DEVICES}(?:\s*(?:,|\bor\b|\band\b|\band\/or\b|\bwith\b)\s*${DEVICES})*(?:\s+(?:capable\s+of|able\s+to|that\s+can|to)\s+(?:receiv\w*|send\w*|mak\w*|tak\w*|run\w*)\s+(?:and\s+(?:receiv\w*|send\w*)\s+)?(?:text\s+messages?|sms|calls?|e-?mails?|video\s+calls?|(?:the\s+)?(?:study\s+)?app(?:lication)?s?))?\W*$`,
  'i',
);
/** "Willing to be randomised", "accepts randomisation": the study's assignment, checked with consent to its procedures. */
const RANDOMISATION =
  /^\W*(?:(?:the\s+)?(?:patients?|participants?|subjects?)\s+(?:who\s+)?)?(?:(?:is|are|must\s+be)\s+)?(?:willing|agrees?|agreeing|accepts?|accepting|consents?)\s+(?:to\s+)?(?:be\s+)?(?:randomi[sz]ed|(?:the\s+)?randomi[sz]ation)(?:\s+(?:to|into)\s+(?:either|any|one\s+of\s+the)\s+(?:\w+\s+)?(?:arms?|groups?))?\W*$/i;

/**
 * "Previously randomised in this trial", "already included in the present study": the site's own enrolment list.
 */
const ENROLLED_BEFORE =
  /\b(?:(?:previous(?:ly)?|prior|already|earlier)\s+(?:(?:been|being)\s+)?(?:enrol(?:l)?(?:ed|ment)|randomi[sz](?:ed|ation)|included|inclusion|participat\w*|screened|treated|dosed)|(?:enrol(?:l)?(?:ed|ment)|randomi[sz](?:ed|ation)|included|participat\w*)\s+(?:\w+\s+)?(?:previously|before|earlier|already))\s+(?:(?:in|into|for)\s+)?(?:(?:this|the\s+(?:present|current|same))\s+(?:study|trial|protocol)|(?:this|the\s+(?:present|current|same))\s+(?:\w+\s+)?(?:study|trial))\b/i;

/**
 * "Affiliated to a social security scheme", "covered by health insurance", "under guardianship or curatorship",
 * "deprived of liberty by a judicial decision", "protected adults", "vulnerable persons": the legal and administrative
 * standing the country's law asks of a participant, which the site checks with its papers. A legal protection measure
 * is a check of who may consent.
 */
const COVER =
  /^\W*(?:(?:the\s+)?(?:patients?|participants?|subjects?|persons?|people|individuals?)\s+(?:who\s+(?:are|is)\s+)?)?(?:(?:not|non-?)\s+)?(?:(?:affiliat\w*|registered|insured|enrolled|covered|beneficiar\w*)\s+(?:(?:to|with|by|in|of|under)\s+)?(?:an?\s+|the\s+)?(?:national\s+|french\s+|public\s+|social\s+|state\s+|statutory\s+)*(?:social\s+security|health\s+(?:insurance|care\s+(?:insurance|scheme|system|coverage))|insurance)(?:\s+(?:scheme|system|regime|plan|coverage))?|(?:having|having\s+no|without|with(?:out)?\s+no|no)\s+(?:social\s+security|health\s+insurance)(?:\s+(?:scheme|system|regime|plan|coverage))?)\W*$/i;
const LEGAL_PROTECTION =
  /^\W*(?:(?:the\s+)?(?:patients?|participants?|subjects?|persons?|people|individuals?|adults?)\s+(?:who\s+(?:are|is)\s+)?)?(?:(?:placed\s+)?under\s+(?:legal\s+)?(?:guardianship|curatorship|tutorship|trusteeship|legal\s+protection|safeguard\s+of\s+justice|(?:a\s+)?(?:legal\s+)?protection\s+measure)(?:\s*(?:,|\/|\bor\b|\band\b)\s*(?:under\s+)?(?:guardianship|curatorship|tutorship|trusteeship|legal\s+protection|safeguard\s+of\s+justice))*|(?:legally\s+)?protected\s+(?:adults?|persons?|people)|vulnerable\s+(?:persons?|people|populations?|participants?|subjects?)|deprived\s+of\s+(?:their\s+)?liberty(?:\s+by\s+(?:a\s+)?(?:judicial|administrative|court)(?:\s+or\s+(?:judicial|administrative))?\s+(?:decision|order))?)\W*$/i;

/**
 * "Outpatients", "inpatients in the intensive care unit", "expected hospital stay of at least 3 days", "expected to be
 * discharged within 24 hours": where and for how long the study sees the person, which the site knows.
 */
const CARE_SETTING =
  /^\W*(?:(?:the\s+)?(?:patients?|participants?|subjects?)\s+(?:who\s+(?:are|is)\s+)?)?(?:(?:out|in)-?patients?(?:\s+(?:setting|clinic|care))?|(?:(?:currently\s+)?(?:admitted|hospitali[sz]ed|treated|managed|cared\s+for)\s+)?(?:in|at|on)\s+(?:the\s+|an?\s+)?(?:intensive\s+care\s+unit|icu|emergency\s+(?:department|room)|(?:general\s+)?ward)|(?:an?\s+)?(?:expected|anticipated|estimated|planned)\s+(?:hospital\s+|length\s+of\s+)?(?:stay|hospitali[sz]ation)(?:\s+of)?\s+(?:at\s+least|more\s+than|less\s+than|over|under|[<>≤≥]=?)?\s*\d+\s*(?:hours?|days?|nights?|h)|(?:expected|anticipated|likely)\s+to\s+(?:be\s+)?(?:hospitali[sz]ed|stay|remain\s+in\s+(?:the\s+)?hospital|be\s+discharged)\s+(?:for|within)\s+(?:at\s+least\s+|more\s+than\s+|less\s+than\s+)?\d+\s*(?:hours?|days?|nights?|h))\W*$/i;

/**
 * "Able to start treatment within 7 days after randomisation", "surgery planned within 4 weeks of enrolment": the
 * study's own timetable counted from its own event.
 */
const FROM_STUDY_EVENT = new RegExp(
  String.raw`^\W*(?:(?:the\s+)?(?:patients?|participants?|subjects?)\s+(?:who\s+)?)?(?:(?:is|are|must\s+be|should\s+be)\s+)?(?:able|ability|willing|willingness|expected|planned|scheduled|can|must|should)\b[^.;]{0,60}?\b(?:start|begin|initiate|receive|undergo|have|be\s+(?:treated|operated))\b[^.;]{0,40}?\bwithin\s+${NUMBER_WORD}\s*${TIME_UNIT}\s+(?:of|from|after|following)\s+(?:the\s+)?(?:randomi[sz]ation|enrol(?:l)?ment|inclusion|registration|study\s+entry|consent|screening)\W*$`,
  'i',
);

/** "Planned travel abroad during the study", "an expected absence of more than 2 weeks during follow-up": away from the study. */
const AWAY =
  /\b(?:plann\w*|expect\w*|intend\w*|anticipat\w*|scheduled)\s+(?:\w+\s+){0,6}?(?:travel\w*|trips?|absences?|vacations?|holidays?|abroad)\b[^.;]{0,60}\b(?:during|within|before\s+the\s+end\s+of)\s+(?:the\s+)?(?:study|trial|follow-?up|treatment\s+period)\b/i;

/** "A study partner who sees them weekly", "availability of a caregiver": someone the study's procedures need beside the person. */
const PARTNER =
  /^\W*(?:(?:the\s+)?(?:patients?|participants?|subjects?)\s+(?:who\s+)?)?(?:(?:must\s+)?(?:have|has|having|with)\s+(?:an?\s+)?(?:reliable\s+|identified\s+|available\s+)?|(?:the\s+)?availab\w*\s+of\s+(?:an?\s+)?(?:reliable\s+)?)(?:study\s+partner|caregiver|care-?giver|carer|informant|companion)s?\b/i;

/**
 * "Emergency surgery", "patients scheduled for day-case surgery", "expected duration of anaesthesia over 2 hours",
 * "planned postoperative admission to intensive care": the kind and the plan of the study's own operation, which the
 * site sets.
 */
const OPERATION_PLAN =
  /^\W*(?:(?:the\s+)?(?:patients?|participants?|subjects?)\s+(?:who\s+(?:are|is)\s+)?)?(?:(?:undergoing|scheduled\s+for|planned\s+for|requiring|needing)\s+(?:an?\s+)?)?(?:(?:emergency|emergent|urgent|day-?case|same-?day)\s+(?:surgery|surgical\s+procedures?|operations?|procedures?)|(?:an?\s+)?(?:expected|anticipated|estimated|planned)\s+(?:(?:duration|length)\s+of\s+(?:the\s+)?(?:surgery|operation|procedure|an(?:a)?esthesia)|(?:surgery|surgical|operation|operative|procedure|an(?:a)?esthesia)\s+(?:duration|time|length))(?:\s+(?:of|is|was))?\s+(?:at\s+least|more\s+than|less\s+than|longer\s+than|shorter\s+than|over|under|[<>≤≥]=?)\s*\d+(?:[.,]\d+)?\s*(?:hours?|minutes?|min|h)|(?:(?:planned|expected|anticipated|elective)\s+|need\s+for\s+|requiring\s+)(?:post-?\s?operative|postop)\s+(?:(?:admission\s+to\s+(?:the\s+)?)?(?:icu|intensive\s+care(?:\s+unit)?)(?:\s+admission)?|(?:mechanical\s+)?ventilation))\W*$/i;

/** "Literate", "unable to read or write": reading the study's papers, checked with consent. */
const LITERACY =
  /^\W*(?:(?:the\s+)?(?:patients?|participants?|subjects?|persons?)\s+(?:who\s+(?:are|is)\s+)?)?(?:(?:il)?litera(?:te|cy)|(?:un)?able\s+to\s+read(?:\s+(?:and|or|and\/or)\s+write)?|(?:cannot|can\s+not|could\s+not)\s+read(?:\s+(?:and|or|nor)\s+write)?)\W*$/i;

/** "Expected survival of at least 12 weeks": as life expectancy, the investigator's estimate. */
const SURVIVAL = /^\W*(?:an?\s+)?(?:expected|anticipated|estimated|predicted)\s+survival\b/i;

/** "Registered with a general practitioner": the care the study reaches the person through. */
const REGISTERED_CARE =
  /\b(?:registered|enrolled|listed)\s+(?:with|at)\s+(?:an?\s+|the\s+|their\s+)?(?:general\s+practi\w*|gp|family\s+(?:doctor|physician|practi\w*)|primary\s+care\s+(?:practi\w*|physician|provider|clinic))\b/i;

/**
 * "Any condition that prevents the participant from completing the study", "circumstances that would preclude
 * follow-up": what no one named, weighed by the investigator against the study's own demands.
 */
const PREVENTS_STUDY =
  /^\W*(?:(?:any|other|another)\s+)*(?:conditions?|reasons?|circumstances?|situations?|factors?|problems?)\s*,?\s*(?:that|which)\s*,?\s*(?:\w+\s+)?(?:prevents?|would\s+prevent|may\s+prevent|might\s+prevent|could\s+prevent|precludes?|would\s+preclude|may\s+preclude|hinders?|would\s+hinder|makes?\s+it\s+(?:difficult|impossible|unlikely))\b[^.;]{0,60}\b(?:complet\w*|participat\w*|follow-?up|study\s+(?:procedures?|visits?|assessments?)|adher\w*|comply\w*|compliance)\b/i;

/**
 * A criterion whose verb only permits: "stable background therapy may be continued", "Participants on hormone
 * replacement are also eligible", "concomitant analgesics are allowed". Staff check any condition it sets on what is
 * permitted ("stable", "provided ..."); no one is refused by it. Not "eligible for" or "eligible to" (a requirement).
 */
const PERMITS =
  /\b(?:(?:are|is|will\s+be|may\s+be|can\s+be|remain)\s+(?:also\s+)?(?:eligible|allowed|permitted|acceptable|accepted|permissible)(?!\s+(?:for|to)\b)|(?:are|is|will\s+be)\s+(?:also\s+)?allowed\s+to\s+(?:enter|participate|enrol\w*|take\s+part|join)|(?:can|may)\s+(?:be\s+)?(?:used|continued|maintained|kept)|(?:can|may)\s+continue|may\s+(?:also\s+)?(?:participate|receive|have\s+(?:previously\s+|already\s+)?(?:received|had|undergone|been\s+treated))|(?:there\s+(?:is|are)\s+)?no\s+limits?\s+(?:on|to)\b)/i;
/** What makes a permission of a condition one: "also", or a proviso staff check. */
const PROVISO = /\b(?:also|provided|if|as\s+long\s+as|once|when|whether)\b/i;
/** What turns a permission into a requirement or a refusal. */
const NOT_A_PERMISSION = /\b(?:not|no(?!\s+limits?\s+(?:on|to)\b)|never|nor|only|must|required?|cannot|can't|excluded?|prohibited|forbidden|unless)\b/i;

/**
 * "Requires posterior instrumentation at the index level", "need for a facetectomy to treat the leg pain": in an
 * exclusion, what the study's operation will need, which the surgeon decides when planning it (as decision 161 read the
 * operation itself). Not an operation the person had ("previous fusion").
 */
const OPERATION_WORD = String.raw`(?:surger(?:y|ies)|operations?|(?:re-?)?instrumentation|fusion|fixation|decompression|arthrodesis|osteotomy|laminectomy|\w+ectomy|\w+otomy|\w+plasty)`;
const OPERATION_NEEDS = new RegExp(
  String.raw`^\W*(?:(?:the\s+)?(?:patients?|participants?|subjects?)\s+(?:who\s+)?)?(?:(?:requires?|requiring|needs?|needing|in\s+need\s+of|(?:the\s+)?need\s+for|indication\s+for)\s+(?:an?\s+|the\s+|additional\s+|concomitant\s+|further\s+)?(?:[\w/-]+\s+){0,4}?${OPERATION_WORD}\b|(?:[\w/-]+\s+){0,3}?${OPERATION_WORD}\s+(?:is\s+|are\s+)?(?:necessary|required|needed|indicated|planned)\s+(?:at|on|in|for)\s+(?:the\s+)?(?:same|index|treated|operated|affected|target|study)\b)`,
  'i',
);
const OPERATION_PAST = /\b(?:history|previous(?:ly)?|prior|past|earlier|former|underwent|had|already)\b/i;

/** The site check the criterion is, from its first word to its last. */
type SiteCheckReason = 'protocol' | 'protocol_compliance' | 'investigator_judgement' | 'consent_capacity' | 'permission';

export function siteCheck(text: string, reason: SiteCheckReason): TextRule {
  const label = labelLength(text);
  const start = label + text.slice(label).search(/\w/);
  const end = text.search(/\w\W*$/) + 1;
  return { rule: { type: 'site_judgement', reason, span: spanOf([start, end]) }, needsReview: false };
}

/**
 * Whether the vocabulary names a condition or a medicine in the text (then a person, not the site, reads it), outside
 * the words `[from, to)` of the text (the operation a plan needs is the site's).
 */
function namesConcept(text: string, vocab: Vocabulary, from = 0, to = 0, only?: 'condition'): boolean {
  return criterionMentions(vocab, text).some(
    (mention) =>
      (only ? mention.concept.kind === only : mention.concept.kind === 'condition' || mention.concept.kind === 'medication') &&
      (mention.start < from || mention.end > to),
  );
}

/** One sentence: a second sentence or a list line is another requirement this reader does not read. */
function oneSentence(body: string): boolean {
  return !/[;\n]|\.\s+\w/.test(body.replace(/\b(?:e\.\s?g|i\.\s?e|ie|etc|vs|approx|min|max|no)\./gi, ''));
}

/**
 * "Patients with hypothyroidism are eligible", "those on stable thyroxine may be included", written among exclusions: a
 * permission, which refuses no one (decision 235). Read as an inclusion's permission is (decision 224): a site check when
 * it permits on a proviso or names no condition, else no rule and a person reads it; never a rule that refuses what it
 * permits. Only when the first sentence permits and nothing in the criterion forbids or requires ("not", "only", "must").
 */
const MAY_BE_INCLUDED = /\b(?:may|can)\s+(?:be\s+)?(?:included|enrolled|randomi[sz]ed|participate|take\s+part)\b/i;
export function readExclusionPermission(text: string, vocab: Vocabulary): TextRule | null {
  const body = text.slice(labelLength(text));
  // The permission must be the criterion's own first sentence: one in parentheses or after "Note:" permits an exception
  // to an exclusion the criterion states first ("TBL > 1.5 mg/dL (allowed if ...)"), which stays the exclusion's.
  const first = body.replace(/\([^()]*\)?/g, ' ').split(/[.;:\n](?:\s|$)|\bnotes?\b\s*:?/i)[0];
  if (!(PERMITS.test(first) || MAY_BE_INCLUDED.test(first)) || NOT_A_PERMISSION.test(body)) return null;
  return staffCheckPermission(text, body, vocab) ? permissionCheck(text, body) : { rule: null, needsReview: true };
}

/**
 * What a permission leaves staff (decision 333): its proviso, a time, a dose or a number ("allowed provided it ended 4
 * weeks before", "up to 10 mg"; not a name's digits, "anti-CD20"), or a list that follows, is a check; a bare
 * permission ("prior radiotherapy is allowed", "may receive transfusions") refuses no one and asks nothing.
 */
const PERMISSION_CONDITION =
  /\b(?:provided|if|as\s+long\s+as|once|when|whether|unless|only|after|before|since|within|until|prior\s+to|except|excluding|stable|following|meet|criteria|condition|conditions|documented|approv\w*|consult\w*|discretion|judg\w*|opinion|up\s+to|at\s+most|maximum|no\s+more|one|two|three|four|five|single)\b|(?<![a-z0-9-])\d|[<>≤≥:\n]/i;
function permissionCheck(text: string, body: string): TextRule {
  // "Admission in labour (women in latent labour are eligible)": a permission in brackets qualifies a requirement.
  const bare = PERMITS.test(body.replace(/\([^()]*\)?/g, ' ')) && !PERMISSION_CONDITION.test(body);
  return siteCheck(text, bare ? 'permission' : 'protocol');
}

/** A permission in so many words ("is allowed", "permitted", "may have received"); not "eligible", which may name whom the trial takes. */
const ALLOWS =
  /\b(?:allowed|permitted|acceptable|accepted|permissible)\b|\b(?:can|may)\s+(?:be\s+)?(?:used|continued|maintained|kept|continue|receive|have)\b/i;

/**
 * A permission is the site's check when it permits on a proviso ("provided", "if", "also") or names no condition;
 * "Patients with NSCLC are eligible" with neither may be how the trial names whom it takes, which a person reads.
 */
function staffCheckPermission(text: string, body: string, vocab: Vocabulary): boolean {
  return PROVISO.test(body) || !namesConcept(text, vocab, 0, 0, 'condition');
}

/** An inclusion whose first line only permits ("may have received any number of prior therapies"): it names no requirement. */
export function inclusionOnlyPermits(text: string): boolean {
  const body = text.slice(labelLength(text));
  // "Receiving other investigational agents (imaging agents are acceptable)": a permission in parentheses is an exception.
  return PERMITS.test(body.split('\n')[0].replace(/\([^()]*\)?/g, ' ')) && !NOT_A_PERMISSION.test(body);
}

export function readStudyConductRule(kind: CriterionKind, text: string, vocab: Vocabulary): TextRule | null {
  const body = text.slice(labelLength(text));
  // A permission's conditions may follow as a list ("eligible provided they meet the following: ..."): they are what
  // staff check, unless one of them forbids or requires ("must", "not").
  const firstLine = body.split('\n')[0];
  if (kind === 'inclusion' && PERMITS.test(firstLine) && !NOT_A_PERMISSION.test(body)) {
    if (staffCheckPermission(text, body, vocab)) return permissionCheck(text, body);
    // "Patients with any grade of alopecia are allowed": allowed in so many words, a condition named is still allowed,
    // never required (decision 333).
    if (ALLOWS.test(firstLine.replace(/\([^()]*\)?/g, ' ')) && !PERMISSION_CONDITION.test(body)) return siteCheck(text, 'permission');
  }
  if (!oneSentence(body)) return null;
  if (STUDY_PRODUCT.test(body) && !ALLERGY.test(body)) return siteCheck(text, 'protocol');
  const label = text.length - body.length;
  const needs = kind === 'exclusion' && !OPERATION_PAST.test(body) ? OPERATION_NEEDS.exec(body) : null;
  if (needs && !namesConcept(text, vocab, label + needs.index, label + needs.index + needs[0].length)) return siteCheck(text, 'investigator_judgement');
  const reason = siteCheckReason(body);
  // The vocabulary is asked only when a class matched (it is the costly step).
  return reason && !namesConcept(text, vocab) ? siteCheck(text, reason) : null;
}

/** The site check a one-sentence criterion of these classes is, before any named condition or medicine is looked for. */
function siteCheckReason(body: string): SiteCheckReason | null {
  if (SCHEDULE.test(body)) return 'protocol';
  if (INDEX_ADMISSION.test(body) && !PAST.test(body)) return 'protocol';
  if (REGISTRY.test(body) || AT_THE_SITE.test(body) || INDEX_CONTACT.test(body) || RESIDENCE.test(body)) return 'protocol';
  if (MEANS.test(body) || RANDOMISATION.test(body) || AWAY.test(body) || PARTNER.test(body)) return 'protocol_compliance';
  if (ENROLLED_BEFORE.test(body) || COVER.test(body) || CARE_SETTING.test(body) || FROM_STUDY_EVENT.test(body)) return 'protocol';
  if (OPERATION_PLAN.test(body) || REGISTERED_CARE.test(body)) return 'protocol';
  if (LEGAL_PROTECTION.test(body) || LITERACY.test(body)) return 'consent_capacity';
  if (SURVIVAL.test(body) || PREVENTS_STUDY.test(body)) return 'investigator_judgement';
  return null;
}
