/**
 * The criteria reader's figures on text it was and was not tuned on (issue 30): `npm run eval:criteria [-- --list]`.
 *
 * Reads ../shared/data in place (never copied): the 94 ClinicalTrials.gov records split into their development and
 * evaluation halves (tests/fixtures/ctgov/evaluation-split.json, seed recorded there), and the Clinical-Trial-Parser
 * records of ../shared/data/criteria-parsing. Prints, per part, the share of criteria with a machine rule, with a
 * rule needing no review, asked of the patient in plain words, and the counts that must be zero: verbatim patient
 * questions, placeholders or headings read as criteria, ages read from numbers that are not ages. `--list` prints
 * the offending criteria of the last three. The last two columns are the Clinical-Trial-Parser NER file's criterion
 * sentences from every therapeutic area (tests/support/ner-criteria-corpus.ts), each read as an inclusion and as an
 * exclusion: a development part, and an untuned part no change may be tuned against.
 */
import {
  type CorpusMetrics,
  EVALUATION_SPLIT,
  loadCriteriaParsingStudies,
  loadSharedStudies,
  measureCorpus,
  SHARED_STUDIES,
  studiesOfPart,
} from '../tests/support/criteria-corpus';
import { NER_SPLIT_SEED, nerCriteriaStudies } from '../tests/support/ner-criteria-corpus';

const studies = loadSharedStudies();
if (!studies) {
  console.error(`No records: ${SHARED_STUDIES} is absent.`);
  process.exit(1);
}
const parts: Array<[string, unknown[]]> = [
  ['development', studiesOfPart(studies, 'development')],
  ['evaluation', studiesOfPart(studies, 'evaluation')],
  ['all 94', studies],
  ['criteria-parsing', loadCriteriaParsingStudies() ?? []],
  // Each sentence read once as an inclusion and once as an exclusion (the file does not say which it was).
  ['sentences dev', [...(nerCriteriaStudies('development', 'inclusion') ?? []), ...(nerCriteriaStudies('development', 'exclusion') ?? [])]],
  ['sentences untuned', [...(nerCriteriaStudies('untuned', 'inclusion') ?? []), ...(nerCriteriaStudies('untuned', 'exclusion') ?? [])]],
];
const measured = parts.map(([name, records]) => [name, measureCorpus(records)] as const);

const percent = (part: number, whole: number) => (whole ? `${((part / whole) * 100).toFixed(1)}%` : '-');
const rows: Array<[string, (metrics: CorpusMetrics) => string]> = [
  ['records', (m) => String(m.records)],
  ['criteria read from the text', (m) => String(m.criteria)],
  ['with a machine rule (>= 75%)', (m) => `${percent(m.withRule, m.criteria)} (${m.withRule})`],
  ['rules needing no review (>= 40%)', (m) => `${percent(m.noReview, m.criteria)} (${m.noReview})`],
  ['asked of the patient in plain words (>= 60%)', (m) => `${percent(m.askedInPlainWords, m.criteria)} (${m.askedInPlainWords})`],
  ['verbatim patient questions (0)', (m) => String(m.verbatimQuestions)],
  ['placeholders or headings (0)', (m) => String(m.placeholders.length)],
  ['ages from non-age numbers (0)', (m) => String(m.nonAgeAges.length)],
  ['patient questions / site review items', (m) => `${m.patientQuestions} / ${m.siteReviewItems}`],
];
const width = Math.max(...rows.map(([label]) => label.length));
console.info(`split seed ${EVALUATION_SPLIT.seed}; criterion sentences (tests/support/ner-criteria-corpus.ts) split seed ${NER_SPLIT_SEED}\n`);
console.info(`${''.padEnd(width)}  ${measured.map(([name]) => name.padStart(16)).join('  ')}`);
for (const [label, value] of rows) console.info(`${label.padEnd(width)}  ${measured.map(([, metrics]) => value(metrics).padStart(16)).join('  ')}`);
if (process.argv.includes('--list')) {
  for (const [name, metrics] of measured) {
    for (const line of metrics.placeholders) console.info(`${name} placeholder: ${line}`);
    for (const line of metrics.nonAgeAges) console.info(`${name} non-age age: ${line}`);
  }
}
