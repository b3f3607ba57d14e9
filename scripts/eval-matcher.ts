/**
 * `npm run eval:matcher`: the trial matcher on the labelled set (docs/matching-evaluation.md), through the product's
 * own pipeline: the trial record read by the CT.gov import (criteria and their rules), the vignette read by the note
 * reader (facts), and the matcher's evaluation. Prints, for the development part and the untuned part (its two labelled
 * batches apart and together, decision 196): AUC (eligible over excluded), each class's accuracy, the share of labelled
 * criteria decided and their accuracy, the "likely" pairs whose facts show nothing of the trial's condition (must be
 * 0), and a BM25 word-overlap baseline.
 * Needs ../shared/data (skips, saying so, when it is absent).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { CandidateFactInput } from '../src/contract/matching';
import type { TrialDraft } from '../src/contract/trials';
import type { MatchFact, PersonMatch } from '../src/server/features/matching/evaluate';
import { NOTE } from '../src/server/features/matching/score';
import { matchTrial, targetConditionOf } from '../src/server/features/matching/target-condition';
import { extractNoteFacts } from '../src/server/features/matching/note-extractor';
import { draftFromStudy } from '../src/server/features/trials/ctgov';
import { vocabulary } from '../src/server/features/trials/vocabulary';
import { seededRandom } from '../src/server/seeded-random';

const SHARED = path.resolve(process.cwd(), '../shared/data');
/**
 * The labelled set's batches: the first (development and untuned parts, seeds 2031/2032) and the second (untuned only,
 * seed 2041, decision 196). Each keeps its own criteriaText, the reader's split on the day it was labelled.
 */
const FIXTURES = ['labelled-pairs.json', 'labelled-pairs-2.json'].map((file) => path.resolve(process.cwd(), 'tests/fixtures/matching', file));
/** The day the notes are read: fixed, so the figures do not move with the calendar. */
const TODAY = new Date('2026-11-29T00:00:00Z');

type Overall = 'eligible' | 'excluded' | 'not_relevant';
interface LabelledPair {
  patient: string;
  trial: string;
  part: 'development' | 'untuned';
  overall: Overall;
  met: number[];
  notMet: number[];
  notApplicable: number[];
}
interface Fixture {
  patients: Record<string, { source: 'ours' | 'ours2' | 'trec_2021' | 'sigir'; text?: string }>;
  criteriaText: Record<string, string[]>;
  pairs: LabelledPair[];
}
/** A pair with the batch it came from and the criteria texts its labels index into. */
interface BatchPair extends LabelledPair {
  batch: number;
  labelledText: string[];
}

function readFixtures(): { patients: Fixture['patients']; pairs: BatchPair[] } {
  const patients: Fixture['patients'] = {};
  const pairs: BatchPair[] = [];
  for (const [index, file] of FIXTURES.entries()) {
    const fixture = JSON.parse(readFileSync(file, 'utf8')) as Fixture;
    for (const [id, patient] of Object.entries(fixture.patients)) {
      if (patients[id]) throw new Error(`patient ${id} is in two batches`);
      patients[id] = patient;
    }
    for (const pair of fixture.pairs) pairs.push({ ...pair, batch: index + 1, labelledText: fixture.criteriaText[pair.trial] });
  }
  return { patients, pairs };
}

const clip = (text: string) => text.replace(/\s+/g, ' ').slice(0, 60);

