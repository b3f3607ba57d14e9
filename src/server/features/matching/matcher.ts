import { sql } from 'drizzle-orm';
import type {
  CandidateMatch,
  MatchClass,
  GapAnalysis,
  ListMatchesQuery,
  MatchCounts,
  OtherTrialMatches,
  TrialMatchList,
  TrialMatchOverview,
  WhatIfInput,
  WhatIfResult,
} from '../../../contract/matching';
import { ListMatchesQuerySchema, type NextQuestionsResult } from '../../../contract/matching';
import type { StudyBlock } from '../../../contract/prescreen-forms';
import type { ProcessingRun } from '../../../contract/processing-runs';
import { runScoped, type RequestScope } from '../../auth/scope';
import { runAsOrganization, type Transaction } from '../../db/scoped';
import { systemDb } from '../../db/system';
import type { AppDeps } from '../../http/context';
import { conflict, notFound } from '../../http/errors';
import { bulkUpdate } from '../candidates/service';
import { generateStudyBlocks as generateFormBlocks } from '../prescreen-forms/generator';
import { createForm, getForm, listForms, updateForm } from '../prescreen-forms/service';
import { defineSliceRunKind } from '../processing-runs/runner';
import { toRun } from '../processing-runs/service';
import { CLASS_RANK, matchPerson, type MatchCriterion, type MatchPerson } from './evaluate';
import { TARGET_CONDITION_ID, targetConditionOf } from './target-condition';
import { listFacts, listNotes } from './queries-facts';
import { candidateNotMetJudgements, listJudgements, notMetJudgements } from './queries-judgements';
import { TRIAL_MATCH_RUN_KIND } from './queries-literals';
import { countLinked, findCandidateBasics, linkedTrialIds } from './queries-person';
import { excludingCounts, matchCounts, matchPage, unknownCounts, whatIfPool } from './queries-results';
import {
  type Cursor,
  type MatchRunRow,
  candidateSlice,
  changedSince,
  countOrganizationCandidates,
  factSignatures,
  findTrial,
  matchCriteria,
  matchPeople,
  matchRuns,
  recruitingTrials,
  trialConditions,
} from './queries-run-reads';
import { type MatchRowInsert, dropSupersededResults, insertMatches } from './queries-run-writes';
import { matcherSummaryRows, matcherTopGapRows } from './queries-summary';
import { addSignatures, compileTrial, decodeFacts, matchCompact, type CompactPerson, type CompiledTrial } from './compiled';
import { toFact } from './facts';
import { classWithFlags, flaggedCount, flagsOf, judgeable, judgeCriteria, withJudgements, type Flags } from './llm-judge';

/**
 * The trial matcher (issue 11, decision 025): every candidate of the trial's organization against every
 * criterion rule, as a `trial_match` processing run of the run engine (decision 042: its slice style), slice
 * by slice in creation order. Each slice's results and the run's cursor are written in one transaction, so a
 * run interrupted by a restart resumes after its last slice. A completed run's results replace the trial's
 * earlier ones, which are deleted once it has completed (decision 113).
 */

/**
 * How a run slices its work (decision 038): candidates per slice (one read, one write transaction, one step of
 * progress and of resumption; 10,000 fills decision 104's pipeline sooner than 25,000, measured quiet), and per
 * evaluation step (the event loop is let go in between, so requests are
 * served while a slice is evaluated). Tests and the benchmark change them.
 */
/**
 * A run's slices; the first is smaller (at most `firstSliceSize`) so the pipeline of decision 104 (read the next,
 * write the last while one is evaluated) fills sooner: nothing overlaps the first slice's evaluation and write.
 */
export const matchRunTuning = { sliceSize: 10_000, firstSliceSize: 2_500, evaluateChunk: 2_500 };
/** The what-if pool is read in batches of this many candidates. */
const BATCH = 2000;
const RUN_LABEL = 'Trial matching';

type Deps = AppDeps;

/**
 * The counts a completed run keeps (per class, per criterion), added up slice by slice in the run's options
 * with the cursor, so finishing a run does not count its 100,000 rows again. A run resumed from a cursor
 * written before tallies were kept has none, and is counted in SQL when it finishes.
 */
type Tally = { counts: Record<MatchClass, number>; excluded: Record<string, number>; onlyBlocker: Record<string, number>; unknown: Record<string, number> };
const emptyTally = (): Tally => ({ counts: { likely: 0, possible: 0, excluded: 0 }, excluded: {}, onlyBlocker: {}, unknown: {} });
type RunOptions = { trialId?: unknown; cursor?: Cursor | null; tally?: Tally };

