/**
 * The table of lab measures and vitals (name patterns, canonical units, conversions): data the lab reader, the note
 * reader, FHIR and the import's lab columns share.
 */

export interface Measure {
  pattern: RegExp;
  name: string;
  unit?: string;
  /** Unit conversions into the canonical unit (value * factor, or a function). */
  convert?: Record<string, number | ((value: number) => number)>;
  /** A ratio without a unit (INR): a value written without one is exact. */
  unitless?: boolean;
  /** A value written without a unit, read on the measure's own scale (a pain score above 10 is on the 0-100 scale). */
  bare?: (value: number) => { value: number; unit: string };
  /**
   * The highest value the measure takes in its own unit: a bound above it ("ANC ≥ 500" read as 500 x 10^9/L) was
   * written in a unit the reader did not take, and goes to a person (decision 315).
   */
  plausibleMax?: number;
  /**
   * A value under the normal range is no reason to refuse anyone (liver enzymes, bilirubin, creatinine): "within normal
   * limits" asks only that it not exceed the upper limit (decision 321).
   */
  highSideOnly?: boolean;
  /** Laboratories report it in units a factor apart (UACR in mg/g or mg/mmol): a value without its unit is left unread (decision 323). */
  unitRequired?: boolean;
}

/** Words before a glucose that make it another measure than a blood glucose at any time (decision 367). */
const NOT_ANY_TIME = String.raw`\b(?:fasting|urine|urinary|csf|cerebrospinal|fluid|pleural|ascitic|post-?prandial|post-?load|ogtt|(?:\d+(?:\.\d+)?|one|two|three)[-\s]?(?:h|hrs?|hours?|min|minutes?))`;
const GLUCOSE_AT_ANY_TIME = new RegExp(
  String.raw`(?<!${NOT_ANY_TIME}[\s-]+(?:(?:venous|capillary|plasma|serum|blood)\s+)*)` +
    String.raw`\b(?:(?:random|casual|non-?fasting)\s+)?(?:(?:venous|capillary)\s+)?(?:(?:(?:plasma|serum|blood)\s+)?glucose|blood\s+sugar)\b` +
    String.raw`(?!-\d|[\s-]+(?:tolerance|intolerance|challenge|load|clamp|infusion|lowering|control|monitor\w*|meters?|strips?|tablets?|gel|drinks?|solution|transporter|metabolism|6-phosphate))`,
  'i',
);

