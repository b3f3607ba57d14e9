import { HAD_AFTER } from './note-details';

/**
 * The note reader's cue words, in the tradition of NegEx and ConText: what denies, dates, hedges or gives to someone else
 * the concepts near them, and the words where a cue's reach ends. Read by `readCues` in note-extractor.ts.
 */

export type CueType = 'neg' | 'hist' | 'pmh' | 'sp' | 'medHist' | 'hypo' | 'plan' | 'fam' | 'allergy' | 'pseudo';
export interface Cue {
  type: CueType;
  before: boolean;
  start: number;
  end: number;
}

const RELATIVE = String.raw`(?:(?:his|her|their|the patient's|pt's|maternal|paternal|older|younger|twin)\s+)*(?:mother|father|mom|dad|sisters?|brothers?|siblings?|aunts?|uncles?|grand(?:mother|father|parent)s?|cousins?|sons?|daughters?|parents?|children|wife|husband|partner|family members?|relatives?)`;

/** Cues, each a regular expression (case-insensitive) with its type and side. Longer cues win where they overlap. */
export const CUES: Array<{ type: CueType; before: boolean; pattern: RegExp }> = [
  // Not negations, though they contain a negation word.
  // "A 10-year history of diabetes", "long-standing history of hypertension", "known history of": how long the
  // patient has had it, not something past; read as present (this cue is the nearest before the mention).
  // "A 2-week history of cough", "a history of 3 days of fever", "a recent history of": how long it has gone on.
  {
    type: 'pseudo',
    before: true,
    pattern:
      /\b(?:(?:an? )?(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|several|many|few)[- ]?(?:years?|yrs?|months?|weeks?|wks?|days?|hours?)[- ](?:long )?(?:medical )?(?:history|hx) of|(?:history|hx) of (?:the )?(?:(?:past|last) )?(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|several|a few) (?:days?|weeks?|months?|hours?) of|(?:long-?standing|longstanding|long|lifelong|known|documented|established|recent) (?:medical )?(?:history|hx) of|known case of)\b/gi,
  },
  {
    type: 'pseudo',
    before: true,
    pattern:
      /\b(?:no (?:increase|change|significant change|interval change|suspicious change|response|improvement|relief)|not (?:only|necessarily|extend|cause|drain|certain (?:if|whether)|increased|improved|relieved)|without (?:any )?(?:difficulty|incident|complications?|treatment|therapy)|gram[- ]negative|(?:is |was |been )?not (?:been )?(?:compliant|adherent)|non-?complian(?:t|ce)|non-?adheren(?:t|ce)|did not (?:respond|improve)|no longer)\b/gi,
  },
  // Negation; the words after the trigger ("no prior history of", "denies any") are one cue with it.
  {
    type: 'neg',
    before: true,
    pattern:
      /\b(?:not consistent with|inconsistent with|not suggestive of|not compatible with|not (?:due to|caused by|secondary to|related to|from)|no|not|denies|denied|denying|deny|without|w\/o|negative for|free of|absence of|absent|never|nor|neither|negative (?:history|hx)(?: of| for)?|rules out|ruled out for|fails? to (?:reveal|show)|(?:did|does|do)(?: not|n't) (?:have|show|reveal|demonstrate|use|take|receive)|(?:has|have)(?: not|n't) had|(?:has|have)(?: not|n't) been diagnosed with)\b(?:\s+(?:any|prior|previous|past|known|recent|significant|further|new|other(?!\s+than)|current|currently|presently|now|active|personal|evidence|signs?|symptoms?|history|hx|h\/o|of|for|a|an|had|been|diagnosed|with|complaints?|findings?|episodes?|suggestion|indication)\b)*/gi,
  },
  {
    type: 'neg',
    before: false,
    pattern:
      /\b(?:(?:was|were|is|are|has been|have been|been|now)\s+)*(?:ruled out|excluded|unlikely|negative(?!\s+for\b)|not (?:seen|present|found|detected|identified|demonstrated|suspected)|absent|denied)\b/gi,
  },
  // "Allergies: none", "Drug allergies: NKDA": a heading answered with nothing.
  { type: 'neg', before: false, pattern: /(?<=:\s*)(?:none(?: known)?|nil|nkda|nka)\b/gi },
  // Someone else's: a family history, a relative who had it.
  {
    type: 'fam',
    before: true,
    pattern: new RegExp(
      String.raw`\b(?:family (?:medical )?(?:history|hx)(?: (?:of|significant for|notable for|includes?|positive for|is positive for))?|fhx?\b(?: of)?|fh:|(?<!\b(?:by|with|to|from|of|and)\s+(?:(?:his|her|their)\s+)?)${RELATIVE}(?:'s)?\s+(?:also\s+|who\s+)?(?:had|has|have|are|were|with|is|was|died (?:of|from)|passed away (?:from|of)|(?:was )?diagnosed with|suffer(?:s|ed)? from|history of))`,
      'gi',
    ),
  },
  // "Father: MI at 55", "Mother - breast cancer": a relative as a list item's label.
  { type: 'fam', before: true, pattern: new RegExp(String.raw`(?<=^|\n|[.;]\s)[ \t]*(?:[-*•]\s*)?${RELATIVE}(?:'s)?[ \t]*(?::|[-–—](?=\s))`, 'gi') },
  {
    type: 'fam',
    before: false,
    pattern:
      /\b(?:in (?:a |the |his |her |their )?(?:(?:older|younger|first[- ]degree|maternal|paternal)\s+)*(?:mother|father|mom|dad|sisters?|brothers?|siblings?|aunts?|uncles?|grand(?:mother|father|parent)s?|cousins?|sons?|daughters?|parents?|children|relatives?|family(?: members?)?)|runs in (?:the|his|her|their) family)\b/gi,
  },
  // Not asserted: to rule out, a worry, a differential, a risk.
  {
    type: 'hypo',
    before: true,
    pattern:
      /\b(?:rule[- ]?out|r\/o|concern(?:ing)? for|concerns? (?:about|of)|possible|possibly|suspect(?:ed)?|suspicion (?:of|for)|suspicious (?:of|for)|question(?:able)?(?: of)?|evaluat(?:e|ion) for|work[- ]?up for|screen(?:ing|ed)? for|differential(?: diagnos[ie]s)?(?: (?:includes?|of|was|is|included))?|ddx|d\/dx|if|in case of|(?:at )?(?:high |increased )?risk (?:for|of)|prevent(?:ion of|ing)?|prophylaxis (?:for|of|against)|(?:may|might|could) (?:have(?: had)?|be|develop)|consider(?:ing|ed)?|(?:a )?candidate for|plan(?:s|ned|ning)? (?:to|for)|plan:|scheduled for|will (?:be|have|undergo|start|begin|receive|need)|to (?:start|begin|receive|undergo)|prior to|awaiting|referred for|recommend(?:s|ed)?|offered|can ?not (?:be )?(?:ruled out|excluded)|can ?not rule out|not (?:be )?ruled out|whether|unclear if|versus|vs\.?)(?=\W|$)/gi,
  },
  { type: 'hypo', before: true, pattern: /(?<=^|[\s(,;])\?(?=\s*\w)/g },
  {
    type: 'hypo',
    before: false,
    pattern:
      /\b(?:(?:was|is|are|were|being|also)\s+)*(?:suspected|considered|questioned|possible|a concern|in question|on the differential|not excluded|not (?:yet )?confirmed|(?:can|could) ?not be (?:ruled out|excluded)|not ruled out|will be considered|(?:is |are |was |were )?(?:planned|scheduled))\b|\bvs\b\.?|\bversus\b/gi,
  },
  // A treatment about to start: it speaks for the treatment named just before it, never past another concept
  // ("diabetes was confirmed and insulin will be started": the insulin is planned, the diabetes is had).
  { type: 'plan', before: false, pattern: /\b(?:will be (?:started|given|initiated|begun)|to (?:start|begin|be started))\b/gi },
  // A history in the record's words ("history of", "PMH", "h/o"): had it, and for a lifelong diagnosis still has it
  // (lifelong-conditions.ts; decision 164).
  {
    type: 'pmh',
    before: true,
    pattern:
      /\b(?:(?:past |prior |remote |previous |significant |known |a |\d+[- ]?(?:year|yr)s?[- ]?)?(?:medical |surgical )?(?:history|hx)(?: is)? (?:of|significant for|notable for|remarkable for|positive for|includes?)|h\/o|hx|pmh(?: of| significant for| notable for)?)\b/gi,
  },
  // "A stroke in 2015", "appendectomy in March 2009": an event dated to a past year was had (a lifelong diagnosis is
  // still had, as with "history of"); "diagnosed with COPD in 2015" dates an onset instead (readStatus), and "since
  // 2015" is not a cue at all.
  {
    type: 'pmh',
    before: false,
    pattern: /\b(?:in|during)\s+(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+)?(?:19|20)\d\d\b/gi,
  },
  // "S/p CABG in 2019, HTN and DM2": after (a procedure), up to the list's next comma only.
  { type: 'sp', before: true, pattern: /\b(?:s\/p|status post)\b/gi },
  // History: had it, not now (or not said to be now).
  {
    // "Progressed after first-line platinum", "after second-line docetaxel": a treatment given before (decision 298).
    type: 'hist',
    before: true,
    pattern:
      /\b(?:previous(?:ly)?|prior(?! to)|former(?:ly)?|remote|recovered from|resolution of|in remission from|survivor of|(?:disease|cancer|tumou?r|recurrence|relapse)[- ]free(?: since (?:19|20)\d\d)? (?:after|following)|(?<!\b(?:being|is|are|currently|now|still)\s)treated for|(?:progress(?:ed|ing|ion)|relapsed|recurred|refractory) (?:after|following)|after (?:first|second|third|1st|2nd|3rd)[- ]line)\b/gi,
  },
  // "No recurrence of her breast cancer", "without evidence of residual lymphoma": had it, not now (not "never had").
  {
    type: 'hist',
    before: true,
    pattern:
      /\b(?:no|without|negative for)(?: (?:evidence|signs?) of)?(?: (?:a|any))? (?:recurren(?:ce|t)|relapse|residual|recurring)(?: (?:disease|tumou?r))?(?: of)?(?=\W)(?!\s*(?:[,;.)]|and\b|$))/gi,
  },
  // "Breast cancer treated 10 years ago without recurrence, osteoporosis on alendronate": the recurrence speaks for
  // what came before it, never for the list's next items.
  {
    type: 'hist',
    before: false,
    pattern:
      /\b(?:with no|no|without)(?: (?:evidence|signs?) of)?(?: (?:a|any))? (?:recurrence|relapse)(?=\s*(?:[,;.)]|and\b|$))|\b(?:with no|no|without) evidence of (?:residual )?disease(?: since)?(?=\s*(?:[,;.)]|$))|\bNED\b/gi,
  },
  // "Cancer-free since 2015", "disease-free", taken out ("polyp resected 2021"): was had (`HAD_AFTER`).
  { type: 'hist', before: false, pattern: HAD_AFTER },
  // "A stroke 10 years ago", "an infarction 2 years earlier" are history; "COPD since 2 years ago", "pain that started 6 months ago" are not.
  {
    type: 'hist',
    before: false,
    pattern:
      /\b(?:(?:now|has|have|had|was|were|is|are|been|completely)\s+)*(?:resolved|in remission|(?<!\b(?:since|for|from|started|began|starting|beginning)\s)(?:\d+|several|many|a few|two|three|four|five|six|ten)(?:\s*-\s*\d+)?\s+(?:years?|months?)\s+(?:ago|earlier|before))\b/gi,
  },
  // A medicine (or smoking) stopped.
  {
    type: 'medHist',
    before: true,
    pattern:
      /\b(?:stopped|discontinued|quit|tapered off|taken off|weaned off|off(?: of)?|was on|were on|had been on|used to (?:take|be on|be (?:treated|managed) with)|(?:was|were|had been) (?:initially |previously |first |originally )?(?:treated|managed) with|initially (?:treated with|given|on)|took|completed|failed|(?:(?:a|an)\s+|(?<!\bthe\s))(?:short |brief |\d+[- ](?:days?|weeks?|months?)[- ])?courses? of)\b/gi,
  },
  {
    type: 'medHist',
    before: false,
    pattern: /\b(?:(?:was|were|has been|have been|had been|is|now)\s+)*(?:stopped|discontinued|held|tapered(?: off)?|withdrawn)\b/gi,
  },
  // "Tried propranolol and topiramate previously, stopped for side effects": "previously" closing the medicines' clause
  // (never "metformin, previously on glipizide": there it opens the next one).
  { type: 'medHist', before: false, pattern: /(?<![,;]\s*)\b(?:previously|in the past)(?=\s*(?:[,.;)]|$|and\b|stopped|discontinued))/gi },
  {
    type: 'allergy',
    before: true,
    pattern:
      /\b(?:allerg(?:y|ies|ic) to|(?:drug |medication )?allerg(?:y|ies)\s*:|intoleran(?:t|ce) (?:of|to)|adverse (?:drug )?reaction to|did not tolerate|could not tolerate|unable to tolerate)(?=\W|$)/gi,
  },
  // "Penicillin allergy", "NSAID hypersensitivity", "penicillin-allergic": the allergy named right after the medicine it
  // is to; "metformin intolerance" is a medicine not taken (decision 368).
  { type: 'allergy', before: false, pattern: /(?<=[\w)][\s-]?)(?:drug\s+)?(?:allerg(?:y|ies)|hypersensitivit(?:y|ies)|intolerance)\b|(?<=\w-)allergic\b/gi },
];

/** Words where a cue's reach ends: a new clause or a turn ("but", "which", "presents", ";"). */
export const TERMINATOR =
  /\b(?:but|however|although|though|except|apart from|aside from|besides|other than|yet|still|which|who|whose|whom|because|as well as|secondary to|due to|caused by|as (?:the )?(?:cause|etiology|source|reason) (?:of|for)|presents?|presented|presenting|presentation|complain(?:s|ed|ing)?|reports?|reported|states?|stated|admitted|found|shows?|showed|reveal(?:s|ed)?|developed|remains|while|(?<=\b(?:was|were|is|are|been)\s)confirmed|()(?:now|currently|presently|at present)|positive for|consistent with|compatible with|suggestive of|significant for|notable for|remarkable for|(and) (?:he|she|they|the patient|pt|patient|is|was|has|had|does|did|takes|took|reports|states|sleeps)|(?<=^|[,:]\s*)((?:he|she|they|the patient|pt|patient) (?:is|was|has|had|does|did|takes|took|reports|states|also|uses|drinks|smokes|lives|works|underwent|received|started|presents|presented))|(?<=,\s*)(?:on|taking|takes|maintained on|started on)(?=\s))\b|[;()[\]]|\s[-–—]\s/gi;