/**
 * The criteria the matcher evaluates for each trial: its target condition first (a key inclusion read from the
 * conditions the trial lists, target-condition.ts), then its own criteria in order.
 */
async function criteriaToMatch(tx: Transaction, trialIds: string[]) {
  const criteria = await matchCriteria(tx, trialIds);
  const trials = await trialConditions(tx, trialIds);
  return trials.flatMap((item) => {
    const own = criteria.filter((criterion) => criterion.trialId === item.id);
    const target = targetConditionOf({ conditions: item.conditions, healthyVolunteers: item.healthyVolunteers, criteria: own });
    return target ? [{ ...target, trialId: item.id, position: -1 }, ...own] : own;
  });
}

async function loadTrial(tx: Transaction, trialId: string) {
  const found = await findTrial(tx, trialId);
  if (!found) throw notFound('Trial not found');
  return found;
}

/** The trial a match run is opened for: its id, organization and short title (the run's label). */
type RunTrial = Pick<Awaited<ReturnType<typeof loadTrial>>, 'id' | 'organizationId' | 'title'>;

/** Opens a trial's match run in the caller's transaction, or answers the run already going for it. */
async function openMatchRun(tx: Transaction, found: RunTrial, createdByUserId: string | null) {
  // One open run per trial: a second request joins it instead of matching twice.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`trial_match:${found.id}`}))`);
  const { latest } = await matchRuns(tx, found.id);
  if (latest && (latest.status === 'pending' || latest.status === 'running')) return latest;
  const total = await countOrganizationCandidates(tx, found.organizationId);
  const { run: created } = await trialMatchRuns.create(tx, {
    organizationId: found.organizationId,
    createdByUserId,
    label: `${RUN_LABEL}: ${found.title.slice(0, 120)}`,
    total,
    options: { trialId: found.id, cursor: null },
    audit: () => ({ trialId: found.id, candidates: total }),
  });
  return trialMatchRuns.begin(tx, created.id);
}

/** Starts matching a trial (or answers the run already going for it). */
export async function startMatch(deps: Deps, scope: RequestScope, trialId: string): Promise<ProcessingRun> {
  const run = await runScoped(deps.db, scope, async (tx) => openMatchRun(tx, await loadTrial(tx, trialId), scope.userId));
  // A joined run is handed over again too: the claim keeps one worker on it, and a run whose process died
  // is taken up.
  await trialMatchRuns.trigger(deps, run.id, run.organizationId);
  return toRun(run);
}

/**
 * Starts matching every recruiting trial of one organization, for work the system does on its behalf (the demo
 * data just written, decision 170): the same runs as `startMatch`, under that organization's scope.
 */
export async function startMatchingRecruitingTrials(deps: Deps, organizationId: string, createdByUserId: string | null): Promise<number> {
  const runs = await runAsOrganization(deps.db, organizationId, async (tx) => {
    const opened = [];
    // The list's one query names each trial as loadTrial would (short title): no read per trial.
    for (const listed of await recruitingTrials(tx, organizationId)) opened.push(await openMatchRun(tx, { ...listed, organizationId }, createdByUserId));
    return opened;
  });
  for (const run of runs) await trialMatchRuns.trigger(deps, run.id, run.organizationId);
  return runs.length;
}

/** A result row as a slice writes it. */
type SliceResult = MatchRowInsert;

/** A candidate of a slice, their facts in the slice's columns (decision 084). */
type SliceRow = CompactPerson & { id: string; createdAt: string };

/** Evaluates a slice in steps, letting the event loop go in between (a slice takes a second or more). */
async function evaluateSlice(trial: CompiledTrial, slice: SliceRow[], tally: Tally, flags: Flags): Promise<SliceResult[]> {
  const rows: SliceResult[] = new Array(slice.length);
  // People per criterion list (most share theirs with many others, decision 104): counted per list, then per criterion.
  const notMetLists = new Map<readonly string[], number>();
  const unknownLists = new Map<readonly string[], number>();
  for (let start = 0; start < slice.length; start += matchRunTuning.evaluateChunk) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    const end = Math.min(slice.length, start + matchRunTuning.evaluateChunk);
    for (let i = start; i < end; i++) {
      const result = matchCompact(trial, slice[i]);
      // A language model's "not met" (decision 097) leaves a likely candidate possibly eligible; most runs have none.
      const matchClass = flags.size ? classWithFlags(result.matchClass, flaggedCount(result.unknownIds, flags.get(slice[i].id))) : result.matchClass;
      rows[i] = {
        candidateId: slice[i].id,
        matchClass,
        classRank: CLASS_RANK[matchClass],
        score: result.score,
        metCount: result.metCount,
        unknownCount: result.unknownIds.length,
        notMetIds: result.notMetIds,
        unknownIds: result.unknownIds,
      };
      tally.counts[matchClass]++;
      if (result.notMetIds.length) notMetLists.set(result.notMetIds, (notMetLists.get(result.notMetIds) ?? 0) + 1);
      if (matchClass !== 'excluded' && result.unknownIds.length) unknownLists.set(result.unknownIds, (unknownLists.get(result.unknownIds) ?? 0) + 1);
    }
  }
  for (const [ids, people] of notMetLists)
    for (const id of ids) {
      tally.excluded[id] = (tally.excluded[id] ?? 0) + people;
      if (ids.length === 1) tally.onlyBlocker[id] = (tally.onlyBlocker[id] ?? 0) + people;
    }
  for (const [ids, people] of unknownLists) for (const id of ids) tally.unknown[id] = (tally.unknown[id] ?? 0) + people;
  return rows;
}

