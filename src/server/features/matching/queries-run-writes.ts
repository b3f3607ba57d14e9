import { sql } from 'drizzle-orm';
import { candidate, processingRun, trial, trialMatch } from '../../db/schema';
import type { Executor } from '../../db/scoped';
import { TRIAL_MATCH_RUN_KIND, arrayLiteral, idList, numberArray } from './queries-literals';

export type TrialMatchInsert = typeof trialMatch.$inferInsert;
/** A result row as a slice writes it; its id lists may be shared with other rows (compiled.ts `IdList`). */
export type MatchRowInsert = Pick<TrialMatchInsert, 'candidateId' | 'matchClass' | 'classRank' | 'score' | 'metCount' | 'unknownCount'> & {
  notMetIds: readonly string[];
  unknownIds: readonly string[];
};

/**
 * A slice of results in one set-based statement (decision 038): one array parameter per column, unnested,
 * instead of a row per parameter set or a JSON document per row. The criterion id lists go once per distinct list
 * (one array object: the run shares a list among the people who have it, decision 104), as a text array of array
 * literals cast once each; a row names its two lists by position. No conflict handling: a slice and the run's
 * cursor commit together, so a resumed run never writes a candidate twice. trial_match has no foreign keys
 * (decision 087): a trial deleted during the run is skipped here instead of failing the write. A candidate deleted
 * since the slice was read is not looked up (10,000 index probes, a fifth of a slice's write): their row is
 * deleted after the run completes (`dropSupersededResults`), and no page shows it meanwhile (a page keeps the rows
 * whose candidate it finds).
 */
export async function insertMatches(executor: Executor, run: { runId: string; organizationId: string; trialId: string }, rows: readonly MatchRowInsert[]) {
  if (rows.length === 0) return;
  const plain = new Set<string>();
  const listAt = new Map<readonly string[], number>();
  const lists: string[] = [];
  const positionOf = (ids: readonly string[]) => {
    let at = listAt.get(ids);
    if (at === undefined) {
      at = lists.push(idList(ids, plain));
      listAt.set(ids, at);
    }
    return at;
  };
  const notMet = rows.map((row) => positionOf(row.notMetIds));
  const unknown = rows.map((row) => positionOf(row.unknownIds));
  // The unnested slice (25,000 rows) held in memory rather than spilt to a temporary file (work_mem is 4 MB by
  // default); for the rest of the caller's transaction only.
  await executor.execute(sql`set local work_mem = '64MB'`);
  await executor.execute(sql`
    with lists as (select l.at::int as at, l.ids::text[] as ids from unnest(${arrayLiteral(lists)}::text[]) with ordinality as l(ids, at)),
    r as (
      select * from unnest(
        ${arrayLiteral(rows.map((row) => row.candidateId))}::uuid[],
        ${arrayLiteral(rows.map((row) => row.matchClass))}::text[],
        ${numberArray(rows.map((row) => row.classRank))}::smallint[],
        ${numberArray(rows.map((row) => row.score))}::real[],
        ${numberArray(rows.map((row) => row.metCount))}::int[],
        ${numberArray(rows.map((row) => row.unknownCount))}::int[],
        ${numberArray(notMet)}::int[],
        ${numberArray(unknown)}::int[]
      ) as r(candidate_id, match_class, class_rank, score, met_count, unknown_count, not_met_list, unknown_list)
    )
    insert into ${trialMatch} (run_id, organization_id, trial_id, candidate_id, match_class, class_rank, score, met_count, unknown_count, not_met_ids, unknown_ids)
    select ${run.runId}::uuid, ${run.organizationId}::uuid, ${run.trialId}::uuid, r.candidate_id, r.match_class, r.class_rank, r.score, r.met_count, r.unknown_count, n.ids, u.ids
    from r
    join lists n on n.at = r.not_met_list
    join lists u on u.at = r.unknown_list
    where exists (select 1 from ${trial} t where t.id = ${run.trialId}::uuid)`);
}

/**
 * After a run completed (decision 113: not in its completing transaction, so the results show as soon as they are
 * whole): the rows of the trial's runs begun before it, which it replaces, and its own rows of candidates deleted
 * during the run. Readers read one run's rows (the trial's latest completed), so until this runs nothing shows
 * twice; a process stopped before it leaves rows the next completed run deletes. Runs begun before this one are
 * all finished (one open run per trial); a run begun after it is never touched. Found by the trial's runs
 * (processing runs are never deleted but with their organization, whose results go with it): trial_match has no
 * index on the trial.
 */
export async function dropSupersededResults(executor: Executor, trialId: string, runId: string) {
  await executor.execute(sql`
    delete from ${trialMatch} m
    using ${processingRun} r, ${processingRun} kept
    where kept.id = ${runId}::uuid
      and r.kind = ${TRIAL_MATCH_RUN_KIND} and r.options->>'trialId' = ${trialId} and r.created_at < kept.created_at
      and m.run_id = r.id`);
  await executor.execute(sql`
    delete from ${trialMatch} m
    where m.run_id = ${runId}::uuid and not exists (select 1 from ${candidate} c where c.id = m.candidate_id)`);
}
