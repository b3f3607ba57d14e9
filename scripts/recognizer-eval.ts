/**
 * The concept recognizer against professional annotators (issue 30): `npm run eval:recognizer`.
 *
 * Clinical-Trial-Parser's NER test file (../shared/data/criteria-parsing/test_processed_medical_ner.tsv, read in
 * place, never copied) marks, in each criterion sentence, the spans its annotators labelled as a chronic disease, a
 * cancer or a treatment (among other labels). For each label, this prints the share of spans the recognizer finds:
 * a concept of the matching kind (condition for diseases and cancers; for treatments, one the recognizer marks as a
 * treatment: a medicine, or an operation or therapy of MeSH E02/E04) that overlaps the span. The sentences are split as tests/support/ner-criteria-corpus.ts splits them
 * (seed 30044): the development part may be tuned on, the untuned part is only measured.
 *
 * It is a recall figure: the annotators did not mark every concept (a lab, a symptom), so a concept found outside
 * their spans is not counted as wrong. `--misses N` prints N missed spans of the development part.
 */
import { existsSync, readFileSync } from 'node:fs';
import { nerCriteriaOfPart, rejoinTokenized, SHARED_NER_CRITERIA } from '../tests/support/ner-criteria-corpus';
import { recognize } from '../src/server/features/trials/vocabulary/recognizer';
import { vocabulary } from '../src/server/features/trials/vocabulary';

if (!existsSync(SHARED_NER_CRITERIA)) {
  console.error(`No sentences: ${SHARED_NER_CRITERIA} is absent.`);
  process.exit(1);
}
vocabulary();

const LABELS = { chronic_disease: 'condition', cancer: 'condition', treatment: 'medication' } as const;
type Label = keyof typeof LABELS;

/** Sentence (tokenized, as in the file) -> its labelled spans, [start, end) in the sentence. */
const spansBySentence = new Map<string, Array<{ label: Label; start: number; end: number }>>();
for (const line of readFileSync(SHARED_NER_CRITERIA, 'utf8').split('\n')) {
  const [slots, sentence] = line.split('\t');
  if (!sentence?.trim() || spansBySentence.has(sentence.trim())) continue;
  const spans = (slots ?? '')
    .split(',')
    .map((slot) => slot.split(':'))
    .filter(([, , label]) => label in LABELS)
    // The file's offsets are 1-based with an exclusive end.
    .map(([start, end, label]) => ({ label: label as Label, start: Number(start) - 1, end: Number(end) - 1 }));
  spansBySentence.set(sentence.trim(), spans);
}

/** The untuned/development parts by the corpus's own split, matched back to the tokenized sentences. */
const partOf = new Map<string, 'development' | 'untuned'>();
const rejoined = (part: 'development' | 'untuned') => new Set(nerCriteriaOfPart(part));
const development = rejoined('development');
const untuned = rejoined('untuned');
for (const sentence of spansBySentence.keys()) {
  const text = rejoinTokenized(sentence);
  partOf.set(sentence, development.has(text) ? 'development' : untuned.has(text) ? 'untuned' : 'development');
}

// A treatment is what the recognizer offers as one (a medicine, or an operation or therapy of MeSH E02/E04, decision 254).
const kindMatches = (label: Label, found: ReturnType<typeof recognize>[number]) => (label === 'treatment' ? found.treatment : found.kind === LABELS[label]);

const tally = new Map<string, { found: number; total: number }>();
const missed: string[] = [];
for (const [sentence, spans] of spansBySentence) {
  const part = partOf.get(sentence) ?? 'development';
  // The file splits the possessive off ("parkinson 's disease"); moving the space after it keeps every offset.
  const concepts = recognize(sentence.replace(/ 's\b/g, "'s "));
  for (const span of spans) {
    const hit = concepts.some((found) => found.start < span.end && found.end > span.start && kindMatches(span.label, found));
    const key = `${part} ${span.label}`;
    const entry = tally.get(key) ?? { found: 0, total: 0 };
    entry.total++;
    if (hit) entry.found++;
    tally.set(key, entry);
    if (!hit && part === 'development') missed.push(`${span.label}: "${sentence.slice(span.start, span.end)}"  in  ${sentence.slice(0, 160)}`);
  }
}

const percent = (found: number, total: number) => (total ? `${((found / total) * 100).toFixed(1)}% (${found}/${total})` : '-');
console.info('Spans the annotators labelled that the recognizer finds (a concept of the matching kind overlapping the span)\n');
console.info(`${'label'.padEnd(18)}${'development'.padStart(22)}${'untuned'.padStart(22)}`);
for (const label of Object.keys(LABELS) as Label[]) {
  const row = (part: string) => {
    const entry = tally.get(`${part} ${label}`) ?? { found: 0, total: 0 };
    return percent(entry.found, entry.total).padStart(22);
  };
  console.info(`${label.padEnd(18)}${row('development')}${row('untuned')}`);
}
const misses = process.argv.includes('--misses') ? Number(process.argv[process.argv.indexOf('--misses') + 1] ?? 40) : 0;
if (misses) console.info(`\n${missed.slice(0, misses).join('\n')}`);