/**
 * Reads a slice's packed facts into columns against the run's signature dictionary. A candidate whose facts do
 * not read whole (a signature whose words hold a separator, never written by the app) or who has facts but no
 * digest (triggers bypassed) is read again as rows and evaluated by evaluate.ts, so no one is judged on a misread
 * fact.
 */
async function readCompactSlice(tx: Transaction, organizationId: string, setup: MatchSetup, after: Cursor | null): Promise<SliceRow[]> {
  const size = after === null ? Math.min(matchRunTuning.sliceSize, matchRunTuning.firstSliceSize) : matchRunTuning.sliceSize;
  const slice = await candidateSlice(tx, organizationId, after, size);
  // One pass names the signatures this run has not met yet (all of them on the first slice, few after): add them, read again.
  let decoded = decodeFacts(setup.compiled, slice.packed);
  if (decoded.unknown.length) {
    addSignatures(setup.compiled, await factSignatures(tx, decoded.unknown));
    decoded = decodeFacts(setup.compiled, slice.packed);
  }
  const { columns, starts, irregular } = decoded;
  const last = slice.ids.length - 1;
  const rows: SliceRow[] = slice.ids.map((id, index) => ({
    id,
    // Only the last one's is read: the cursor after the slice.
    createdAt: index === last ? slice.lastCreatedAt : '',
    dateOfBirth: slice.datesOfBirth[index],
    sex: slice.sexes[index],
    completeness: slice.completeness[index],
    start: starts[index],
    end: starts[index + 1],
    columns,
  }));
  const asRows = [...irregular, ...slice.unpacked];
  if (asRows.length) {
    const people = await matchPeople(
      tx,
      asRows.map((index) => slice.ids[index]),
    );
    for (const index of asRows) rows[index].person = people.get(slice.ids[index]);
  }
  return rows;
}

/**
 * The trial_match run kind (decisions 038, 042): the run engine's slice style. The engine keeps the cursor
 * (creation order) in the run's options, reads the next slice while this one is evaluated and written, and
 * writes each slice's results, its counts and the cursor after it in one transaction by the run's holder, so
 * a run stopped at any point resumes after its last written slice.
 */
