import { c, type SynonymEntry } from './entry';

/** Treatment without an operation, as trials name it. */
const CONSERVATIVE_HEADS = [
  'conservative treatment',
  'conservative therapy',
  'conservative management',
  'conservative care',
  'non-surgical treatment',
  'non-operative treatment',
  'non-operative care',
  'nonsurgical treatment',
  'nonoperative treatment',
];
/** Words that say a treatment did not help, before its name. */
const NO_BENEFIT_FROM = [
  'do not benefit from',
  'did not benefit from',
  'no benefit from',
  'no improvement with',
  'no improvement after',
  'not improved with',
  'did not improve with',
  'did not respond to',
  'not responding to',
  'unresponsive to',
  'inadequate response to',
  'despite',
];

/** Reviewed hand entries: trial idioms no heading names (a past operation, major surgery, treatment without surgery that did not help, an infection where the treatment will be given, a terminal illness): read in criteria. */
export const TRIAL_IDIOMS: SynonymEntry[] = [
  c('bariatric-surgery', 'weight-loss surgery', 'cirugía para bajar de peso', [
    'bariatric surgery',
    'gastric bypass',
    'gastric banding',
    'sleeve gastrectomy',
    'obesity surgery',
  ]),
  c('major-surgery', 'major surgery', 'una cirugía mayor', ['major surgery', 'major surgical procedure', 'major surgical procedures', 'major operation']),
  // A trial idiom of surgical and interventional trials that no vocabulary names: treatment without an operation (physical
  // therapy, medicines, injections) tried and not enough. A person can say it; "for at least 6 weeks" is its duration.
  c(
    'conservative-treatment-failed',
    'symptoms that treatment without surgery (such as physical therapy) did not help',
    'síntomas que el tratamiento sin cirugía (como fisioterapia) no mejoró',
    [
      'failed conservative treatment',
      'failed conservative therapy',
      'failed conservative management',
      'failed conservative care',
      'failure of conservative treatment',
      'failure of conservative therapy',
      'failure of conservative management',
      'conservative treatment failure',
      'conservative therapy failure',
      'conservative management failure',
      'unsuccessful conservative treatment',
      'unsuccessful conservative therapy',
      'unsuccessful conservative management',
      'failed non-operative treatment',
      'failed nonoperative treatment',
      'failed non-surgical treatment',
      'failed nonsurgical treatment',
      'failure of non-operative treatment',
      'failure of nonoperative treatment',
      'failure of non-surgical treatment',
      'failure to improve with conservative treatment',
      'failure to improve with non-operative care',
      'failure to improve with nonoperative care',
      'failure to respond to conservative treatment',
      'refractory to conservative treatment',
      // The same idiom said as the treatment's missing benefit (decision 184): "do not benefit from", "no improvement
      // with", "unresponsive to", "despite" conservative treatment. Each head names treatment without an operation.
      ...CONSERVATIVE_HEADS.flatMap((head) => NO_BENEFIT_FROM.map((words) => `${words} ${head}`)),
    ],
    { criteriaOnly: true },
  ),
  // A trial idiom MeSH has no heading for (its "Surgical Procedures, Operative" is rejected as too generic): an operation
  // the person had before. Only with a word that says it is past ("prior surgery", "surgical history"), so the study's
  // own operation ("scheduled for surgery", "the index surgery") is never read as it (decision 140).
  c(
    'prior-surgery',
    'an operation (surgery)',
    'una operación (cirugía)',
    [
      'prior surgery',
      'prior surgeries',
      'previous surgery',
      'previous surgeries',
      'past surgery',
      'past surgeries',
      'prior operation',
      'prior operations',
      'previous operation',
      'previous operations',
      'surgical history',
      'history of surgery',
      'prior surgical procedure',
      'prior surgical procedures',
      'previous surgical procedure',
      'previous surgical procedures',
      'prior surgical intervention',
      'previous surgical intervention',
    ],
    { criteriaOnly: true },
  ),
  c('splenectomy', 'removal of the spleen (splenectomy)', 'extirpación del bazo (esplenectomía)', ['splenectomy', 'asplenia'], {
    meshTerm: 'Splenectomy',
    icd10: 'Z90.81',
  }),
  c('terminal-illness', 'a terminal illness', 'una enfermedad terminal', ['terminal illness', 'terminally ill', 'terminal disease']),
  // An infection where a procedure or injection will be done: not any infection, which "an infection that needs
  // treatment" is. No MeSH heading or ICD-10-CM code names the place of a future procedure.
  c('procedure-site-infection', 'an infection where the treatment will be given', 'una infección en la zona donde se aplicará el tratamiento', [
    'infection at the injection site',
    'infection at the site of injection',
    'infection at the site of the injection',
    'infection at the site of surgery',
    'infection at the surgical site',
    'infection at the operative site',
    'infection at the procedure site',
    'infection at the site of the procedure',
    'infection at the site of the operation',
    'infection at the puncture site',
    'infection at the insertion site',
    'infection at the implantation site',
    'injection site infection',
    'local infection at the injection site',
    'skin infection at the injection site',
    'local infection at the site of injection',
    // The operative field and a device's way in are where the treatment is given too (decision 110).
    'infection at the operation field',
    'infection in the operation field',
    'infection at the operative field',
    'infection in the operative field',
    'infection at the surgical field',
    'infection in the surgical field',
    'infection at the site of the operation field',
    'infection at the site of the surgical field',
    'infection at the site of insertion',
    'infection at the device insertion site',
    'infection at the insertion site of the device',
    'infection at the insertion of the device',
    'infection at the site of device insertion',
    'infection at the incision site',
    'infection at the site of incision',
  ]),
];