function publicTexts(): Map<string, string> {
  const texts = new Map<string, string>();
  for (const file of ['matching/trec_2021/queries.jsonl', 'matching/sigir/queries.jsonl']) {
    for (const line of readFileSync(path.join(SHARED, file), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const { _id, text } = JSON.parse(line) as { _id: string; text: string };
      texts.set(_id, text);
    }
  }
  return texts;
}

/** A labelled index -> today's criterion index, by the criterion's text (a reader that splits differently moves them). */
function realign(labelled: string[], draft: TrialDraft): Map<number, number> {
  const now = draft.criteria.map((criterion) => clip(criterion.text));
  const map = new Map<number, number>();
  const used = new Set<number>();
  for (const [index, text] of labelled.entries()) {
    let found = now[index] === text && !used.has(index) ? index : now.findIndex((candidate, at) => candidate === text && !used.has(at));
    if (found < 0) found = -1;
    if (found >= 0) {
      used.add(found);
      map.set(index, found);
    }
  }
  return map;
}

function asMatchFacts(facts: CandidateFactInput[]): MatchFact[] {
  return facts.map((fact, index) => ({
    id: `f${index}`,
    kind: fact.kind,
    conceptId: fact.conceptId,
    name: fact.name,
    status: fact.status,
    value: fact.value,
    unit: fact.unit,
    valueText: fact.valueText,
    observedOn: fact.observedOn,
    source: 'note',
  }));
}

/**
 * Whether the person's facts show the trial's condition: a condition fact (present or history) with a concept the
 * vocabulary reads in the trial's listed conditions, or the matcher's own target-condition criterion met by a fact.
 */
function showsCondition(conditions: readonly string[], facts: MatchFact[], target: { id: string } | null, match: PersonMatch): boolean {
  const concepts = new Set(
    conditions.flatMap((condition) =>
      vocabulary()
        .find(condition)
        .map((mention) => mention.concept.id),
    ),
  );
  if (facts.some((fact) => fact.kind === 'condition' && fact.status !== 'absent' && fact.conceptId && concepts.has(fact.conceptId))) return true;
  return Boolean(target && match.outcomes.some((outcome) => outcome.criterionId === target.id && outcome.outcome === 'met' && outcome.factId));
}

// ---- BM25 baseline ----
const tokens = (text: string) => (text.toLowerCase().match(/[a-z][a-z0-9]+/g) ?? []).filter((word) => word.length > 2 && !STOP.has(word));
const STOP = new Set(
  'the and with for has had was are not any who his her she him from this that have been per than into other prior within after before must will may can all also study patients patient participants years year'.split(
    ' ',
  ),
);
function bm25(documents: string[][], query: string[], k1 = 1.2, b = 0.75): number[] {
  const n = documents.length;
  const average = documents.reduce((sum, doc) => sum + doc.length, 0) / n;
  const df = new Map<string, number>();
  for (const doc of documents) for (const word of new Set(doc)) df.set(word, (df.get(word) ?? 0) + 1);
  return documents.map((doc) => {
    const tf = new Map<string, number>();
    for (const word of doc) tf.set(word, (tf.get(word) ?? 0) + 1);
    let score = 0;
    for (const word of new Set(query)) {
      const f = tf.get(word);
      if (!f) continue;
      const idf = Math.log(1 + (n - (df.get(word) ?? 0) + 0.5) / ((df.get(word) ?? 0) + 0.5));
      score += (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * doc.length) / average));
    }
    return score;
  });
}

/** The chance an eligible pair scores above an excluded one (ties half). */
function auc(positive: number[], negative: number[]): number {
  if (!positive.length || !negative.length) return Number.NaN;
  let wins = 0;
  for (const p of positive) for (const q of negative) wins += p > q ? 1 : p === q ? 0.5 : 0;
  return wins / (positive.length * negative.length);
}

/**
 * A 95% interval of the AUC by the bootstrap (2,000 draws of the eligible and the excluded pairs, each with
 * replacement, seeded): how much a set this small lets the figure move.
 */
function aucInterval(positive: number[], negative: number[]): string {
  if (!positive.length || !negative.length) return 'n/a';
  const random = seededRandom(2033);
  const draw = (values: number[]) => values.map(() => values[Math.floor(random() * values.length)]);
  const values: number[] = [];
  for (let i = 0; i < 2000; i++) values.push(auc(draw(positive), draw(negative)));
  values.sort((a, b) => a - b);
  return `${values[49].toFixed(3)}-${values[1949].toFixed(3)}`;
}

const pct = (hits: number, total: number) => (total ? `${((hits / total) * 100).toFixed(1)}% (${hits}/${total})` : 'n/a');

interface Scored {
  pair: BatchPair;
  match: PersonMatch;
  hasTarget: boolean;
  bm25: number;
  decided: number;
  labelled: number;
  agreeing: number;
  decidedWithLabel: number;
  labelledDecided: number;
}