export const trialMatchRuns = defineSliceRunKind<Deps, MatchSetup, SliceRow, { rows: SliceResult[]; tally: Tally }, Cursor>({
  kind: TRIAL_MATCH_RUN_KIND,
  messages: {
    failed: 'Matching stopped on an unexpected error; run it again',
    interrupted: 'Matching was interrupted while starting; run it again',
  },
  completion: (run) => {
    const options = run.options as RunOptions & { counts?: Record<MatchClass, number> };
    return { kind: TRIAL_MATCH_RUN_KIND, trialId: options.trialId, ...options.counts };
  },
  async prepare(tx, { run }) {
    const trialId = String((run.options as RunOptions).trialId ?? '');
    const criteria = await criteriaToMatch(tx, [trialId]);
    // Judgements are made one candidate at a time on request: few enough to hold for the whole run.
    const flags = flagsOf(await notMetJudgements(tx, trialId));
    return { trialId, compiled: compileTrial(criteria, new Date()), flags };
  },
  async readSlice(tx, { run }, setup, after) {
    // PostgreSQL's just-in-time compilation costs more than it saves on these statements (about 0.9 s per slice read).
    await tx.execute(sql`set local jit = off`);
    return readCompactSlice(tx, run.organizationId, setup, after);
  },
  cursorAfter: (row) => ({ createdAt: row.createdAt, id: row.id }),
  async processSlice(_ctx, setup, slice) {
    const tally = emptyTally();
    return { rows: await evaluateSlice(setup.compiled, slice, tally, setup.flags), tally };
  },
  async writeSlice(tx, { run: { id: runId, organizationId } }, { setup, rows, result, run }) {
    await tx.execute(sql`set local jit = off`);
    await insertMatches(tx, { runId, organizationId, trialId: setup.trialId }, result.rows);
    // Counts go on from the stored ones; a run begun before counts were kept has none (counted at the end).
    const before = storedTally(run);
    return {
      counters: { succeeded: rows.length - result.tally.counts.excluded },
      options: before ? { tally: addTallies(before, result.tally) } : {},
    };
  },
  async finish(tx, { run: { id: runId } }, _setup, run) {
    const tally = storedTally(run);
    const counts = tally ? tally.counts : await matchCounts(tx, runId);
    const gaps = tally ? tallyGaps(tally) : await runGaps(tx, runId);
    // Kept with the run: the overview, the lists' totals and the gap analysis read them instead of counting 100,000 rows.
    const options: Record<string, unknown> = { ...(run.options as RunOptions) };
    delete options.tally;
    return { ...options, counts, gaps };
  },
  // The results this run replaces, deleted once it shows as completed (decision 113): a re-run's delete of 100,000
  // rows is no longer part of its time to results.
  async afterComplete(tx, { run }) {
    await dropSupersededResults(tx, String((run.options as RunOptions).trialId ?? ''), run.id);
  },
  // The planner needs to know the new rows (PGlite runs no autovacuum): as the owner, after the run. A sample of
  // 3,000 rows instead of the default 30,000 (decision 104): the results' queries only need the run's share of the
  // table, its three classes and the criteria's frequencies; autovacuum's later analyze takes the full sample.
  async afterSlice(deps, { more }) {
    if (more) return;
    await systemDb(deps.db)
      .transaction(async (tx) => {
        await tx.execute(sql`set local default_statistics_target = 10`);
        await tx.execute(sql`analyze trial_match`);
      })
      .catch((error: Error) => deps.logger.warn({ errorName: error.name }, 'analyze after matching failed'));
  },
});
/** For tests and benchmarks: resolves when the run's processing in this process has settled. */
export const whenMatchRunSettled = trialMatchRuns.whenSettled;
/** At start-up (jobs/register.ts lists the kind): continues match runs a stopped process left running. */
export const resumeMatchRuns = trialMatchRuns.resume;

type MatchSetup = { trialId: string; compiled: CompiledTrial; flags: Flags };

/** The counts kept so far: none stored before the first slice means zero; a run resumed from an older cursor has none. */
function storedTally(run: { options: unknown }): Tally | null {
  const options = run.options as RunOptions;
  return (options.cursor ?? null) === null ? emptyTally() : (options.tally ?? null);
}

function addTallies(a: Tally, b: Tally): Tally {
  const add = (x: Record<string, number>, y: Record<string, number>) => {
    const sum = { ...x };
    for (const [key, value] of Object.entries(y)) sum[key] = (sum[key] ?? 0) + value;
    return sum;
  };
  return {
    counts: { likely: a.counts.likely + b.counts.likely, possible: a.counts.possible + b.counts.possible, excluded: a.counts.excluded + b.counts.excluded },
    excluded: add(a.excluded, b.excluded),
    onlyBlocker: add(a.onlyBlocker, b.onlyBlocker),
    unknown: add(a.unknown, b.unknown),
  };
}

/** The stored per-criterion counts of a tally, in the shape `runGaps` counts in SQL. */
const tallyGaps = (tally: Tally): RunGaps => ({
  excluding: Object.entries(tally.excluded).map(([criterionId, excluded]) => ({ criterionId, excluded, onlyBlocker: tally.onlyBlocker[criterionId] ?? 0 })),
  unknown: Object.entries(tally.unknown).map(([criterionId, unknown]) => ({ criterionId, unknown })),
});

// ---- reading results ----

const NOBODY: MatchPerson = { dateOfBirth: null, sex: 'unknown', facts: [] };
/** Whether a criterion is a key fact (who the trial is for) does not depend on the person: ask it of nobody. */
const isKeyCriterion = (criterion: MatchCriterion) => matchPerson([criterion], NOBODY, new Date(), { explain: false }).outcomes[0].key;

type RunGaps = { excluding: Array<{ criterionId: string; excluded: number; onlyBlocker: number }>; unknown: Array<{ criterionId: string; unknown: number }> };

async function runGaps(tx: Transaction, runId: string): Promise<RunGaps> {
  const excluding = await excludingCounts(tx, runId);
  const unknown = await unknownCounts(tx, runId);
  return {
    excluding: excluding.map((row) => ({ criterionId: row.criterion_id, excluded: Number(row.excluded), onlyBlocker: Number(row.only_blocker) })),
    unknown: unknown.map((row) => ({ criterionId: row.criterion_id, unknown: Number(row.unknown) })),
  };
}

