import type { CriterionKind } from '../../../../contract/trials';
import { labelLength, spanOf, type TextRule } from './text';

/**
 * What staff judge or check: consent, the investigator's opinion, compliance, language, a scan's safety, findings.
 */

const CONSENT =
  /\b(?:informed consents?|written consent|consent form|consent(?:s|ed)? to (?:participate|take part)|(?:refus\w*|declin\w*|not wanting|do(?:es)? not want) (?:to )?(?:participat\w*|take part)|(?:sign|give|provide|obtain)\w*\s+(?:[\w/-]+\s+){0,3}consent|assent|capable of (?:giving|understanding|providing)|ability to (?:understand|give|provide)|able to (?:understand|read|give|provide)|legal(?:ly)? (?:(?:acceptable|authori[sz]ed) )?representative|sign\w*\s+(?:an?\s+|the\s+)?(?:[\w-]+\s+){0,4}?(?:release|waiver|authori[sz]ation)(?:\s+(?:of\s+information\s+)?forms?)?|legal guardian|mentally (?:competent|capable)|unable to (?:give|provide|understand) (?:informed )?consent|lack(?:s|ing)? (?:the )?capacity|(?:has|have|with) the capacity to consent|capacity to consent|volunteer(?:ed|s)? to participate|voluntarily (?:agree|participate|sign|consent)\w*|(?:fully|sufficiently|adequately|properly) informed (?:of|about)|in-formed consent|(?:not|did not|do not|does not|unwilling to|refus\w* to) consent|unsigned (?:informed )?consent)\b/i;