function report(name: string, scored: Scored[]) {
  const eligible = scored.filter((item) => item.pair.overall === 'eligible');
  const excluded = scored.filter((item) => item.pair.overall === 'excluded');
  const notRelevant = scored.filter((item) => item.pair.overall === 'not_relevant');
  const relevant = [...eligible, ...excluded];
  const sum = (items: Scored[], pick: (item: Scored) => number) => items.reduce((total, item) => total + pick(item), 0);
  const likelyWithout = scored.filter((item) => item.match.matchClass === 'likely' && !item.hasTarget);
  console.log(`\n${name}: ${scored.length} pairs (${eligible.length} eligible, ${excluded.length} excluded, ${notRelevant.length} not relevant)`);
  const eligibleScores = eligible.map((item) => item.match.score);
  const excludedScores = excluded.map((item) => item.match.score);
  console.log(
    `  AUC eligible over excluded (matcher score): ${auc(eligibleScores, excludedScores).toFixed(3)} (bootstrap 95%: ${aucInterval(eligibleScores, excludedScores)}; ${eligible.length} x ${excluded.length} pairs)`,
  );
  console.log(
    `  AUC eligible over excluded (BM25 baseline): ${auc(
      eligible.map((item) => item.bm25),
      excluded.map((item) => item.bm25),
    ).toFixed(3)}`,
  );
  console.log(
    `  AUC relevant-eligible over the rest (matcher score): ${auc(
      eligible.map((item) => item.match.score),
      [...excluded, ...notRelevant].map((item) => item.match.score),
    ).toFixed(3)}`,
  );
  console.log(
    `  AUC relevant-eligible over the rest (BM25 baseline): ${auc(
      eligible.map((item) => item.bm25),
      [...excluded, ...notRelevant].map((item) => item.bm25),
    ).toFixed(3)}`,
  );
  console.log(
    `  eligible put in likely or possible: ${pct(eligible.filter((item) => item.match.matchClass !== 'excluded').length, eligible.length)}; in likely: ${pct(eligible.filter((item) => item.match.matchClass === 'likely').length, eligible.length)}`,
  );
  console.log(`  excluded put in excluded: ${pct(excluded.filter((item) => item.match.matchClass === 'excluded').length, excluded.length)}`);
  console.log(`  not relevant kept out of likely: ${pct(notRelevant.filter((item) => item.match.matchClass !== 'likely').length, notRelevant.length)}`);
  console.log(
    `  criteria decided (relevant pairs): ${pct(
      sum(relevant, (item) => item.decided),
      sum(relevant, (item) => item.labelled),
    )}`,
  );
  console.log(
    `    (the labels themselves decide ${pct(
      sum(relevant, (item) => item.labelledDecided),
      sum(relevant, (item) => item.labelled),
    )}: what a note supports)`,
  );
  // The goal's share is of every labelled criterion, unknown-labelled ones included; this one is of those a careful
  // reader decides from the note, the part a reader of notes can reach without deciding from silence.
  console.log(
    `    (of the criteria the labels decide, the matcher decides ${pct(
      sum(relevant, (item) => item.decidedWithLabel),
      sum(relevant, (item) => item.labelledDecided),
    )})`,
  );
  // Honesty: what the matcher decides where the labeller read the note as silent is not checked by the line below.
  console.log(
    `  decided where the label says unknown (not scored for accuracy): ${pct(
      sum(relevant, (item) => item.decided - item.decidedWithLabel),
      sum(relevant, (item) => item.decided),
    )} of decided`,
  );
  console.log(
    `  decided criteria agreeing with a met/not-met label: ${pct(
      sum(relevant, (item) => item.agreeing),
      sum(relevant, (item) => item.decidedWithLabel),
    )}`,
  );
  console.log(
    `  likely without the trial's condition in their facts: ${likelyWithout.length}${likelyWithout.length ? ` (${likelyWithout.map((item) => `${item.pair.patient}/${item.pair.trial}`).join(', ')})` : ''}`,
  );
  // Calibration: in each band of the score, the share of pairs labelled eligible (of all pairs, not-relevant included).
  const bands: Array<[number, number]> = [
    [0, 0.01],
    [0.01, 0.05],
    [0.05, 0.2],
    [0.2, 0.5],
    [0.5, 0.8],
    [0.8, 1.01],
  ];
  const calibration = bands
    .map(([low, high]) => {
      const inBand = scored.filter((item) => item.match.score >= low && item.match.score < high);
      if (!inBand.length) return null;
      const mean = inBand.reduce((total, item) => total + item.match.score, 0) / inBand.length;
      return `${low}-${high > 1 ? 1 : high}: mean ${mean.toFixed(2)}, eligible ${(eligible.filter((item) => inBand.includes(item)).length / inBand.length).toFixed(2)} (${inBand.length})`;
    })
    .filter(Boolean);
  console.log(`  calibration (score band: mean score, share labelled eligible, pairs): ${calibration.join('; ')}`);
  const classes = ['likely', 'possible', 'excluded'] as const;
  for (const overall of ['eligible', 'excluded', 'not_relevant'] as const)
    console.log(
      `    ${overall.padEnd(13)} -> ${classes.map((cls) => `${cls} ${scored.filter((item) => item.pair.overall === overall && item.match.matchClass === cls).length}`).join(', ')}`,
    );
}