/** The per-criterion counts a completed run stored; counted again for a run finished before they were stored. */
async function storedGaps(tx: Transaction, run: MatchRunRow): Promise<RunGaps> {
  return (run.options as { gaps?: RunGaps }).gaps ?? runGaps(tx, run.id);
}

/** The counts a completed run stored; counted again for a run finished before they were stored. */
async function storedCounts(tx: Transaction, run: MatchRunRow): Promise<Record<'likely' | 'possible' | 'excluded', number>> {
  const stored = (run.options as { counts?: Record<'likely' | 'possible' | 'excluded', number> }).counts;
  return stored ?? matchCounts(tx, run.id);
}

const countsOf = (counts: Record<'likely' | 'possible' | 'excluded', number>): MatchCounts => ({
  ...counts,
  total: counts.likely + counts.possible + counts.excluded,
});
const runView = (run: MatchRunRow | null) => {
  if (!run) return null;
  const view = toRun(run);
  return {
    id: view.id,
    status: view.status,
    total: view.total,
    processed: view.processed,
    progress: view.progress,
    createdAt: view.createdAt,
    finishedAt: view.finishedAt,
    error: view.error,
  };
};

export async function matchOverview(deps: Deps, scope: RequestScope, trialId: string): Promise<TrialMatchOverview> {
  return runScoped(deps.db, scope, async (tx) => {
    const found = await loadTrial(tx, trialId);
    const criteria = await criteriaToMatch(tx, [trialId]);
    const runs = await matchRuns(tx, trialId);
    const counts = runs.completed ? await storedCounts(tx, runs.completed) : { likely: 0, possible: 0, excluded: 0 };
    const stale = runs.completed ? await changedSince(tx, found.organizationId, found.updatedAt, runs.completed.createdAt) : false;
    return {
      trial: { id: found.id, title: found.title, status: found.status, targetEnrollment: found.targetEnrollment, organizationId: found.organizationId },
      criteria: criteria.map((criterion) => ({
        id: criterion.id,
        kind: criterion.kind,
        text: criterion.text,
        hasRule: criterion.rule !== null,
        rule: criterion.rule,
        population: criterion.population,
        key: isKeyCriterion(criterion),
      })),
      latestRun: runView(runs.latest),
      resultsRun: runView(runs.completed),
      counts: countsOf(counts),
      stale,
      llmJudge: deps.criterionJudge !== null,
    };
  });
}

export async function listMatches(deps: Deps, scope: RequestScope, trialId: string, query: ListMatchesQuery): Promise<TrialMatchList> {
  const filter = ListMatchesQuerySchema.parse(query);
  return runScoped(deps.db, scope, async (tx) => {
    await loadTrial(tx, trialId);
    const { completed } = await matchRuns(tx, trialId);
    if (!completed) return { matches: [], total: 0 };
    const counts = await storedCounts(tx, completed);
    // Without a name search the total is a stored count, not a scan of every result.
    let knownTotal: number | undefined = filter.q ? undefined : filter.class ? counts[filter.class] : counts.likely + counts.possible + counts.excluded;
    // One candidate's row (decision 133): counted with the page, at most one.
    if (filter.candidateId) knownTotal = undefined;
    else if (filter.criterionId) {
      // Excluded by one criterion: the run counted it. Any other criterion filter is counted now.
      knownTotal =
        filter.class === 'excluded' && knownTotal !== undefined
          ? ((await storedGaps(tx, completed)).excluding.find((row) => row.criterionId === filter.criterionId)?.excluded ?? 0)
          : undefined;
    }
    const page = await matchPage(
      tx,
      {
        runId: completed.id,
        trialId,
        matchClass: filter.class,
        criterionId: filter.criterionId,
        candidateId: filter.candidateId,
        q: filter.q,
        limit: filter.limit,
        offset: filter.offset,
      },
      knownTotal,
    );
    // A model's "not met" on a criterion the row still leaves unknown flags it (decision 097).
    const flags = flagsOf(
      await notMetJudgements(
        tx,
        trialId,
        page.rows.map((row) => row.candidateId),
      ),
    );
    return {
      total: page.total,
      matches: page.rows.map((row) => ({
        candidate: { id: row.candidateId, firstName: row.firstName, lastName: row.lastName, status: row.status },
        inTrial: Boolean(row.inTrial),
        matchClass: row.matchClass,
        score: row.score,
        metCount: row.metCount,
        notMetIds: row.notMetIds,
        unknownIds: row.unknownIds,
        llmFlagged: flaggedCount(row.unknownIds, flags.get(row.candidateId)),
      })),
    };
  });
}