/** Lab measures and vitals, by how criteria name them, to the name kept in the rule, with its canonical unit. */
export const MEASURES: Measure[] = [
  { pattern: /\b(?:body mass index|bmi)\b/i, name: 'BMI', unit: 'kg/m2' },
  {
    pattern: /\begfr\b|\bestimated glomerular filtration rate\b|\bglomerular filtration rate\b|\bgfr\b/i,
    name: 'eGFR',
    unit: 'mL/min/1.73m2',
    convert: { 'mL/min': 1 },
  },
  // Kidney damage as laboratories report it (decision 323): albumin or protein over creatinine in a spot urine, protein
  // in a day's urine. Before albumin and creatinine, whose names these hold.
  {
    pattern: /\buacr\b|\b(?:urine\s+|urinary\s+)?(?:micro)?albumin[\s-]*(?:to[\s-]*|\/\s*)?creatinine\s+ratio\b/i,
    name: 'UACR',
    unit: 'mg/g',
    convert: { 'mg/mmol': 8.84, 'g/g': 1000 },
    unitRequired: true,
    plausibleMax: 30000,
  },
  {
    pattern: /\bupcr\b|\bupc\s+ratio\b|\b(?:urine\s+|urinary\s+)?protein[\s-]*(?:to[\s-]*|\/\s*)?creatinine\s+ratio\b/i,
    name: 'UPCR',
    unit: 'g/g',
    convert: { 'mg/g': 0.001, 'mg/mg': 1, 'mg/mmol': 1 / 113.12 },
    unitRequired: true,
    plausibleMax: 40,
  },
  {
    pattern: /\b24[\s-]*(?:hours?|hrs?|h)\s+(?:urine|urinary)\s+protein(?:\s+excretion)?\b|\b(?:urine|urinary)\s+protein\s+excretion\b|\bproteinuria\b/i,
    name: 'urine protein',
    unit: 'g/day',
    // A mass alone is a day's collection: "24-hour urine protein 6.8 g".
    convert: { 'mg/day': 0.001, g: 1, mg: 0.001 },
    unitRequired: true,
    plausibleMax: 40,
  },
  { pattern: /\bcreatinine clearance\b|\bcrcl\b|\bcrea?tinine cl\b/i, name: 'creatinine clearance', unit: 'mL/min' },
  {
    pattern: /\b(?:hba1c|a1c|hemoglobin a1c|haemoglobin a1c|glycated ha?emoglobin|glycosylated ha?emoglobin)\b/i,
    name: 'HbA1c',
    unit: '%',
    // "HbA1c ≤ 64" is mmol/mol; no one has an HbA1c of 64%.
    plausibleMax: 20,
    convert: { 'mmol/mol': (value) => Math.round((value / 10.929 + 2.15) * 10) / 10 },
  },
  { pattern: /\b(?:ldl-c|ldl cholesterol|low-density lipoprotein cholesterol|ldl)\b/i, name: 'LDL-C', unit: 'mg/dL', convert: { 'mmol/L': 38.67 } },
  { pattern: /\btriglycerides?\b|\btg\b/i, name: 'triglycerides', unit: 'mg/dL', convert: { 'mmol/L': 88.57 } },
  {
    pattern:
      /\b(?:alt|sgpt|alanine (?:amino)?transaminase|alanine aminotransferase)\b(?:\s*\((?:alt|sgpt)\))?\s*(?:and\/or|or|and|\/)\s*(?:ast|sgot|aspartate (?:amino)?transaminase|aspartate aminotransferase)\b(?:\s*\((?:ast|sgot)\))?|\b(?:ast|sgot|aspartate (?:amino)?transaminase|aspartate aminotransferase)\b(?:\s*\((?:ast|sgot)\))?\s*(?:and\/or|or|and|\/)\s*(?:alt|sgpt|alanine (?:amino)?transaminase|alanine aminotransferase)\b(?:\s*\((?:alt|sgpt)\))?|\b(?:(?:serum|liver|hepatic)\s+)?(?:(?:amino)?transaminases|aminotransferases)\b/i,
    // "Transaminases > 3 x ULN", "serum aminotransferases": the plural names both, as "ALT or AST" does (decision 278).
    // "Alanine aminotransferase (ALT) and aspartate aminotransferase (AST)": both, by their names and short forms.
    name: 'ALT/AST',
    unit: 'U/L',
    highSideOnly: true,
  },
  { pattern: /\b(?:alt|sgpt|alanine (?:amino)?transaminase|alanine aminotransferase)\b/i, name: 'ALT', unit: 'U/L', highSideOnly: true },
  { pattern: /\b(?:ast|sgot|aspartate (?:amino)?transaminase|aspartate aminotransferase)\b/i, name: 'AST', unit: 'U/L', highSideOnly: true },
  {
    pattern: /(?<!\b(?:direct|conjugated|indirect|unconjugated)\s)\b(?:total )?bilirubin\b|\btbili\b|\btbl\b/i,
    name: 'bilirubin',
    unit: 'mg/dL',
    plausibleMax: 30,
    highSideOnly: true,
    convert: { 'µmol/L': 1 / 17.1, 'umol/L': 1 / 17.1 },
  },
  {
    pattern: /\bdirect bilirubin\b|\bconjugated bilirubin\b/i,
    name: 'direct bilirubin',
    unit: 'mg/dL',
    highSideOnly: true,
    convert: { 'µmol/L': 1 / 17.1, 'umol/L': 1 / 17.1 },
  },
  {
    pattern: /\bserum creatinine\b(?!\s*(?:ratio|clearance))|(?<!(?:protein|albumin)[- /]?)\bcreatinine\b(?!\s*(?:ratio|clearance|kinase))|\bscr\b/i,
    name: 'creatinine',
    unit: 'mg/dL',
    // "Creatinine ≤ 150" is µmol/L.
    plausibleMax: 25,
    highSideOnly: true,
    convert: { 'µmol/L': 1 / 88.4, 'umol/L': 1 / 88.4 },
  },
  {
    pattern: /\b(?:absolute neutrophil count|anc|neutrophils?(?: count)?)\b/i,
    name: 'ANC',
    unit: '10^9/L',
    plausibleMax: 100,
    convert: { '/mm3': 1 / 1000, '/µL': 1 / 1000, '/uL': 1 / 1000, 'cells/mm3': 1 / 1000, 'cells/µL': 1 / 1000, '10^3/µL': 1 },
  },
  {
    pattern: /\bplatelets?(?: count)?\b|\bplt\b/i,
    name: 'platelets',
    unit: '10^9/L',
    convert: { '/mm3': 1 / 1000, '/µL': 1 / 1000, '/uL': 1 / 1000, 'cells/mm3': 1 / 1000, '10^3/µL': 1 },
  },
  { pattern: /\b(?:ha?emoglobin|hgb|hb)\b(?!\s*a1c)/i, name: 'hemoglobin', unit: 'g/dL', plausibleMax: 25, convert: { 'g/L': 0.1, 'mmol/L': 1.611 } },
  {
    pattern: /\b(?:white (?:blood )?cells?|wbc|leukocytes?)(?: count)?\b/i,
    name: 'WBC',
    unit: '10^9/L',
    plausibleMax: 500,
    convert: { '/mm3': 1 / 1000, '/µL': 1 / 1000, 'cells/mm3': 1 / 1000, 'cells/µL': 1 / 1000, '10^3/µL': 1 },
  },
  {
    pattern: /\blymphocytes?(?: count)?\b|\balc\b/i,
    name: 'lymphocytes',
    unit: '10^9/L',
    plausibleMax: 500,
    convert: { '/mm3': 1 / 1000, '/µL': 1 / 1000, 'cells/mm3': 1 / 1000, 'cells/µL': 1 / 1000, '10^3/µL': 1 },
  },
  { pattern: /\beosinophils?(?: count)?\b/i, name: 'eosinophils', unit: 'cells/µL', convert: { '10^9/L': 1000 } },
  { pattern: /\b(?:serum )?albumin\b/i, name: 'albumin', unit: 'g/dL', plausibleMax: 10, convert: { 'g/L': 0.1 } },
  { pattern: /\binr\b|\binternational normali[sz]ed ratio\b/i, name: 'INR', unitless: true },
  { pattern: /\bpotassium\b/i, name: 'potassium', unit: 'mmol/L', plausibleMax: 15, convert: { 'mEq/L': 1 } },
  { pattern: /\b(?:alkaline phosphatase|alp)\b/i, name: 'ALP', unit: 'U/L', highSideOnly: true },
  // The ratio of the two (decision 372), before either: "FEV1/FVC < 0.70" is neither FEV1 nor FVC. A bare ratio is a
  // fraction of one, kept in percent as laboratories print it.
  {
    pattern: /\bfev1?\s*(?:\/|:|to)\s*fvc(?:\s+ratio)?\b|\btiffeneau(?:[\s-]+(?:index|ratio))?\b/i,
    name: 'FEV1/FVC ratio',
    unit: '%',
    bare: (value) => ({ value: value <= 1 ? Math.round(value * 1000) / 10 : value, unit: '%' }),
    plausibleMax: 100,
  },
  { pattern: /\b(?:forced vital capacity|fvc)\b/i, name: 'FVC' },
  { pattern: /\bqtcf?\b|\bqt interval\b/i, name: 'QTc', unit: 'ms' },
  { pattern: /\bfev1\b|\bforced expiratory volume\b/i, name: 'FEV1' },
  { pattern: /\bcrp\b|\bc-reactive protein\b/i, name: 'CRP', unit: 'mg/L' },
  // "Fasting blood sugar" is the fasting glucose too (the analyte reader would read "blood sugar" without the fasting).
  {
    pattern: /\bfasting (?:(?:venous|capillary) )?(?:plasma |serum |blood )?(?:glucose|sugar)\b|\bfpg\b/i,
    name: 'fasting glucose',
    unit: 'mg/dL',
    convert: { 'mmol/L': 18 },
  },
  // A glucose measured at any time (decision 367): "plasma glucose", "serum glucose", "random blood sugar", "glucose 250
  // mg/dL". Never the fasting glucose (above), a timed one of a tolerance test ("2-hour plasma glucose"), another fluid's
  // ("urine glucose"), nor glucose named as what a test gives or a medicine lowers ("glucose tolerance", "glucose-lowering").
  {
    pattern: GLUCOSE_AT_ANY_TIME,
    name: 'blood glucose',
    unit: 'mg/dL',
    convert: { 'mmol/L': 18 },
    plausibleMax: 2000,
  },
  // HIV's amount in the blood (decision 367): "HIV-1 RNA < 50 copies/mL", "plasma HIV viral load". Only with HIV named: a
  // viral load alone may be hepatitis B's. Never without its unit ("3 log10 copies/mL" is another scale).
  {
    pattern: /\bHIV(?:[\s-]*1)?[\s-]+(?:RNA(?:\s+viral\s+loads?)?|viral\s+loads?)(?:\s+levels?)?\b/i,
    name: 'HIV viral load',
    unit: 'copies/mL',
    unitRequired: true,
    plausibleMax: 100_000_000,
  },
  { pattern: /\b(?:left ventricular )?ejection fraction\b|\blvef\b/i, name: 'LVEF', unit: '%' },
  { pattern: /\b(?:oxygen saturation|spo2|sao2)\b/i, name: 'oxygen saturation', unit: '%' },
  { pattern: /\bsystolic(?: blood pressure)?\b|\bsbp\b/i, name: 'systolic blood pressure', unit: 'mmHg' },
  { pattern: /\bdiastolic(?: blood pressure)?\b|\bdbp\b/i, name: 'diastolic blood pressure', unit: 'mmHg' },
  { pattern: /\b(?:heart rate|pulse(?: rate)?|resting heart rate)\b/i, name: 'heart rate', unit: 'bpm' },
  { pattern: /\b(?:body )?weight\b/i, name: 'weight', unit: 'kg', convert: { lb: 0.4536, lbs: 0.4536, g: 0.001 } },
  // A person's height, not a disc's or a vertebra's ("loss of disc height > 60%").
  {
    pattern: /(?<!\b(?:disc|disk|vertebral|intervertebral|body|crown|step)\s)\bheight\b(?!\s+(?:of\s+the\s+)?(?:disc|disk|vertebra))/i,
    name: 'height',
    unit: 'cm',
    convert: { m: 100, in: 2.54 },
  },
  // Clinical scores a clinician records: read exactly, asked of staff (site review), never of the patient.
  { pattern: /\b(?:montreal cognitive assess?ment(?: test)?(?:\s*\(moca\))?|moca)\b/i, name: 'MoCA score', unit: 'points' },
  { pattern: /\b(?:mini[- ]mental state examination(?:\s*\(mmse\))?|mmse)\b/i, name: 'MMSE score', unit: 'points' },
  { pattern: /\b(?:short (?:physical )?performance (?:physical )?battery(?:\s*\(sppb\))?|sppb)\b/i, name: 'SPPB score', unit: 'points' },
  // "ASA" alone is also aspirin ("ASA 81 mg"): the class needs its full name, a class word, or a bare 1-6 after a comparator.
  {
    pattern:
      /\bamerican society of ana?esthesiologists?\b[^;<>≤≥]{0,60}|\basa\s+(?:physical status|class(?:ification)?|score|ps)\b|\basa(?=\s*(?:≤|≥|<=|>=|<|>)\s*[1-6]\b(?!\s*(?:mg|%)))/i,
    name: 'ASA physical status',
    unit: 'class',
  },
  { pattern: /\bhaq-di\b/i, name: 'HAQ-DI score', unit: 'points' },
  { pattern: /\b(?:physician'?s? global assessment(?:\s*\(phga\))?|phga)\b/i, name: "physician's global assessment", unit: 'points' },
  { pattern: /\b(?:patient'?s? global assessment(?:\s*\(ptga\))?|ptga)\b/i, name: "patient's global assessment", unit: 'points' },
  { pattern: /\b(?:modified rodnan skin score(?:\s*\(mrss\))?|mrss)\b/i, name: 'mRSS', unit: 'points' },
  // "Oswestry Disability Index", "Oswestry questionnaire", "Oswestry Low Back Pain Disability Questionnaire": one score, 0-100.
  {
    pattern: /\b(?:oswestry(?: low back pain)?(?: disability)?(?: index| questionnaire)?(?:\s*\(odi\))?|odi)\b/i,
    name: 'Oswestry Disability Index',
    unit: 'points',
    convert: { '/100': 1, '%': 1, points: 1 },
  },
  { pattern: /\b(?:easi)(?: score)?\b/i, name: 'EASI score', unit: 'points' },
  { pattern: /\b(?:pasi)(?: score)?\b/i, name: 'PASI score', unit: 'points' },
  { pattern: /\b(?:nihss|national institutes? of health stroke scale)\b/i, name: 'NIHSS score', unit: 'points' },
  { pattern: /\b(?:clinical frailty scale|cfs)(?: score)?\b/i, name: 'Clinical Frailty Scale', unit: 'points' },
  { pattern: /\b(?:a?ptt|(?:activated )?partial thromboplastin time)\b/i, name: 'aPTT' },
  // Pain intensity on a visual analogue or numeric rating scale, kept on the 0-10 scale: "VAS >= 40/100", "60 mm on a
  // 100 mm scale" and a bare value above 10 are on the 0-100 scale. Where the pain is ("leg pain") is more than the rule.
  {
    pattern:
      /\b(?:vas|nrs|nprs|visual analog(?:ue)? scale|numeric(?:al)? (?:pain )?rating scale)\b(?:\s*\((?:vas|nrs|nprs)\))?(?:\s+(?:pain\s+)?(?:score|intensity))?|\bpain (?:score|intensity)\b/i,
    name: 'pain score',
    unit: '/10',
    convert: { '/100': 0.1, mm: 0.1, '/10': 1 },
    bare: (value) => (value > 10 ? { value: Math.round(value) / 10, unit: '/10' } : { value, unit: '/10' }),
  },
];

export const UNIT = String.raw`\s*(%|(?:mg|g)\s*\/\s*g(?:\s*(?:of\s+)?(?:creatinine|creat|crea|cr)|cr)?|mg\s*\/\s*(?:mmol|mg)|(?:mg|g)\s*\/\s*(?:24\s*(?:hours?|hrs?|h)|d(?:ay)?)|kg\s*\/\s*m\s*(?:2|²|\^2)|(?:ml|cc)\s*\/\s*min(?:\s*\/\s*1[.,]73\s*m\s*(?:2|²|\^2))?|mg\s*\/\s*dl|mg\s*\/\s*l|mmol\s*\/\s*l|meq\s*\/\s*l|mmol\s*\/\s*mol|[µμu]mol\s*\/\s*l|gm?\s*\/\s*dl|g\s*\/\s*l|ms(?:ec)?|(?:x|×|\*)\s*10\s*(?:\^|e)?\s*(?:9|3|⁹|³)\s*\/\s*[lµμu]l?|10\s*\^?\s*(?:9|3|⁹|³)\s*\/\s*[lµμu]l?|k\s*\/\s*(?:[µμu]l|mcl|cu\s*mm|mm\s*\^?\s*3|mm³)|(?:cells\s*)?\/\s*(?:mm\s*\^\s*3|mm3|mm³|[µμ]l|ul|mcl|mmc|cu\s*mm)|cells\s*\/\s*(?:[µμu]l|mcl)|u\s*\/\s*l|iu\s*\/\s*l|mmhg|mm\s*hg|bpm|beats\s*(?:per|\/)\s*min(?:ute)?|copies\s*\/\s*ml|\/\s*100(?!\d)|\/\s*10(?!\d)|mm(?!\s*(?:hg|3|³))|kilograms?(?!\s*(?:per|\/)\s*(?:square|m))|kg|pounds?|lbs?|grams?|g|cm|m|in)?(?![a-z])`;

export function normalizeUnit(unit: string | undefined): string | undefined {
  if (!unit) return undefined;
  const compact = unit
    .toLowerCase()
    .replace(/\s+/g, '')
    // The Greek letter mu (U+03BC), as many records type it, is the micro sign (U+00B5).
    .replace(/\u03bc/g, 'µ')
    .replace('²', '2')
    .replace('×', 'x')
    .replace('³', '3')
    // "10⁹/L": the superscript nine, as records copied from formatted text write it (decision 361).
    .replace('⁹', '9')
    .replace(/^\*/, 'x')
    .replace('^2', '2')
    .replace('^3', '3');
  if (/^kg\/m2$/.test(compact)) return 'kg/m2';
  // Over creatinine ("g/gCr", "mg/g creatinine") and per day ("g/24 h"), as urine protein is reported (decision 323).
  const perCreatinine = /^(mg|g)\/g(?:of)?(?:creatinine|creat|crea|cr)?$/.exec(compact);
  if (perCreatinine) return `${perCreatinine[1]}/g`;
  if (/^mg\/(?:mmol|mg)$/.test(compact)) return compact;
  // "g/24h", "g/day", and UCUM's "g/(24.h)" as FHIR writes it.
  const perDay = /^(mg|g)\/(?:\(?24\.?(?:hours?|hrs?|h)\)?|d(?:ay)?)$/.exec(compact);
  if (perDay) return `${perDay[1]}/day`;
  if (/^(?:ml|cc)\/min\/1[.,]73m2$/.test(compact)) return 'mL/min/1.73m2';
  if (/^(?:ml|cc)\/min$/.test(compact)) return 'mL/min';
  if (/^mg\/dl$/.test(compact)) return 'mg/dL';
  if (/^mg\/l$/.test(compact)) return 'mg/L';
  if (/^gm?\/dl$/.test(compact)) return 'g/dL';
  if (/^g\/l$/.test(compact)) return 'g/L';
  if (/^mmol\/l$/.test(compact)) return 'mmol/L';
  if (/^meq\/l$/.test(compact)) return 'mEq/L';
  if (/^mmol\/mol$/.test(compact)) return 'mmol/mol';
  if (/^[µu]mol\/l$/.test(compact)) return 'µmol/L';
  if (/^(?:x)?10(?:\^|e)?9\/l$/.test(compact)) return '10^9/L';
  // "K/µL", "k/mcL", "K/cumm": thousands per microlitre.
  if (/^(?:x)?10(?:\^|e)?3\/[µu]l$/.test(compact) || /^k\/(?:[µu]l|mcl|cumm|mm3)$/.test(compact)) return '10^3/µL';
  // "/mmc", as some European records write a cubic millimetre.
  if (/^(?:cells)?\/(?:mm3|cumm|mmc)$/.test(compact)) return '/mm3';
  // "/mcL", as many US records write a microlitre.
  if (/^(?:cells)?\/(?:[µu]l|mcl)$/.test(compact)) return '/µL';
  if (/^(?:u|iu)\/l$/.test(compact)) return 'U/L';
  // Concentrations of hormones, proteins and other analytes (decision 304): one spelling each, micro as µ.
  const micro = compact.replace(/^mc/, 'µ').replace(/^u(?=g\/|iu\/)/, 'µ');
  const analyteUnit = /^(ng|pg|µg|[np]mol|miu|µiu|iu|mu|u)\/(ml|dl|l)$/.exec(micro);
  if (analyteUnit) return `${analyteUnit[1].replace('iu', 'IU').replace(/^mu$/, 'mU').replace(/^u$/, 'U')}/${analyteUnit[2].replace('l', 'L')}`;
  if (/^copies\/ml$/.test(compact)) return 'copies/mL';
  if (/^mmhg$/.test(compact)) return 'mmHg';
  if (/^(?:bpm|beats(?:per|\/)min(?:ute)?)$/.test(compact)) return 'bpm';
  if (/^msec$|^ms$/.test(compact)) return 'ms';
  if (/^(?:lbs?|pounds?)$/.test(compact)) return 'lb';
  if (/^kilograms?$/.test(compact)) return 'kg';
  if (/^grams?$/.test(compact)) return 'g';
  return compact;
}

/** A value in the measure's own unit that no person has: it was written in another unit (decision 315). */
export function implausible(measure: Measure, value: number, unit: string | undefined): boolean {
  return measure.plausibleMax !== undefined && unit === measure.unit && value > measure.plausibleMax;
}

/** A value in its written unit -> the measure's canonical unit (or kept as written when no conversion is known). Also used by the FHIR reader and the note extractor. */
export function canonical(measure: Measure, value: number, written: string | undefined): { value: number; unit: string | undefined } {
  const unit = normalizeUnit(written);
  // No unit to read it in: a person reads the rule, and a note's value is left unread (decision 323).
  if (!unit && measure.unitRequired) return { value, unit: undefined };
  // Counts written without a unit: "platelets < 100,000" is per mm3 (10^9/L figures are below 1000).
  if (!unit && measure.unit === '10^9/L' && value >= 1000) return { value: value / 1000, unit: measure.unit };
  if (!unit && measure.bare) return measure.bare(value);
  if (!unit || unit === measure.unit) return { value, unit: measure.unit ?? unit };
  const factor = measure.convert?.[unit];
  if (factor === undefined) return { value, unit };
  const converted = typeof factor === 'function' ? factor(value) : value * factor;
  return { value: Math.round(converted * 1000) / 1000, unit: measure.unit };
}
