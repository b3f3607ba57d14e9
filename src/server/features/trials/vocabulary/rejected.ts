/**
 * What the vocabulary never reads as a concept (decision 126): MeSH headings too generic to say what a criterion
 * or a note is about, and entry terms that are ordinary words. Used by scripts/build-vocabulary.ts; the
 * recognizer also leaves a short form whose lower case is an ordinary word unread without support.
 */

/** Headings (lower case) that name no condition, drug or procedure a person has or takes. */
export const REJECTED_DESCRIPTORS = new Set([
  'disease',
  'syndrome',
  'acute disease',
  'chronic disease',
  'recurrence',
  'disease progression',
  'disease attributes',
  'pathologic processes',
  'pathological conditions, anatomical',
  'pathological conditions, signs and symptoms',
  'signs and symptoms',
  'death',
  'body weight',
  'wounds and injuries',
  'genomic instability',
  'microsatellite instability',
  'body temperature changes',
  'neoplasms by site',
  'neoplasms by histologic type',
  'neoplastic processes',
  // A heading of E02 as generic as "treatment" (decision 254): the kinds under it are kept.
  'drug therapy',
  'emergencies',
  'critical illness',
  'multiple chronic conditions',
  'comorbidity',
  'disease susceptibility',
  'asymptomatic diseases',
  'catastrophic illness',
  'iatrogenic disease',
  'late onset disorders',
  'rare diseases',
  'neglected diseases',
  'tropical climate',
  'sex',
  'age factors',
  'pharmacologic actions',
  'molecular mechanisms of pharmacological action',
  'physiological effects of drugs',
  'therapeutic uses',
  'surgical procedures, operative',
  'postoperative period',
  'intraoperative period',
  'therapeutics',
  'drug therapy',
  'patient care',
  'placebos',
  'solvents',
  'water',
  'sodium chloride',
  'food',
  'pharmaceutical vehicles',
  'excipients',
  'specialty uses of chemicals',
  'toxic actions',
  'laboratory chemicals',
  'indicators and reagents',
  'radiation',
  'prolapse',
  'hernia',
  'ulcer',
  'fibrosis',
  'sclerosis',
  'suppuration',
  'hyperthermia',
  'necrosis',
  'inflammation',
  'infarction',
  'ischemia',
  'hemorrhage',
  'edema',
  'constriction, pathologic',
  'dilatation, pathologic',
  'hypertrophy',
  'atrophy',
  'hyperplasia',
  'cysts',
  'calculi',
  'obstruction',
  'rupture',
  'adhesions',
  'pain',
  // A place (the wound an operation leaves), not a condition: "antibiotic beads into the surgical wound".
  'surgical wound',
]);

/** Terms (phrase keys) too generic to read even when a kept heading carries them. */
export const TOO_GENERIC_TERMS = new Set([
  'disease',
  'disorder',
  'condition',
  'illness',
  'syndrome',
  'injury',
  'lesion',
  'abnormality',
  'anomaly',
  'complication',
  'finding',
  'symptom',
  'sign',
  'problem',
  'agent',
  'drug',
  'medicine',
  'medication',
  'therapy',
  'treatment',
  'surgery',
  'operation',
  'procedure',
  'pregnancy outcome',
  'habit',
  'behavior',
  'side effect',
  'adverse effect',
  'adverse event',
  'drug effect',
  'toxicity',
  'poisoning',
  'overdose',
  'relapse',
  'remission',
  'progression',
  'tumor',
  'mass',
  'growth',
  'cyst',
  'nodule',
]);

/**
 * Ordinary English words (lower case) that MeSH lists as a drug's, disease's or slang name: "lead", "speed",
 * "crack", "ice", "tin", "all", "aids" as a verb. Never read as a one-word term, nor as a short form in lower case.
 */
export const ORDINARY_WORDS = new Set(
  `a an the and or but not no yes all any some many much more most less least few one two three four five six seven eight nine ten
  is are was were be been being am do does did done has have had having can could may might must shall should will would
  it its this that these those there here where when what which who whom whose why how than then thus also only just even
  as at by for from in into of off on onto out over per to under up upon via with within without about above after against
  along among around before behind below beside between beyond down during except inside near outside past since through
  toward until
  he she they we you i me him her them us my your his our their
  age sex male female man woman men women boy girl child baby adult old young new early late long short high low big small
  good bad well ill sick fine fair poor normal mild severe acute chronic major minor total partial primary secondary
  lead tin gold iron silver copper zinc salt water air gas fire ice snow rain wind sun light heat cold hot warm cool dry wet
  speed crack rock grass pot weed smack dope horse coke snow glass crystal x ecstasy molly angel dust star stars
  sugar fat oil milk egg eggs meat fish bread rice corn wheat bean beans nut nuts fruit tea coffee wine beer alcohol
  cell cells tissue blood bone skin hair nail nails eye eyes ear ears nose mouth lip lips tooth teeth tongue head neck back
  arm arms leg legs hand hands foot feet heart lung lungs liver kidney brain stomach
  rest sleep stress fear anger grief joy pain itch ache burn burns cut cuts bite bites sting stings fall falls drop drops
  spot spots mark marks line lines plate plates bar bars band bands ring rings cap caps pill pills patch patches tablet
  tablets shot shots dose doses drug drugs aid aids care help support test tests scan scans check
  stone stones sand mud dust smoke fog
  bird birds cat cats dog dogs rat rats mouse mice pig pigs cow cows sheep goat goats
  rose lily ivy daisy sage mint basil thyme clove cloves ginger garlic onion pepper
  sun moon star earth
  mercury arsenic radium helium neon argon
  red blue green yellow white black brown grey gray pink orange purple
  sore sores cold colds
  raise fit fits spell spells turn turns attack attacks
  case cases type types form forms part parts side sides end ends
  may june april august
  orange lime lemon apple peach cherry berry
  mole moles wart warts corn corns boil boils sty`
    .split(/\s+/)
    .filter(Boolean),
);