/** One candidate against the trial, criterion by criterion, computed now from their facts, with any `llm` evidence. */
export async function candidateMatch(deps: Deps, scope: RequestScope, trialId: string, candidateId: string): Promise<CandidateMatch> {
  return runScoped(deps.db, scope, async (tx) => (await evaluateCandidate(tx, trialId, candidateId)).match);
}

async function evaluateCandidate(tx: Transaction, trialId: string, candidateId: string) {
  const found = await loadTrial(tx, trialId);
  const person = await findCandidateBasics(tx, candidateId);
  if (!person || person.organizationId !== found.organizationId) throw notFound('Candidate not found');
  const criteria = await criteriaToMatch(tx, [trialId]);
  const facts = await listFacts(tx, candidateId);
  const linked = await linkedTrialIds(tx, candidateId);
  const judgements = await listJudgements(tx, trialId, candidateId);
  const result = matchPerson(criteria, { dateOfBirth: person.dateOfBirth, sex: person.sex, facts }, new Date());
  const factsById = new Map(facts.map((fact) => [fact.id, fact]));
  const { evidence, flagged } = withJudgements(
    result.outcomes.map((outcome, index) => {
      const fact = outcome.factId ? factsById.get(outcome.factId) : undefined;
      return {
        criterionId: outcome.criterionId,
        kind: criteria[index].kind,
        text: criteria[index].text,
        outcome: outcome.outcome,
        key: outcome.key,
        reason: outcome.reason,
        fact: fact ? toFact(fact) : null,
      };
    }),
    judgements,
  );
  const match: CandidateMatch = {
    trialId,
    trialTitle: found.title,
    candidate: { id: person.id, firstName: person.firstName, lastName: person.lastName, status: person.status },
    inTrial: linked.has(trialId),
    matchClass: classWithFlags(result.matchClass, flagged),
    score: result.score,
    summary: result.summary,
    evidence,
    llmFlagged: flagged,
  };
  return { match, criteria, organizationId: found.organizationId };
}

/**
 * The optional language-model judge (decision 097): the candidate's criteria the rules leave unknown, judged
 * against their clinical notes; answers the candidate's evidence with the `llm` judgements.
 */
export async function judgeCandidate(deps: Deps, scope: RequestScope, trialId: string, candidateId: string): Promise<CandidateMatch> {
  const asked = await runScoped(deps.db, scope, async (tx) => {
    const { match, criteria, organizationId } = await evaluateCandidate(tx, trialId, candidateId);
    const notes = await listNotes(tx, candidateId);
    return {
      organizationId,
      criteria: criteria.filter((criterion, index) => judgeable(criterion, match.evidence[index].outcome)),
      notes: [...notes].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()).map((note) => ({ id: note.id, body: note.body })),
    };
  });
  await judgeCriteria(deps, scope, { organizationId: asked.organizationId, trialId, candidateId, criteria: asked.criteria, notes: asked.notes });
  return candidateMatch(deps, scope, trialId, candidateId);
}

export async function gapAnalysis(deps: Deps, scope: RequestScope, trialId: string): Promise<GapAnalysis> {
  return runScoped(deps.db, scope, async (tx) => {
    const found = await loadTrial(tx, trialId);
    const criteria = await criteriaToMatch(tx, [trialId]);
    const { completed } = await matchRuns(tx, trialId);
    if (!completed) return { counts: countsOf({ likely: 0, possible: 0, excluded: 0 }), targetEnrollment: found.targetEnrollment, excluding: [], unknown: [] };
    const counts = await storedCounts(tx, completed);
    const { excluding, unknown } = await storedGaps(tx, completed);
    const byId = new Map(criteria.map((criterion) => [criterion.id, criterion]));
    return {
      counts: countsOf(counts),
      targetEnrollment: found.targetEnrollment,
      excluding: excluding
        .filter((row) => byId.has(row.criterionId))
        .map((row) => ({ ...row, kind: byId.get(row.criterionId)!.kind, text: byId.get(row.criterionId)!.text }))
        .sort((a, b) => b.excluded - a.excluded || b.onlyBlocker - a.onlyBlocker),
      unknown: unknown
        .filter((row) => byId.has(row.criterionId))
        .map((row) => {
          const criterion = byId.get(row.criterionId)!;
          return { criterionId: row.criterionId, kind: criterion.kind, text: criterion.text, unknown: row.unknown, key: isKeyCriterion(criterion) };
        })
        .sort((a, b) => Number(b.key) - Number(a.key) || b.unknown - a.unknown),
    };
  });
}