/** `--misses`: the development part's criteria where the matcher and the label differ (never the untuned part: it is not read to tune). */
const MISSES = process.argv.includes('--misses');
function misses(pair: BatchPair, draft: TrialDraft, map: Map<number, number>, match: PersonMatch) {
  const labels = new Map<number, string>();
  for (const i of pair.met) labels.set(i, 'met');
  for (const i of pair.notMet) labels.set(i, 'not_met');
  for (const i of pair.notApplicable) labels.set(i, 'na');
  console.log(`\n== ${pair.patient} ${pair.trial} ${pair.overall} -> ${match.matchClass} ${match.score}`);
  for (const [labelled, now] of map) {
    const label = labels.get(labelled) ?? 'unknown';
    const outcome = match.outcomes.find((item) => item.criterionId === String(now));
    if (!outcome || label === 'na' || outcome.outcome === label) continue;
    const criterion = draft.criteria[now];
    console.log(
      `  [${label} vs ${outcome.outcome}] ${criterion.kind} ${criterion.rule ? `${criterion.rule.type}${criterion.needsReview ? '?' : ''}` : 'none'} | ${criterion.text.slice(0, 110)} | ${outcome.reason.slice(0, 80)}`,
    );
  }
}

/** `--why`: the development part's relevant pairs with what lowered each score (never the untuned part). */
const WHY = process.argv.includes('--why');
function why(pair: BatchPair, draft: TrialDraft, match: PersonMatch) {
  console.log(`\n== ${pair.patient} ${pair.trial} ${pair.overall} -> ${match.matchClass} ${match.score}: ${match.summary}`);
  for (const outcome of match.outcomes) {
    if (outcome.outcome === 'met' || outcome.outcome === 'not_applicable') continue;
    const criterion = draft.criteria[Number(outcome.criterionId)];
    const rule = criterion?.rule ? `${criterion.rule.type}${criterion.needsReview ? '?' : ''}` : 'none';
    console.log(`  ${outcome.outcome} ${criterion?.kind ?? 'target'} ${rule} | ${(criterion?.text ?? '').slice(0, 90)} | ${outcome.reason.slice(0, 70)}`);
  }
}

/**
 * `--calibrate`: on the development part only, what the labels say of each kind of criterion by the matcher's outcome
 * (met / not met / unknown labels), so a weight in score.ts can be set from how often such outcomes hold.
 */
const CALIBRATE = process.argv.includes('--calibrate');
const calibration = new Map<string, { met: number; not_met: number; unknown: number }>();
function tallyLabel(criterion: TrialDraft['criteria'][number], outcome: string | undefined, label: string | undefined) {
  const rule = criterion.rule;
  const wanted = rule?.type === 'condition' ? rule.present : rule?.type === 'medication' ? rule.taking : null;
  const key = [
    criterion.kind,
    rule ? `${rule.type}${wanted === null ? '' : wanted ? '+' : '-'}` : 'none',
    criterion.needsReview ? 'unreviewed' : 'reviewed',
    outcome,
  ].join(' ');
  const counts = calibration.get(key) ?? { met: 0, not_met: 0, unknown: 0 };
  counts[(label as 'met' | 'not_met' | undefined) ?? 'unknown']++;
  calibration.set(key, counts);
}