export const JUDGEMENT =
  /\b(?:in the (?:opinion|judge?ment|view) of (?:the )?(?:\w+\s+)?(?:investigators?|physicians?|doctors?|sponsor)|investigator'?s? (?:opinion|judge?ment|discretion|assessment|decision)|(?:assessment|decision|opinion|judge?ment) of (?:the )?(?:principal |treating |study )?(?:investigators?|physicians?)|judged\s+(?:[\w-]+\s+){1,6}by (?:the )?(?:principal |sub-?)?investigators?|(?:investigator|physician|sponsor)(?:\s+\w+)?\s+(?:considers?|believes?|judges?|deems?)|(?:considered|deemed|judged|assessed) (?:by (?:the )?(?:\w+\s+)?(?:investigators?|physicians?|sub-?investigators?)|(?:un)?suitable|inappropriate|ineligible)|at the discretion|(?:predicted |estimated |anticipated )?life expectancy|(?:considered\s+)?likely to (?:interfere|compromise|jeopardi[sz]e|confound)|would (?:interfere|compromise|jeopardi[sz]e|confound|make (?:\w+\s+){0,3}unsuitable|preclude|put)|unsuitable|inappropriate|unsafe|not an?\s+(?:(?:surgical|operative|good|suitable)\s+)?candidate|too (?:risky|dangerous|life-threatening)|(?:contra|counter)[- ]?indicat(?:ion|ions|ed|es?)\b|not (?:be )?(?:suitable|appropriate)|may (?:interfere|compromise|confound|increase the risk)|(?:any|other)\s+(?:[\w-]+\s+){0,4}(?:that|which)\s+(?:would\s+|may\s+|might\s+|could\s+)?(?:precludes?|contraindicates?))\b/i;

const COMPLIANCE =
  /\b(?:(?:willing(?:ness)?|agree(?:s|d|ment)?|consent(?:s|ed)?|able|ability|commit(?:s|ted|ment)?)(?: and (?:able|willing))? to (?:provide|allow|give|donate|undergo|have)\b[^.;]{0,50}?\b(?:biops(?:y|ies)|samples?|specimens?|tissue)|(?:consent(?:s|ed)?|agree(?:s|d)?|willing) to (?:be )?randomi[sz]\w*|(?:(?:un)?willing(?:ness)?|agree(?:s|d|ment)?|(?:un)?able|(?:in)?ability|commit(?:s|ted|ment)?)(?: and (?:able|willing))? to (?:refrain|abstain|avoid|forgo|forego|withhold|limit|wear|discontinue|stop)|willing(?:ness)?(?: and able)?(?: and willing)? to (?:comply|adhere|follow|attend|complete|return|participate|undergo|cooperate)|able (?:and willing )?to (?:comply|adhere|follow|attend|complete|return|participate|undergo|swallow|cooperate|come to the (?:study )?(?:site|clinic|hospital))|(?:answer|complete|fill (?:in|out))\s+(?:the\s+)?(?:study\s+)?questionnaires?|(?:incomplete|missing|insufficient)\s+(?:[\w-]+\s+){0,2}(?:data|records?)|(?:study|site|trial)\s+(?:personnel|staff)|litigation|workers?'?s?'?\s+comp(?:ensation)?|disability (?:remuneration|claims?|compensation)|comply with (?:all )?(?:the )?(?:study|protocol|trial|scheduled)|(?:un)?able to complete|(?:unwilling|unable|inability) (?:or unable |or unwilling )?to (?:comply|adhere|follow|attend|complete|return|participate|cooperate|swallow)|available for (?:the )?(?:duration|follow-up|all)|available for (?:at least |a minimum of )?\d+\s*(?:weeks?|months?|years?)\b|likely to (?:return|complete|comply|attend)|(?:return|come back) for (?:all )?(?:the )?(?:follow-up|study) visits|as defined (?:by|in) the protocol|per protocol|(?:employees?|staff|family members?|relatives?) of (?:the )?(?:sponsor|investigator|study site|site)|directly involved in the conduct|other protocol[- ]defined|further (?:inclusion |exclusion )?criteria (?:may )?apply|adequate\s+(?:(?:end-organ|organ|bone marrow|hematologic(?:al)?|haematologic(?:al)?|renal|kidney|hepatic|liver|cardiac|and|or|,)\s*)+function|criteria (?:may|could) apply|prisoners?|incarcerated|imprisoned|in (?:police |legal )?custody|(?:plann\w*|plans?|intend\w*|expect\w*)\s+(?:to\s+)?(?:move|relocat\w*)(?:\s+(?:away|out\s+of\s+the\s+area|during|before))?)\b/i;

/**
 * "Willing to refrain from alcohol", "able to stop NSAIDs 7 days before each visit": the whole criterion is keeping to a
 * restriction the study sets, which staff agree with the person; the alcohol or medicine it names is not one the person
 * must have or take (decision 246).
 */
export const KEEPS_TO_RESTRICTION =
  /^\W*(?:(?:the\s+)?(?:patients?|participants?|subjects?)\s+)?(?:(?:must|should|will)\s+)?(?:be\s+|is\s+|are\s+)?(?:not\s+|un)?(?:willing|agree(?:s|d)?|able|commit(?:s|ted)?)(?:\s+and\s+(?:able|willing))?\s+to\s+(?:refrain|abstain|avoid|forgo|forego|withhold|limit|discontinue|stop)\b/i;

/**
 * "Life-threatening illness as determined by the attending clinician", "eligible per physician evaluation", "medical
 * clearance from their physician", "deemed too medically compromised", "expected survival under a year": what a
 * clinician decides about the person, which staff read from the clinician (decision 246).
 */
const CLINICIAN_DETERMINES =
  /\b(?:(?:as\s+)?(?:determined|assessed|judged|evaluated|documented)\s+by\s+(?:the\s+|a\s+|their\s+|his\/her\s+)?(?:(?:treating|attending|study|site|referring|primary|responsible)\s+)?(?:clinicians?|physicians?|oncologists?|surgeons?|investigators?|doctors?)|per\s+(?:the\s+)?(?:(?:treating|attending|study)\s+)?(?:physician|clinician|investigator|oncologist|surgeon)(?:'s)?\s+(?:evaluation|assessment|judge?ment|discretion|opinion)|medical\s+clearance|deemed\s+too\s+[\w\s-]{0,30}?(?:compromised|frail|sick|ill|unwell|risky)|medically\s+(?:fit|unfit)|(?:expected|estimated|predicted|anticipated)\s+survival)\b/i;

const LANGUAGES = String.raw`(?:english|spanish|french|german|dutch|italian|portuguese|korean|chinese|mandarin|cantonese|japanese|danish|swedish|norwegian|finnish|turkish|arabic|hebrew|polish|russian|hindi|vietnamese)`;

/**
 * Reading, speaking or understanding the study's language: needed to consent, checked by staff. "English speakers",
 * "primarily Spanish", "primary language other than English" name the language first (decision 246).
 */
const LANGUAGE = new RegExp(
  String.raw`\b(?:(?:fluen\w*|literate|literacy|proficien\w*|understand\w*|speak\w*|read\w*|comprehen\w*|communicat\w*|language skills?)\b[^.;]{0,30}\b(?:${LANGUAGES}|(?:the )?(?:local|study|national|official) language|language)\b|\b${LANGUAGES}[- ]speak(?:ing|ers?)\b|\b(?:primary|first|native|main|preferred)\s+language\s+(?:is|was|of|other\s+than|not|must|should|spoken|at\s+home)\b|\b(?:native|primarily|predominantly)\s+${LANGUAGES}\b)`,
  'i',
);

/** "Unable to undergo an MRI": what makes a scan unsafe (an implant, claustrophobia) staff check, as "contraindication to
 * MRI". Only when the criterion says nothing else, so a condition named beside it ("... or claustrophobia") is still read. */
const SCAN_UNABLE =
  /^\W*(?:(?:the\s+)?(?:patients?|participants?|subjects?)\s+(?:who\s+)?(?:is|are)\s+)?(?:unable|inability)\s+to\s+(?:undergo|tolerate|have)\s+(?:an?\s+)?(?:MRI|magnetic resonance imaging|MR imaging)(?:\s+\(MRI\))?(?:\s+scans?)?\W*$/i;

/**
 * "Any serious or unstable medical illness", "Uncontrolled/acute illness", "Clinically significant concurrent medical
 * condition": no condition is named, and what counts as serious or unstable is the investigator's call. Only when the
 * criterion is that and little more (a reason such as "that would prevent completion of the study" or an exception).
 */
const UNNAMED_ILLNESS =
  /^\W*(?:(?:patients?|participants?|subjects?)\s+with\s+|(?:has|have)\s+(?:an?\s+|any\s+)?|any\s+(?:other\s+)?|other\s+|presence\s+of\s+(?:an?\s+|any\s+)?)?(?:(?:clinically|medically|severe|serious|significant|unstable|uncontrolled|poorly controlled|acute|chronic|active|concurrent|concomitant|intercurrent|underlying|major|important|relevant)(?:\s*(?:,|\/|\bor\b|\band\b|\band\/or\b)\s*|\s+))+(?:medical\s+|systemic\s+|physical\s+)?(?:illness(?:es)?|(?<=medical\s+|systemic\s+|physical\s+)(?:conditions?|diseases?|disorders?|problems?))\b/i;

/**
 * "Any clinically significant laboratory abnormality", "Clinically relevant ECG abnormalities at screening": a finding of
 * the screening tests whose weight the investigator judges; the patient cannot answer it (decision 110). Only when the
 * criterion is that, with at most when or how it is found ("at screening", "as determined by physical examination").
 */
const SIGNIFICANT_FINDING =
  /^\W*(?:any\s+)?(?:(?:acute|chronic)\s+(?:or\s+(?:acute|chronic)\s+)?)?clinically\s+(?:significant|relevant)(?:\s+or\s+(?:clinically\s+)?(?:significant|relevant))?\s+(?:(?:hematologic(?:al)?|haematologic(?:al)?|biochemical|blood|laboratory|lab|ecg|ekg|electrocardiogra(?:m|phic)|physical\s+examination|vital\s+signs?|cardiovascular|cardiac|hepatic|renal|functional|test)(?:\s*(?:,|\/|\bor\b|\band\b|\band\/or\b)\s*|\s+))+(?:abnormalit(?:y|ies)|findings?)(?:\s+(?:at|during)\s+(?:the\s+)?screening(?:\s+visit)?|\s+(?:as\s+)?(?:determined|detected|found)\s+(?:by|on|at|during)\s+(?:[\w-]+\s*(?:,|\bor\b|\band\b)?\s*){1,6})?\W*$/i;

/** A screening test whose findings the investigator weighs: an ECG, the laboratory, the physical examination, vital signs. */
const SCREENING_TEST = String.raw`(?:(?:12-?\s?lead\s+)?(?:ecg|ekg|electrocardiogra(?:m|phy|phic))s?|laborator(?:y|ies)|lab|blood|h(?:a)?ematolog(?:y|ic(?:al)?)|(?:clinical\s+)?chemistry|biochemi(?:stry|cal)|urinalysis|physical\s+exam(?:ination)?|vital\s+signs?)`;
/**
 * "Clinically significant abnormal ECG", "any clinically significant abnormality on the screening electrocardiogram",
 * "clinically significant abnormal laboratory values at screening" (decision 363): the same finding of the screening
 * tests, the adjective before the test or the abnormality placed on it. Only when the criterion is that.
 */
const SIGNIFICANT_ABNORMAL_TEST = new RegExp(
  String.raw`^\W*(?:any\s+)?clinically\s+(?:significant|relevant)\s+(?:abnormal\s+|abnormalit(?:y|ies)\s+(?:on|in|of)\s+(?:the\s+)?(?:screening\s+)?)${SCREENING_TEST}(?:\s*(?:,|\/|\bor\b|\band\b|\band\/or\b)\s*${SCREENING_TEST})*(?:\s+(?:values?|results?|findings?|parameters?|tests?|readings?))?(?:\s+(?:at|during)\s+(?:the\s+)?screening(?:\s+visit)?)?\W*$`,
  'i',
);

/**
 * "Intraoperative decision by the surgeon to use other implants", "a dural tear found during the surgical procedure",
 * "Intra-surgery exclusion criteria: ...": what the surgical team finds or decides in the operation, which no one can
 * know before it; staff check it then (decision 110). Not a past operation's event ("bleeding during a previous surgery").
 */
const INTRAOPERATIVE =
  /\b(?:intra-?\s?operative(?:ly)?|intra-?\s?surg(?:ery|ical(?:ly)?)|(?:found|seen|noted|observed|assessed|detected|encountered|identified|occurring|made)\s+during\s+(?:the\s+)?(?:index\s+|study\s+)?(?:surgery|surgical\s+procedure|operation)|(?:entry|tear|opening)\s+during\s+(?:the\s+)?(?:surgery|surgical\s+procedure|operation)|at\s+the\s+time\s+of\s+(?:the\s+)?(?:index\s+)?surgery|surgical\s+determination|(?:decision|determination|judge?ment)\s+(?:made\s+)?by\s+the\s+(?:operating\s+)?surgeon)\b/i;

/** "(Evidence / high suspicion of) non-compliance or non-adherence to ...", "poor adherence with prescribed medicines". */
export const NON_ADHERENCE =
  /^\W*(?:(?:known|documented|suspected)\s+)?(?:(?:evidence|history|(?:high\s+)?suspicion)(?:\s*(?:\/|or|and\/or)\s*(?:high\s+)?(?:evidence|history|suspicion))?\s+of\s+)?(?:non-?\s?(?:compliance|adherence)|poor\s+(?:compliance|adherence))(?:\s*(?:\/|or)\s*non-?\s?(?:compliance|adherence))?\s+(?:to|with)\b/i;

/**
 * "Minimum posterior disc height of 5 mm at the index level", "MRI of the lumbar spine showing a disc bulge", "Modic
 * changes 2-3", "T-score below -2.5 by DEXA": a finding on the study's imaging or a measure of the anatomy, which staff
 * read off the scans; the patient cannot answer it (decision 161). A scan named with what it shows, or a grading or a
 * measure only imaging gives.
 */
const IMAGING =
  /\b(?:mri|mr\s+imaging|magnetic\s+resonance(?:\s+imaging)?|ct|computed\s+tomography|x-?rays?|radiograph\w*|radiolog\w*|imaging|dexa|dxa|densitometry|myelogra\w*|ultrasound\s+images?|echogenicity|scans?)\b/i;
const IMAGING_SHOWS =
  /\b(?:show(?:s|n|ing)?|confirm(?:s|ed|ing)?|demonstrat\w*|reveal\w*|evidence|findings?|determined|defined|documented|visible|seen|according\s+to|signs?|on\s+(?:the\s+)?(?:\w+\s+){0,2}(?:mri|ct|x-?rays?|radiographs?|imaging|scans?)|(?:by|as\s+a\s+result\s+of|based\s+on|on\s+the\s+basis\s+of)\s+(?:the\s+|an?\s+)?(?:\w+\s+){0,2}(?:mri|ct|x-?rays?|radiographs?|imaging|dexa|dxa|densitometry|scans?)|t2|t1|weighted|signal\s+intensity|(?:radiolog\w*|imaging|mri)\s+(?:inclusion|exclusion)\s+criteri\w*)\b/i;
const IMAGING_MEASURE =
  /\b(?:disc\s+fragments?|(?:extruded|sequestered|migrated|calcified)\s+(?:disc|fragment|herniation)s?|(?:extra-?)?foraminal|osseous|vertebral\s+bod(?:y|ies)|transverse\s+process|sacral\s+hiatus|interspinous|spinal\s+canal|pars\s+(?:interarticularis\s+)?defects?|dysplastic\s+vertebra\w*|sacrali[sz]\w*|lumbari[sz]\w*|transitional\s+vertebra\w*|(?:poor|low|reduced|increased|high|abnormal)\s+echogenicity|modic|pfirrmann|t-?\s?score|(?:posterior\s+|anterior\s+)?disc\s+height|interpedicular|endplates?|index\s+(?:level|segment|disc)s?|high[- ]intensity\s+zone|(?:herniation|protrusion|bulg\w*|stenosis)\s+of\s+\d+(?:\.\d+)?\s*mm)\b/i;
/**
 * What the criterion holds besides a finding: a scan to undergo, an operation done before, a willingness or a treatment.
 * A syndrome named by its anatomy ("third lumbar transverse process syndrome", "facet joint syndrome") is a clinical
 * diagnosis, not what a scan shows (decision 180).
 */
const NOT_A_FINDING =
  /\b(?:syndromes?|undergo\w*|underwent|willing\w*|able\s+to|unable|contraindicat\w*|claustrophob\w*|pacemaker|implant(?:s|ed)?\b|allerg\w*|previous(?:ly)?|prior|history|surger(?:y|ies)|operations?|fusion|treated|treatment|injections?|therapy|pain)\b/i;

/** "The level to be treated (with the study's device)", "the areas being treated": where the study's own treatment goes. */
const STUDY_TREATS = /\b(?:to\s+be|being|will\s+be)\s+(?:treated|operated(?:\s+on)?|injected)\b(?:\s+with\s+[^,;.()]*)?/gi;

/**
 * "Positive straight leg raise test", "Lasègue sign", "deficit evident during neurological examination": a sign the
 * screening examination finds, which staff record (decision 161).
 */
const EXAM_FINDING =
  /\b(?:straight[- ]leg[- ]rais\w*|slr\s+test|las[eè]gue|bragard|spurling|babinski|romberg|hoffmann?'?s?\s+sign|centrali[sz]ation\s+phenomenon|(?:tendon\s+)?reflex(?:es)?|dermatom\w*|myotom\w*|(?:during|on|at|by)\s+(?:the\s+)?(?:physical|clinical|neurological|neurologic)\s+exam(?:ination)?)\b/i;
/** What an examination finding's criterion may hold besides the sign: an operation, a history, a willingness. */
const NOT_AN_EXAM_FINDING =
  /\b(?:undergo\w*|underwent|willing\w*|previous(?:ly)?|prior|history|surger(?:y|ies)|operations?|treated|treatment|injections?|therapy)\b/i;

/**
 * "Adverse events from prior anti-cancer therapy that have not resolved to Grade <= 1", "immune-mediated Grade 4 adverse
 * event": a toxicity graded by the clinician (CTCAE), which staff read from the record (decision 161).
 */
const GRADED_TOXICITY =
  /\b(?:(?:unresolved|persistent|ongoing)\s+(?:\w+\s+)?(?:adverse\s+(?:events?|reactions?|effects?)|i?m?aes?|toxicit(?:y|ies)|side[- ]effects?)|(?:adverse\s+(?:events?|reactions?|effects?)|i?m?aes?|toxicit(?:y|ies)|side[- ]effects?)\b[^.;]{0,120}\b(?:not\s+(?:\w+\s+)?(?:resolved|recovered|returned)|unresolved|(?:resolved|recovered|returned)\s+(?:\w+\s+){0,2}(?:to\s+)?(?:grade|baseline|ctcae))|grade\s*(?:[≥>]=?\s*)?[2-5]\s+(?:(?:immune[- ]related|immune[- ]mediated|treatment[- ]related|drug[- ]related)\s+)?(?:adverse\s+(?:events?|reactions?)|i?m?aes?|toxicit(?:y|ies)))\b/i;

/**
 * "Not recovered from the toxicities of prior therapy", "resolution of any effects of previous treatment to grade 1 or
 * baseline", "recovered from the side effects of major surgery": whether a past treatment's harms have settled is graded
 * by the clinician (CTCAE) from the examination and labs, as an unresolved adverse event is (decision 246).
 */
const RECOVERY_FROM_TREATMENT =
  /\b(?:recover(?:ed|y|s)?|resolution|resolved)\b[^.;]{0,50}?\b(?:from|of)\s+(?:[\w/-]+,?\s+){0,5}?(?:toxicit(?:y|ies)|side[- ]effects?|adverse\s+(?:effects?|events?|reactions?)|effects|complications?)\s+(?:[\w/-]+\s+){0,3}?(?:of|from|due\s+to|to|related\s+to|associated\s+with|caused\s+by|as\s+a\s+result\s+of)\s+(?:[\w/-]+\s+){0,4}?(?:therap(?:y|ies)|treatments?|surger(?:y|ies)|chemotherap\w*|radiotherap\w*|radiation|regimens?|modalit(?:y|ies)|agents?|procedures?|interventions?)\b/i;

/**
 * "An HLA-matched sibling donor available", "two cord blood units matched at 4/6 loci", "a CMV-seronegative donor": the
 * transplant team's typing and search, which the person cannot answer (decision 246).
 */
const DONOR =
  /\b(?:(?:hla|human\s+leu[ck]ocyte\s+antigen)\b[^.;]{0,60}\b(?:match\w*|identical|compatible)|(?:match\w*|identical|compatible)\b[^.;]{0,40}\b(?:donors?|cord\s+blood|cb\s+units?|grafts?)|(?:sero-?negative|sero-?positive|hla[- ]matched|haplo-?identical)\s+(?:[\w-]+\s+)?donors?|(?:donors?|cb\s+units?|cord\s+blood\s+units?)\b[^.;]{0,60}\b(?:availab\w*|match\w*|identified|required|seronegative|seropositive|identical))\b/i;

/**
 * "MRI-compatible", "passes the MRI safety screen", "unable to have a PET scan for any reason": what makes a scan safe for
 * a person (implants, claustrophobia, a contrast allergy) staff check, as a contraindication to it (decision 246).
 */
const SCAN_SAFETY =
  /\b(?:(?:mri|mr|magnetic\s+resonance)[- ](?:compatible|conditional|safe|safety\s+screen\w*)|(?:pass\w*|fail\w*|meet\w*)\s+(?:an?\s+|the\s+)?(?:mri|mr)\s+safety|(?:unable|inability)\s+to\s+(?:undergo|tolerate|have|obtain|receive|complete)\s+(?:an?\s+)?(?:mri|magnetic\s+resonance\s+imaging|mr\s+imaging|pet|eeg)\b)/i;

/**
 * "Any of the prohibited medications noted in the protocol", "exclusionary medications", "drugs known to interact with
 * the study drug": a list the protocol holds and staff check the person's medicines against (decision 246).
 */
const PROTOCOL_MEDICINES =
  /\b(?:(?:prohibited|exclusionary|disallowed|forbidden|not\s+permitted)\s+(?:concomitant\s+)?(?:medications?|medicines?|drugs?|therap(?:y|ies)|treatments?)|(?:medications?|medicines?|drugs?|agents?)\s+(?:(?:that|which)\s+(?:are\s+)?)?(?:(?:known|likely)\s+to\s+)?(?:interact|interacting)\s+with|(?:medications?|medicines?|drugs?|agents?)\b[^.;]{0,60}\b(?:primarily\s+|mainly\s+|predominantly\s+)?metaboli[sz]ed\s+(?:by|through|via))\b/i;

/**
 * "Measurable disease per RECIST 1.1", "at least one evaluable lesion": a tumour's measure on imaging, which the site's
 * radiology reads; "archival tumour tissue available": a sample the site holds (decision 161).
 */
const TUMOR_MEASURE = /\b(?:(?:measurable|evaluable)\s+(?:disease|lesions?|tumou?rs?)|recist|irecist|rano|lugano\s+(?:criteria|classification))\b/i;
const TISSUE_AVAILABLE =
  /\b(?:(?:tumou?r|tissue|biopsy|bone\s+marrow|(?:peripheral\s+)?blood)\s+(?:(?:and\/or|or|and)\s+(?:[\w-]+\s+){1,2}?)?(?:aspirate\s+|biopsy\s+|core\s+)?(?:samples?|specimens?|blocks?|tissues?)\b[^.;]{0,60}\bavailab\w*|tumou?r\s+(?:tissue|samples?|specimens?)\s+(?:collected|obtained|submitted)\s+(?:prior\s+to|before)|availab\w*\s+(?:of\s+)?(?:\w+\s+){0,4}(?:tissues?|specimens?|samples?|blocks?)|archival\s+(?:tumou?r\s+)?(?:tissues?|specimens?|samples?|blocks?))\b/i;

/**
 * "Preplanned dialysis during the observation period", "elective surgery scheduled during the study": in an exclusion, a
 * procedure planned inside the study's own time, which the site checks against its schedule (decision 161).
 */
const PLANNED_DURING_STUDY =
  /\b(?:pre-?planned|planned|scheduled|expected|anticipated|elective)\b[^.;]{0,80}\b(?:surger(?:y|ies)|operations?|procedures?|interventions?|treatments?|transplant\w*|dialysis|admissions?|hospitali[sz]ations?)\b[^.;]{0,120}\b(?:during|within|before\s+the\s+end\s+of)\s+(?:the\s+)?(?:individual\s+)?(?:study|trial|observation|follow-?up|treatment|participation)(?:\s+(?:period|phase|duration))?\b/i;

/**
 * "Undergoing anterior cervical disc surgery", "candidates for one-level discectomy", "expected to receive ACDF": in an
 * inclusion, the study's own operation, which the site schedules and checks against its protocol (decision 161). The
 * same of the study's other planned treatment: "scheduled for neoadjuvant chemotherapy", "referred for definitive
 * chemoradiotherapy", "undergoing liver transplantation", "scheduled for a sentinel node biopsy" (decision 246).
 */
const SUBJECT_FIRST = String.raw`^\W*(?:(?:the\s+)?(?:patients?|participants?|subjects?)\s+)?(?:(?:who|that)\s+)?(?:(?:is|are|has|have|must\s+be|should\s+be|will\s+be)\s+)?`;
/** Words of a plan or referral: the study's treatment is coming. */
const PLANNED = String.raw`(?:already\s+)?(?:undergoing|scheduled\s+(?:for|to\s+(?:undergo|receive|have))|planned\s+for|referred\s+for|to\s+be\s+treated\s+with|(?:is|are)\s+to\s+undergo|(?:(?:is|are)\s+)?(?:(?:considered|deemed)\s+)?(?:(?:an?|the)\s+)?(?:(?:suitable|good|appropriate)\s+)?(?:candidates?\s+(?:for|and\s+(?:have\s+)?(?:already\s+)?elected\s+to\s+undergo)|elected\s+to\s+undergo|expected\s+to\s+(?:receive|undergo|have)))`;
/** Words of a need, which a person's illness may say as well: read with an operation only. */
const NEEDED = String.raw`(?:(?:an?\s+)?indication\s+for|indicated\s+for|requir(?:ed|ing|e)|need(?:s|ing)?)`;
const OPERATION = String.raw`(?:surgery|surgical\s+(?:treatment|procedure)|operation|procedure|\w+(?:ectomy|otomy|plasty|desis)|fusion|decompression|acdf|tlif|plif|alif|transplant(?:ation)?|replacement|repair|resection|ablation|cabg)`;
const OTHER_TREATMENT = String.raw`(?:systemic\s+(?:therap(?:y|ies)|treatments?)|photo(?:chemo)?therap(?:y|ies)|(?:neo-?)?adjuvant\s+(?:[\w-]+\s+)?(?:chemo\w*|radio\w*|therapy|treatment)|chemotherapy|radiotherapy|radiation\s+therapy|chemo[-‐]?\s?radi\w*|chemo[-‐]?rt|c?rt|sbrt|sabr|biops(?:y|ies)|catheteri[sz]ation|(?:colono|endo|broncho|arthro|cysto)scopy|ercp|implantation|reconstruction)`;
const STUDY_OPERATION = new RegExp(String.raw`${SUBJECT_FIRST}(?:${PLANNED}|${NEEDED})\s+(?:(?:an?|the)\s+)?(?:[\w/-]+\s+){0,5}?${OPERATION}\b`, 'i');
const STUDY_PLANNED_TREATMENT = new RegExp(String.raw`${SUBJECT_FIRST}${PLANNED}\s+(?:(?:an?|the)\s+)?(?:[\w/-]+\s+){0,5}?${OTHER_TREATMENT}\b`, 'i');

/**
 * "Scheduled for neoadjuvant chemotherapy", "referred for radiation therapy": an inclusion that is the study's planned
 * treatment, said with a word of plan or referral (not "requiring", which a person's illness may say). Not the person's
 * past ("had prior chemotherapy").
 */
export function namesStudysPlannedTreatment(kind: CriterionKind, text: string): boolean {
  if (kind !== 'inclusion') return false;
  const body = text.slice(labelLength(text));
  const found = STUDY_OPERATION.exec(body) ?? STUDY_PLANNED_TREATMENT.exec(body);
  return Boolean(found) && !new RegExp(NEEDED, 'i').test(found![0]) && !/\b(?:history|previous(?:ly)?|prior|underwent|had)\b/i.test(body);
}

/**
 * "Other chronic diseases (stroke, epilepsy, ...) that may interfere with the interpretation of the outcomes", "other known
 * pathologies that might affect muscle morphology": conditions no one named, kept out when they could affect what the
 * study measures; which do is the investigator's call, and the conditions named are examples of it (decision 180).
 */
const AFFECTING_STUDY =
  /^\W*(?:(?:the\s+)?(?:patients?|participants?|subjects?)\s+(?:with|who\s+(?:have|has))\s+)?(?:(?:the\s+)?presence\s+of\s+)?(?:(?:any|other|another|known|chronic|underlying|concomitant|concurrent|coexisting|co-?existing|pre-?existing|medical|systemic|physical|serious|significant|severe|relevant)\s+)*(?:diseases?|conditions?|illness(?:es)?|disorders?|patholog(?:y|ies)|comorbidit(?:y|ies)|co-?morbidit(?:y|ies))\b\s*(?:\([^()]*\)\s*)?,?\s*(?:that|which)\s*,?\s*(?:may|might|could|can|would|are\s+likely\s+to|is\s+likely\s+to)\s+(?:(?:potentially|possibly|significantly|adversely)\s+)?(?:affect|interfere|influence|confound|compromise|bias|impact|alter)\b/i;

/**
 * "Behavioral disorders that would prevent following the protocol", "dental problems that might interfere with wearing
 * the study device", "major medical disease impacting the study": a kind of condition kept out when it stands in the
 * way of the study itself (its protocol, procedures, assessments, device, treatment, consent, participation, follow-up);
 * which do is the investigator's call (decision 246). The object must be the study's, unlike "conditions that may
 * affect bone metabolism", which names a kind a person can read.
 */
const KIND_AFFECTING_STUDY =
  /^\W*(?:(?:the\s+)?(?:patients?|participants?|subjects?)\s+(?:with|who\s+(?:have|has))\s+)?(?:(?:any|other|history\s+of|known)\s+)*(?:[a-z-]+,?\s+){0,4}?(?:diseases?|conditions?|illness(?:es)?|disorders?|patholog(?:y|ies)|comorbidit(?:y|ies)|problems?|wounds?|issues?)\b\s*(?:\([^()]*\)\s*)?,?\s*(?:(?:that|which)\s*,?\s*(?:(?:may|might|could|can|would|will)\s+)?(?:(?:potentially|possibly|significantly|adversely)\s+)?(?:prevents?|precludes?|interferes?|affects?|impacts?|jeopardi[sz]es?|compromises?|hinders?)|(?:preventing|precluding|interfering|affecting|impacting|jeopardi[sz]ing|compromising))\b(?:\s+with)?\s+(?:the\s+|their\s+|his\s+or\s+her\s+|(?:the\s+)?(?:patient|participant|subject)(?:'s)?\s+)?(?:[\w-]+(?:,)?\s+){0,5}?(?:study|studies|protocol|trial|assessments?|participation|complian\w*|follow-?up|procedures?|treatment|device|consent|evaluations?|testing|outcomes?|results)\b/i;

/**
 * "Any medication that could affect the study results", "planned treatment that may interfere with the outcome
 * measures": treatments no one named, kept out when they could affect what the study measures; which do is the
 * investigator's call, as for conditions (decision 215). Only when what they affect is the study's own (its results,
 * outcomes, assessments): "medicines that may affect bone metabolism" name a kind of medicine, which a person reads.
 */
const TREATMENT_AFFECTING_STUDY =
  /^\W*(?:(?:the\s+)?(?:patients?|participants?|subjects?)\s+(?:who\s+(?:are\s+|is\s+)?)?(?:taking|receiving|using|on|(?:have|has)\s+(?:taken|received|used))\s+)?(?:(?:use|intake)\s+of\s+)?(?:(?:any|other|another|planned|expected|anticipated|concomitant|concurrent|current|ongoing|prior|recent|medical|surgical)(?:\s+or\s+[a-z-]+)?\s+)*(?:medications?|medicines?|drugs?|treatments?|therap(?:y|ies)|procedures?|interventions?)\b\s*(?:\([^()]*\)\s*)?(?:,?\s*(?:or|and\/or)\s+(?:an?\s+|any\s+)?changes?\s+(?:in|of|to)\s+(?:the\s+|their\s+)?(?:medications?|medicines?|drugs?|treatments?|therap(?:y|ies))\s*(?:\([^()]*\)\s*)?)?,?\s*(?:that|which)\s*,?\s*(?:may|might|could|can|would|(?:is|are)\s+likely\s+to)\s+(?:(?:potentially|possibly|significantly|adversely)\s+)?(?:affect|interfere\s+with|influence|confound|compromise|bias|impact|alter)\s+(?:the\s+|any\s+)?(?:[\w-]+\s+){0,2}?(?:study|trial|results?|outcomes?|parameters?|assessments?|measures?|measurements?|evaluations?|endpoints?|data|efficacy|interpretation|testing|tests?)\b/i;

/** Where the examples of such conditions start: a parenthesis, "including", "such as", "e.g.", "i.e.". */
const EXAMPLES_START = /\(|\b(?:including|such\s+as|e\.\s?g|i\.\s?e|ie|for\s+example|for\s+instance|like)\b/i;

/**
 * The span of an unnamed condition that may affect the study, when every concept the criterion names after it is one of
 * its examples (`conceptStarts`); null when a concept stands on its own ("diabetes, or other diseases that may ...").
 */
export function conditionAffectingStudy(text: string, conceptStarts: readonly number[] = []): [number, number] | null {
  const label = labelLength(text);
  const body = text.slice(label);
  if (!/\b(?:affect|interfer|influence|confound|compromis|bias|impact|alter|prevent|preclud|jeopardi|hinder)/i.test(body)) return null;
  const head =
    /^\W*(?:(?:the\s+)?(?:patients?|participants?|subjects?)\s+(?:with|who\s+(?:have|has))\s+)?(?:(?:the\s+)?presence\s+of\s+)?[^(]*?(?=\(|,?\s*(?:that|which)\b|\s+(?:preventing|precluding|interfering|affecting|impacting|jeopardi[sz]ing|compromising)\b)/i.exec(
      body,
    );
  const found = AFFECTING_STUDY.exec(body) ?? TREATMENT_AFFECTING_STUDY.exec(body) ?? KIND_AFFECTING_STUDY.exec(body);
  // One sentence only: a later sentence or a list line is another requirement.
  if (!found || !head || /[;\n]|\.\s+\w/.test(body.replace(/\b(?:e\.\s?g|i\.\s?e|ie|etc|vs)\./gi, ''))) return null;
  const headEnd = label + head[0].length;
  const examples = EXAMPLES_START.exec(text.slice(headEnd));
  const examplesAt = examples ? headEnd + examples.index : text.length;
  if (conceptStarts.some((start) => start >= headEnd && start < examplesAt)) return null;
  return [label + body.search(/\w/), text.search(/\w\W*$/) + 1];
}

/**
 * "Progressive neurological deficit", "severe motor or sensory deficits", "muscle wasting": a sign the neurological
 * examination finds, which staff record (decision 180). Only when the criterion names nothing else.
 */
const NEUROLOGICAL_FINDING =
  /\b(?:(?:neurolog(?:ic|ical)|motor|sensory|sensori-?motor)\s+(?:deficits?|signs?|abnormalit(?:y|ies)|impairments?|weakness|loss|dysfunction)|(?:muscle|muscular)[- ](?:wasting|atrophy))\b/gi;
const NEUROLOGICAL_FINDING_WORDS =
  /^(?:progressive|progressing|rapidly|severe|significant|major|new|objective|focal|worsening|acute|any|known|current|presence|evidence|of|or|and|and\/or|a|an|the|patients?|participants?|subjects?|with|who|has|have|in|lower|upper|limbs?|extremit(?:y|ies)|legs?|arms?)$/i;

/** Whether the criterion is a neurological examination finding and nothing else. */
export function neurologicalFindingOnly(text: string): boolean {
  const body = text.slice(labelLength(text));
  const rest = body.replace(NEUROLOGICAL_FINDING, ' ');
  if (rest === body) return false;
  return (rest.match(/[a-z][a-z/-]*/gi) ?? []).every((word) => NEUROLOGICAL_FINDING_WORDS.test(word));
}

/**
 * "Known sensitivity to the device materials", "allergy to any component of the implant": what the study's device is made
 * of staff know and the person does not; staff check the person's allergies against it (decision 180). Not an allergen
 * named ("allergy to titanium"), which the person can answer.
 */
const DEVICE_ALLERGY =
  /^\W*(?:(?:suspected|known|documented|history\s+of)\s+(?:(?:or|and\/or)\s+(?:suspected|known|documented)\s+)?)*(?:an?\s+)?(?:allerg(?:y|ies|ic)|hypersensitivit(?:y|ies)|sensitivit(?:y|ies))(?:\s+(?:or|and\/or)\s+(?:intoleran(?:ce|t)|allerg(?:y|ies)|hypersensitivit(?:y|ies)|sensitivit(?:y|ies)))?\s+(?:to|against)\s+(?:any\s+(?:of\s+)?)?(?:the\s+)?(?:(?:components?|materials?)\s+of\s+(?:the\s+)?)?(?:(?:study|investigational|trial)\s+)?(?:device|implants?|prosthes[ie]s)(?:'s)?(?:\s+(?:materials?|components?))?\W*$|^\W*(?:(?:suspected|known|documented)\s+(?:(?:or|and\/or)\s+(?:suspected|known|documented)\s+)?)*(?:an?\s+)?(?:allerg(?:y|ies|ic)|hypersensitivit(?:y|ies)|sensitivit(?:y|ies))(?:\s+(?:or|and\/or)\s+intoleran(?:ce|t))?\s+(?:to|against)\s+(?:any\s+(?:of\s+)?)?(?:the\s+)?(?:(?:study|investigational|trial)\s+)?(?:device|implant)\s+materials?\W*$/i;

/** Whether the criterion is an allergy to what the study's device is made of, and nothing else. */
export function deviceMaterialAllergy(text: string): boolean {
  return DEVICE_ALLERGY.test(text.slice(labelLength(text)));
}

export function readJudgementRule(text: string, judgementOnly: boolean, kind?: CriterionKind): TextRule | null {
  if (!judgementOnly && kind === 'exclusion' && NON_ADHERENCE.test(text.slice(labelLength(text)))) {
    const start = text.search(/\w/);
    const end = text.search(/\w\W*$/) + 1;
    return { rule: { type: 'site_judgement', reason: 'investigator_judgement', span: spanOf([start, end]) }, needsReview: false };
  }
  if (
    !judgementOnly &&
    kind === 'exclusion' &&
    INTRAOPERATIVE.test(text) &&
    !/\b(?:history|previous(?:ly)?|prior|past|earlier|former)\b/i.test(text.replace(/\bprior\s+to\b/gi, ''))
  ) {
    const start = text.search(/\w/);
    const end = text.search(/\w\W*$/) + 1;
    return { rule: { type: 'site_judgement', reason: 'investigator_judgement', span: spanOf([start, end]) }, needsReview: false };
  }
  if (!judgementOnly && (deviceMaterialAllergy(text) || neurologicalFindingOnly(text) || conditionAffectingStudy(text))) {
    const start = text.search(/\w/);
    const end = text.search(/\w\W*$/) + 1;
    return { rule: { type: 'site_judgement', reason: 'investigator_judgement', span: spanOf([start, end]) }, needsReview: false };
  }
  // "Medical conditions: Significant underlying illness ...": a section label is not part of what is judged.
  const label = labelLength(text);
  const body = ' '.repeat(label) + text.slice(label);
  const unnamed = judgementOnly ? null : UNNAMED_ILLNESS.exec(body.slice(label));
  if (unnamed && /\b(?:serious|significant|unstable|uncontrolled|poorly|severe|clinically|medically|major|important|relevant)\b/i.test(unnamed[0])) {
    const start = body.search(/\w/);
    return {
      rule: { type: 'site_judgement', reason: 'investigator_judgement', span: spanOf([start, label + unnamed.index + unnamed[0].length]) },
      needsReview: false,
    };
  }
  if (!judgementOnly && (SIGNIFICANT_FINDING.test(body.slice(label)) || SIGNIFICANT_ABNORMAL_TEST.test(body.slice(label)))) {
    const start = body.search(/\w/);
    const end = text.search(/\w\W*$/) + 1;
    return { rule: { type: 'site_judgement', reason: 'investigator_judgement', span: spanOf([start, end]) }, needsReview: false };
  }
  if (!judgementOnly && SCAN_UNABLE.test(text)) {
    const start = text.search(/\w/);
    const end = text.search(/\w\W*$/) + 1;
    return { rule: { type: 'site_judgement', reason: 'investigator_judgement', span: spanOf([start, end]) }, needsReview: false };
  }
  let consent = CONSENT.exec(text) ?? LANGUAGE.exec(text);
  // "Diagnosed before obtaining informed consent": the consent is a point in time, not what is asked.
  if (
    consent &&
    /\b(?:prior to|before|after|at|since|until|(?:time|date|day|days|weeks?|months?) of)\s+(?:the\s+)?(?:obtain\w*|signing|sign\w*|giving|provision)?\s*(?:of\s+)?(?:the\s+)?(?:written\s+)?$/i.test(
      text.slice(Math.max(0, consent.index - 40), consent.index),
    )
  )
    consent = null;
  // "A legal guardian must be available to ... accompany the participant to the study site": the help with visits is the
  // criterion, not consent.
  if (consent && /legal guardian/i.test(consent[0]) && /\b(?:available|accompany|help|assist|follow[- ]up|visits?)\b/i.test(text) && !/\bconsent/i.test(text))
    consent = null;
  // A clinician's determination counts as the investigator's only here, once no concept was read: beside a named
  // condition it may say only who diagnosed it (decision 246).
  const judgement = JUDGEMENT.exec(text) ?? (judgementOnly ? null : CLINICIAN_DETERMINES.exec(text));
  const compliance = COMPLIANCE.exec(text);
  const found = judgement ?? consent ?? compliance;
  if (!found) return judgementOnly ? null : studySiteCheck(text, kind);
  // "...; Note: ... at the discretion of the Investigator": a note on the criterion is not its subject.
  const note = /\bnotes?\s*:/i.exec(text);
  if (note && /\w/.test(text.slice(0, note.index)) && found.index > note.index) return null;
  if (judgementOnly && !judgement) return null;
  // "Agree to sign the consent form, and able to participate for the entire period of the study": consent and staying in
  // the study are two site checks, and a rule holds one reason; a person reads it (hand-check seed 30150, #39).
  if (!judgement && consent && compliance && !/\bconsent|\bagree|\bwilling/i.test(compliance[0]) && compliance.index > consent.index + consent[0].length)
    return {
      rule: { type: 'site_judgement', reason: 'consent_capacity', span: spanOf([consent.index, consent.index + consent[0].length]) },
      needsReview: true,
    };
  const reason = judgement
    ? 'investigator_judgement'
    : consent
      ? 'consent_capacity'
      : /protocol[- ]defined|criteria (?:may )?(?:could )?apply|defined (?:by|in) the protocol|per protocol|prisoner|incarcerated|imprisoned|custody|adequate|data|records?|personnel|staff|litigation|comp(?:ensation)?\b|disability/i.test(
            found[0],
          )
        ? 'protocol'
        : 'protocol_compliance';
  return { rule: { type: 'site_judgement', reason, span: spanOf([found.index, found.index + found[0].length]) }, needsReview: false };
}

/** A finding on the study's imaging or, in an inclusion, the study's own operation: a site check (decision 161). */
function studySiteCheck(text: string, kind: CriterionKind | undefined): TextRule | null {
  const label = labelLength(text);
  const body = text.slice(label);
  // "MRI-confirmed disc bulge - preferred": what is preferred is not required.
  if (/\b(?:preferred|preferably|optional|if\s+available|where\s+available)\b/i.test(body)) return null;
  // "Radiological inclusion criteria: patients must meet all of the following": a list's lead-in, not a criterion.
  if (/\b(?:meet|fulfil\w*|satisfy)\s+all\s+(?:of\s+)?the\s+following\b/i.test(body)) return null;
  const start = label + body.search(/\w/);
  const end = text.search(/\w\W*$/) + 1;
  if (kind === 'exclusion' && PLANNED_DURING_STUDY.test(body))
    return { rule: { type: 'site_judgement', reason: 'protocol', span: spanOf([start, end]) }, needsReview: false };
  if (
    kind === 'inclusion' &&
    (STUDY_OPERATION.test(body) || STUDY_PLANNED_TREATMENT.test(body)) &&
    !/\b(?:history|previous(?:ly)?|prior|underwent|had)\b/i.test(body)
  )
    // "For the first time", "a revision": the operation's history is a second requirement a person reads.
    return {
      rule: { type: 'site_judgement', reason: 'protocol', span: spanOf([start, end]) },
      needsReview: /\b(?:first\s+time|revision|repeat(?:ed)?|again|redo)\b/i.test(body),
    };
  if (DONOR.test(body) || PROTOCOL_MEDICINES.test(body))
    return { rule: { type: 'site_judgement', reason: 'protocol', span: spanOf([start, end]) }, needsReview: false };
  if (
    GRADED_TOXICITY.test(body) ||
    RECOVERY_FROM_TREATMENT.test(body) ||
    SCAN_SAFETY.test(body) ||
    TUMOR_MEASURE.test(body) ||
    TISSUE_AVAILABLE.test(body) ||
    (EXAM_FINDING.test(body) && !NOT_AN_EXAM_FINDING.test(body))
  )
    return { rule: { type: 'site_judgement', reason: 'investigator_judgement', span: spanOf([start, end]) }, needsReview: false };
  const imaging = IMAGING.test(body) && IMAGING_SHOWS.test(body);
  // "At the level to be treated", "the areas being treated": the study's own treatment places the finding; it is not a
  // treatment the person had (decision 226).
  if ((imaging || IMAGING_MEASURE.test(body)) && !NOT_A_FINDING.test(body.replace(STUDY_TREATS, ' ')))
    return { rule: { type: 'site_judgement', reason: 'investigator_judgement', span: spanOf([start, end]) }, needsReview: false };
  return null;
}