/** What if one criterion's rule changed (or the criterion were dropped)? Re-evaluates only the people it could move. */
export async function whatIf(deps: Deps, scope: RequestScope, trialId: string, input: WhatIfInput): Promise<WhatIfResult> {
  return runScoped(deps.db, scope, async (tx) => {
    await loadTrial(tx, trialId);
    const criteria = await criteriaToMatch(tx, [trialId]);
    const { completed } = await matchRuns(tx, trialId);
    if (!criteria.some((criterion) => criterion.id === input.criterionId)) throw notFound('Criterion not found');
    if (!completed) throw notFound('No match results yet: run the matcher first');
    const changed: MatchCriterion[] = criteria.flatMap((criterion) =>
      criterion.id !== input.criterionId ? [criterion] : input.rule ? [{ ...criterion, rule: input.rule, ruleSource: 'manual', needsReview: false }] : [],
    );
    const before = await storedCounts(tx, completed);
    const after = { ...before };
    const pool = await whatIfPool(tx, completed.id, input.criterionId);
    // The stored classes hold the language model's flags (decision 098); the changed rules' classes must too, or a
    // flagged candidate would seem to move from possible to likely whatever the change.
    const flags = flagsOf(await notMetJudgements(tx, trialId));
    let admitted = 0;
    let newlyExcluded = 0;
    const today = new Date();
    for (let start = 0; start < pool.length; start += BATCH) {
      const slice = pool.slice(start, start + BATCH);
      const people = await matchPeople(
        tx,
        slice.map((row) => row.candidateId),
      );
      for (const row of slice) {
        const person = people.get(row.candidateId);
        if (!person) continue;
        const result = matchPerson(changed, person, today, { explain: false });
        const next = classWithFlags(result.matchClass, flaggedCount(result.unknownIds, flags.get(row.candidateId)));
        if (next === row.matchClass) continue;
        after[row.matchClass]--;
        after[next]++;
        if (row.matchClass === 'excluded') admitted++;
        else if (next === 'excluded') newlyExcluded++;
      }
    }
    return { criterionId: input.criterionId, before: countsOf(before), after: countsOf(after), admitted, newlyExcluded };
  });
}

/** Links candidates to the trial from the matcher ("add to trial"): the candidates' bulk update, audited per candidate. */
export async function addToTrial(deps: Deps, scope: RequestScope, trialId: string, candidateIds: string[]) {
  const unique = [...new Set(candidateIds)];
  const already = await runScoped(deps.db, scope, async (tx) => {
    await loadTrial(tx, trialId);
    return countLinked(tx, trialId, unique);
  });
  await bulkUpdate(deps.db, scope, { candidateIds: unique, addTrialId: trialId });
  return { added: unique.length - already, alreadyInTrial: already };
}

/**
 * Screen-fail re-matching: the candidate against every other recruiting trial of their organization, computed
 * now. Trials that exclude them are left out; the reasons name what they meet. A language model's "not met" on a
 * criterion the rules leave unknown flags the trial's match as the main run does (decision 098): likely becomes
 * possible, with `llmFlagged`; it never leaves a trial out, and a "met" never promotes.
 */
export async function otherTrialMatches(deps: Deps, scope: RequestScope, candidateId: string): Promise<OtherTrialMatches> {
  return runScoped(deps.db, scope, async (tx) => {
    const person = await findCandidateBasics(tx, candidateId);
    if (!person) throw notFound('Candidate not found');
    const trials = await recruitingTrials(tx, person.organizationId);
    // One statement at a time: a transaction's connection runs them in order anyway.
    const criteria = await criteriaToMatch(
      tx,
      trials.map((item) => item.id),
    );
    const facts = await listFacts(tx, candidateId);
    const linked = await linkedTrialIds(tx, candidateId);
    const judged = await candidateNotMetJudgements(tx, candidateId);
    const today = new Date();
    const matches = trials.flatMap((item) => {
      const own = criteria.filter((criterion) => criterion.trialId === item.id);
      const result = matchPerson(own, { dateOfBirth: person.dateOfBirth, sex: person.sex, facts }, today);
      if (result.matchClass === 'excluded' || own.length === 0) return [];
      const llmFlagged = flaggedCount(result.unknownIds, judged.get(item.id));
      const reasons = result.outcomes.filter((outcome) => outcome.outcome === 'met' && outcome.key).map((outcome) => outcome.reason);
      return [
        {
          trialId: item.id,
          title: item.title,
          matchClass: classWithFlags(result.matchClass, llmFlagged),
          score: result.score,
          inTrial: linked.has(item.id),
          llmFlagged,
          metCount: result.metCount,
          unknownCount: result.unknownIds.length,
          reasons,
        },
      ];
    });
    matches.sort((a, b) => CLASS_RANK[a.matchClass] - CLASS_RANK[b.matchClass] || b.score - a.score);
    return { candidateId, trials: matches };
  });
}

