import { and, asc, count, eq, inArray, or, sql } from 'drizzle-orm';
import type { MatchClass } from '../../../contract/matching';
import { candidate, candidateTrial, trialMatch } from '../../db/schema';
import { rowsOf, type Executor } from '../../db/scoped';
import { CLASS_RANK } from './evaluate';

export async function matchCounts(executor: Executor, runId: string): Promise<Record<MatchClass, number>> {
  const rows = await executor
    .select({ matchClass: trialMatch.matchClass, total: count() })
    .from(trialMatch)
    .where(eq(trialMatch.runId, runId))
    .groupBy(trialMatch.matchClass);
  const counts: Record<MatchClass, number> = { likely: 0, possible: 0, excluded: 0 };
  for (const row of rows) counts[row.matchClass] = Number(row.total);
  return counts;
}

export interface MatchPageFilter {
  runId: string;
  trialId: string;
  matchClass?: MatchClass;
  criterionId?: string;
  /** One candidate's row only (decision 133). */
  candidateId?: string;
  q?: string;
  limit: number;
  offset: number;
}

function pageWhere(filter: MatchPageFilter) {
  const criterion = filter.criterionId
    ? filter.matchClass === 'excluded'
      ? sql`${filter.criterionId} = any(${trialMatch.notMetIds})`
      : filter.matchClass
        ? sql`${filter.criterionId} = any(${trialMatch.unknownIds})`
        : sql`(${filter.criterionId} = any(${trialMatch.notMetIds}) or ${filter.criterionId} = any(${trialMatch.unknownIds}))`
    : undefined;
  const words = filter.q ? `%${filter.q.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%` : null;
  const search = words ? sql`(lower(${candidate.firstName} || ' ' || ${candidate.lastName}) like ${words})` : undefined;
  // The class by its rank: the rank is in the results' index.
  return and(
    eq(trialMatch.runId, filter.runId),
    filter.matchClass ? eq(trialMatch.classRank, CLASS_RANK[filter.matchClass]) : undefined,
    filter.candidateId ? eq(trialMatch.candidateId, filter.candidateId) : undefined,
    criterion,
    search,
  );
}

export async function matchPage(executor: Executor, filter: MatchPageFilter, knownTotal?: number) {
  const where = pageWhere(filter);
  const columns = {
    candidateId: trialMatch.candidateId,
    matchClass: trialMatch.matchClass,
    score: trialMatch.score,
    metCount: trialMatch.metCount,
    notMetIds: trialMatch.notMetIds,
    unknownIds: trialMatch.unknownIds,
  };
  // Exactly the index's order (score DESC NULLS LAST), so a page is read off the index, not sorted.
  const order = [asc(trialMatch.classRank), sql`${trialMatch.score} desc nulls last`, asc(trialMatch.candidateId)] as const;
  // The page is chosen in the results' own index; only its rows meet the candidate table (names, status),
  // unless a name search needs the join to filter.
  const ranked = filter.q
    ? await executor
        .select(columns)
        .from(trialMatch)
        .innerJoin(candidate, eq(candidate.id, trialMatch.candidateId))
        .where(where)
        .orderBy(...order)
        .limit(filter.limit)
        .offset(filter.offset)
    : await executor
        .select(columns)
        .from(trialMatch)
        .where(where)
        .orderBy(...order)
        .limit(filter.limit)
        .offset(filter.offset);
  const ids = ranked.map((row) => row.candidateId);
  const people = ids.length
    ? await executor
        .select({ id: candidate.id, firstName: candidate.firstName, lastName: candidate.lastName, status: candidate.status })
        .from(candidate)
        .where(inArray(candidate.id, ids))
    : [];
  const linked = ids.length
    ? await executor
        .select({ candidateId: candidateTrial.candidateId })
        .from(candidateTrial)
        .where(and(eq(candidateTrial.trialId, filter.trialId), inArray(candidateTrial.candidateId, ids)))
    : [];
  const byId = new Map(people.map((person) => [person.id, person]));
  const inTrial = new Set(linked.map((row) => row.candidateId));
  const rows = ranked.flatMap((row) => {
    const person = byId.get(row.candidateId);
    return person ? [{ ...row, firstName: person.firstName, lastName: person.lastName, status: person.status, inTrial: inTrial.has(row.candidateId) }] : [];
  });
  if (knownTotal !== undefined) return { rows, total: knownTotal };
  const [total] = filter.q
    ? await executor.select({ total: count() }).from(trialMatch).innerJoin(candidate, eq(candidate.id, trialMatch.candidateId)).where(where)
    : await executor.select({ total: count() }).from(trialMatch).where(where);
  return { rows, total: Number(total?.total ?? 0) };
}

/** Criteria by how many candidates they exclude, and for how many each is the only criterion not met. */
export async function excludingCounts(executor: Executor, runId: string) {
  const result = await executor.execute(sql`
    select c.criterion_id, count(*)::int as excluded, count(*) filter (where cardinality(m.not_met_ids) = 1)::int as only_blocker
    from ${trialMatch} m, unnest(m.not_met_ids) as c(criterion_id)
    where m.run_id = ${runId}
    group by c.criterion_id`);
  return rowsOf<{ criterion_id: string; excluded: number; only_blocker: number }>(result);
}

/** Criteria by how many candidates who are not excluded nothing known decides. */
export async function unknownCounts(executor: Executor, runId: string) {
  const result = await executor.execute(sql`
    select c.criterion_id, count(*)::int as unknown
    from ${trialMatch} m, unnest(m.unknown_ids) as c(criterion_id)
    where m.run_id = ${runId} and m.class_rank < 2
    group by c.criterion_id`);
  return rowsOf<{ criterion_id: string; unknown: number }>(result);
}

/** The candidates a change to one criterion could move: those it alone excludes, and everyone not excluded. */
export async function whatIfPool(executor: Executor, runId: string, criterionId: string) {
  return executor
    .select({ candidateId: trialMatch.candidateId, matchClass: trialMatch.matchClass })
    .from(trialMatch)
    .where(and(eq(trialMatch.runId, runId), or(sql`${trialMatch.classRank} < 2`, sql`${trialMatch.notMetIds} = array[${criterionId}]::text[]`)));
}