function main() {
  if (!existsSync(path.join(SHARED, 'ctgov/studies.json'))) {
    console.log('eval:matcher: ../shared/data is absent; nothing to evaluate.');
    return;
  }
  const fixture = readFixtures();
  const labelledTrials = new Set(fixture.pairs.map((pair) => pair.trial));
  const texts = publicTexts();
  const studies = JSON.parse(readFileSync(path.join(SHARED, 'ctgov/studies.json'), 'utf8')) as unknown[];
  const drafts = new Map<string, TrialDraft>();
  for (const study of studies) {
    const draft = draftFromStudy(study);
    if (draft.nctId && labelledTrials.has(draft.nctId)) drafts.set(draft.nctId, draft);
  }
  const trialWords = new Map(
    [...drafts].map(([id, draft]) => [id, tokens([draft.title, draft.conditions.join(' '), draft.criteria.map((c) => c.text).join(' ')].join(' '))]),
  );
  // BM25 ranks within the trials of the patient's own batch, so the first batch's baseline keeps its figures.
  const trialsOfBatch = (batch: number) => [...new Set(fixture.pairs.filter((pair) => pair.batch === batch).map((pair) => pair.trial))].sort();
  const batchOf = new Map(fixture.pairs.map((pair) => [pair.patient, pair.batch]));
  const factsOf = new Map<string, MatchFact[]>();
  const bm25Of = new Map<string, Map<string, number>>();
  for (const [id, patient] of Object.entries(fixture.patients)) {
    const text = patient.text ?? texts.get(id);
    if (!text) throw new Error(`no text for ${id}`);
    factsOf.set(id, asMatchFacts(extractNoteFacts(text, { today: TODAY })));
    const trialIds = trialsOfBatch(batchOf.get(id) ?? 1);
    const scores = bm25(
      trialIds.map((trial) => trialWords.get(trial)!),
      tokens(text),
    );
    bm25Of.set(id, new Map(trialIds.map((trial, index) => [trial, scores[index]])));
  }
  let lost = 0;
  const scored: Scored[] = fixture.pairs.map((pair) => {
    const draft = drafts.get(pair.trial)!;
    const criteria = draft.criteria.map((criterion, index) => ({
      id: String(index),
      kind: criterion.kind,
      rule: criterion.rule ?? null,
      ruleSource: criterion.ruleSource ?? null,
      needsReview: criterion.needsReview ?? false,
      population: criterion.population ?? null,
      text: criterion.text,
    }));
    const facts = factsOf.get(pair.patient)!;
    const person = { dateOfBirth: null, sex: 'unknown', facts, completeness: NOTE };
    const trial = { conditions: draft.conditions, healthyVolunteers: draft.healthyVolunteers, criteria };
    const match = matchTrial(trial, person, TODAY);
    const hasTarget = showsCondition(draft.conditions, facts, targetConditionOf(trial), match);
    const map = realign(pair.labelledText, draft);
    let decided = 0;
    let labelled = 0;
    let agreeing = 0;
    let decidedWithLabel = 0;
    let labelledDecided = 0;
    if (pair.overall !== 'not_relevant') {
      const labelOf = new Map<number, 'met' | 'not_met' | 'na'>();
      for (const i of pair.met) labelOf.set(i, 'met');
      for (const i of pair.notMet) labelOf.set(i, 'not_met');
      for (const i of pair.notApplicable) labelOf.set(i, 'na');
      for (let i = 0; i < pair.labelledText.length; i++) {
        const label = labelOf.get(i);
        if (label === 'na') continue;
        const now = map.get(i);
        if (now === undefined) {
          lost++;
          continue;
        }
        const outcome = match.outcomes.find((item) => item.criterionId === String(now))?.outcome;
        if (CALIBRATE && pair.part === 'development') tallyLabel(draft.criteria[now], outcome, label);
        labelled++;
        if (label) labelledDecided++;
        if (outcome === 'met' || outcome === 'not_met') {
          decided++;
          if (label) {
            decidedWithLabel++;
            if (outcome === label) agreeing++;
          }
        }
      }
    }
    if (MISSES && pair.part === 'development' && pair.overall !== 'not_relevant') misses(pair, draft, map, match);
    if (WHY && pair.part === 'development' && pair.overall !== 'not_relevant') why(pair, draft, match);
    return { pair, match, hasTarget, bm25: bm25Of.get(pair.patient)!.get(pair.trial)!, decided, labelled, agreeing, decidedWithLabel, labelledDecided };
  });
  console.log(`Trial matcher on the labelled set (${fixture.pairs.length} pairs; labels realigned by text, ${lost} labelled criteria no longer found)`);
  report(
    'Development part',
    scored.filter((item) => item.pair.part === 'development'),
  );
  // The untuned part's batches apart and together (decision 196): the first 55 pairs (seed 2032), the second batch
  // (seed 2041, labelled before any score was seen on it), and both, each with its own bootstrap interval.
  const untuned = scored.filter((item) => item.pair.part === 'untuned');
  report(
    'Untuned part, first batch (seed 2032)',
    untuned.filter((item) => item.pair.batch === 1),
  );
  report(
    'Untuned part, second batch (seed 2041)',
    untuned.filter((item) => item.pair.batch === 2),
  );
  report('Untuned part, both batches', untuned);
  if (CALIBRATE)
    for (const [key, counts] of [...calibration].sort())
      console.log(`  ${key.padEnd(52)} labels: met ${counts.met}, not met ${counts.not_met}, unknown ${counts.unknown}`);
  if (process.argv.includes('--pairs'))
    for (const item of scored)
      console.log(
        [
          `${item.pair.part[0]}${item.pair.batch}`,
          item.pair.patient,
          item.pair.trial,
          item.pair.overall,
          item.match.matchClass,
          item.match.score,
          item.hasTarget ? 'target' : '-',
          item.bm25.toFixed(1),
        ].join('\t'),
      );
}

main();