/** The form "what to ask next" fills: one per trial, updated on each click (a new version once it has results). */
export const NEXT_QUESTIONS_FORM_NAME = 'Questions to ask next (from the trial matcher)';

/**
 * Gap analysis in one click: prescreen questions for the criteria nothing on record decides, generated by the
 * prescreen form generator from those criteria only. Into a draft form of the trial staff chose (appended, issue
 * 32), else the trial's "questions to ask next" draft form (created the first time, its questions replaced after).
 * Staff review and publish it like any form.
 */
export async function prescreenFormForUnknowns(
  deps: Deps,
  scope: RequestScope,
  trialId: string,
  criterionIds: string[],
  intoFormId?: string,
): Promise<NextQuestionsResult> {
  const criteria = await runScoped(deps.db, scope, async (tx) => {
    await loadTrial(tx, trialId);
    return matchCriteria(tx, [trialId]);
  });
  // The trial's own condition (target-condition.ts) is no stored criterion: it is asked through the trial's own.
  const wanted = new Set(criterionIds.filter((id) => id !== TARGET_CONDITION_ID));
  const chosen = criteria.filter((criterion) => wanted.has(criterion.id));
  if (chosen.length !== wanted.size) throw notFound('Criterion not found');
  const { blocks } = generateFormBlocks({ criteria: chosen.map((criterion) => ({ ...criterion, population: criterion.population })) });
  const questionCount = blocks.reduce((sum, block) => sum + block.questions.length, 0);
  if (intoFormId) return addToDraft(deps, scope, trialId, intoFormId, blocks);
  const existing = (await listForms(deps.db, scope, [], trialId)).prescreenForms.find((form) => form.name === NEXT_QUESTIONS_FORM_NAME);
  if (existing) {
    await updateForm(deps.db, scope, existing.id, { blocks });
    return { formId: existing.id, formName: existing.name, outcome: 'replaced', created: false, questionCount };
  }
  const form = await createForm(deps.db, scope, { trialId, name: NEXT_QUESTIONS_FORM_NAME, blocks });
  return { formId: form.id, formName: form.name, outcome: 'created', created: true, questionCount };
}

/** The new questions after a draft's own: a question it already has (same id) is not asked twice; block ids kept apart. */
async function addToDraft(deps: Deps, scope: RequestScope, trialId: string, formId: string, blocks: StudyBlock[]): Promise<NextQuestionsResult> {
  const form = await getForm(deps.db, scope, formId);
  if (form.trialId !== trialId) throw notFound('Prescreen form not found');
  if (form.status !== 'draft') throw conflict('Only a draft form can take new questions: choose a draft, or make a new form');
  const questionIds = new Set(form.blocks.flatMap((block) => block.questions.map((question) => question.id)));
  const blockIds = new Set(form.blocks.map((block) => block.id));
  const added = blocks
    .map((block) => ({
      ...block,
      id: blockIds.has(block.id) ? `${block.id}-next-${form.version + 1}` : block.id,
      questions: block.questions.filter((question) => !questionIds.has(question.id)),
    }))
    .filter((block) => block.questions.length > 0);
  const questionCount = added.reduce((sum, block) => sum + block.questions.length, 0);
  if (questionCount) await updateForm(deps.db, scope, form.id, { blocks: [...form.blocks, ...added] });
  return { formId: form.id, formName: form.name, outcome: 'added', created: false, questionCount };
}

/**
 * For the admin dashboard (decision 032): the latest completed matching results of the organizations' trials,
 * with contact and conversion of the matched candidates and the criteria that most often block a match.
 * Runs in the caller's scoped transaction.
 */
export async function matcherDashboard(tx: Transaction, organizationIds: readonly string[], gapLimit = 10) {
  const trials = await matcherSummaryRows(tx, organizationIds);
  const gaps = await matcherTopGapRows(tx, organizationIds, gapLimit);
  return {
    trials: trials.map((row) => ({
      trialId: row.trial_id,
      trialTitle: row.title,
      found: row.found,
      likely: row.likely,
      possible: row.possible,
      contacted: row.contacted,
      converted: row.converted,
    })),
    topGaps: gaps.map((row) => ({
      trialId: row.trial_id,
      trialTitle: row.title,
      criterionId: row.criterion_id,
      text: row.text,
      notMet: row.not_met,
      unknown: row.unknown,
    })),
  };
}
