import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../db/scoped';
import { processingRun } from '../../db/schema';

/** An open call older than this no longer counts against the limit: its webhook may never come (reconcile ends it). */
export const OPEN_CALL_WINDOW_MINUTES = 30;

/** Which trial links make a candidate part of a bulk run (see dueCandidates). */
export type TrialFilter =
  | { kind: 'trial'; trialId: string }
  | { kind: 'trialOrUnlinked'; trialId: string }
  | { kind: 'all' }
  /** A selection of people, whatever trial they are linked to. */
  | { kind: 'candidates'; candidateIds: string[] };

function trialCondition(filter: TrialFilter): SQL {
  if (filter.kind === 'trial') return sql`exists (select 1 from candidate_trial ct where ct.candidate_id = c.id and ct.trial_id = ${filter.trialId}::uuid)`;
  if (filter.kind === 'trialOrUnlinked') {
    return sql`(exists (select 1 from candidate_trial ct where ct.candidate_id = c.id and ct.trial_id = ${filter.trialId}::uuid)
      or not exists (select 1 from candidate_trial ct where ct.candidate_id = c.id))`;
  }
  if (filter.kind === 'candidates') return sql`c.id in (select (jsonb_array_elements_text(${JSON.stringify(filter.candidateIds)}::jsonb))::uuid)`;
  return sql`true`;
}

/**
 * Candidates (alias c) due a prescreen call: new or contacted, with a phone, no prescreen result, no open call,
 * no open callback. Every subquery is an index probe by candidate id (result, call, callback indexes).
 */
function dueCondition(organizationId: string, filter: TrialFilter): SQL {
  return sql`c.organization_id = ${organizationId}::uuid
    and c.status in ('new', 'contacted')
    and c.phone is not null
    and not exists (select 1 from prescreen_result r where r.candidate_id = c.id)
    and not exists (select 1 from call k where k.candidate_id = c.id and k.status in ('queued', 'ringing', 'in_progress'))
    and not exists (select 1 from callback b where b.candidate_id = c.id and b.status in ('pending', 'calling'))
    and ${trialCondition(filter)}`;
}

/** Stores one pending item per due candidate (row numbers in creation order) in one INSERT ... SELECT; returns how many. */
export async function insertDueItems(executor: Executor, input: { organizationId: string; runId: string; filter: TrialFilter }): Promise<number> {
  const result = await executor.execute(sql`
    with inserted as (
      insert into processing_run_item (organization_id, run_id, row_number, candidate_id, input)
      select ${input.organizationId}::uuid, ${input.runId}::uuid, row_number() over (order by c.created_at, c.id), c.id, jsonb_build_object('candidateId', c.id)
      from candidate c
      where ${dueCondition(input.organizationId, input.filter)}
      returning 1
    )
    select count(*)::int as total from inserted`);
  return Number(rowsOf<{ total: number }>(result)[0]?.total ?? 0);
}

/** Serializes run creation per organization until the transaction ends, so two requests cannot both start a run. */
export async function lockPrescreenRunsOf(executor: Executor, organizationId: string): Promise<void> {
  await executor.execute(sql`select pg_advisory_xact_lock(hashtext(${`prescreen_calls:${organizationId}`}))`);
}

export async function findOpenRun(executor: Executor, organizationId: string, kind: string) {
  const [row] = await executor
    .select({ id: processingRun.id })
    .from(processingRun)
    .where(and(eq(processingRun.organizationId, organizationId), eq(processingRun.kind, kind), inArray(processingRun.status, ['pending', 'running'])))
    .limit(1);
  return row;
}

/** The run's status and the organization's open calls (recent ones only), in one round trip. */
export async function callSlotState(executor: Executor, runId: string, organizationId: string): Promise<{ runStatus: string | null; openCalls: number }> {
  const result = await executor.execute(sql`
    select (select status from processing_run where id = ${runId}::uuid) as run_status,
      (select count(*)::int from call
        where organization_id = ${organizationId}::uuid and status in ('queued', 'ringing', 'in_progress')
          and created_at > now() - ${sql.raw(`interval '${OPEN_CALL_WINDOW_MINUTES} minutes'`)}) as open_calls`);
  const [row] = rowsOf<{ run_status: string | null; open_calls: number }>(result);
  return { runStatus: row?.run_status ?? null, openCalls: Number(row?.open_calls ?? 0) };
}

/** What may make a candidate no longer due, and the call this run already placed them (after an interruption). */
export async function dueState(executor: Executor, candidateId: string, runId: string) {
  const result = await executor.execute(sql`
    select exists (select 1 from prescreen_result r where r.candidate_id = ${candidateId}::uuid) as has_result,
      exists (select 1 from call k where k.candidate_id = ${candidateId}::uuid and k.status in ('queued', 'ringing', 'in_progress')) as has_open_call,
      exists (select 1 from callback b where b.candidate_id = ${candidateId}::uuid and b.status in ('pending', 'calling')) as has_open_callback,
      (select jsonb_build_object('id', k.id, 'status', k.status, 'providerCallId', k.provider_call_id) from call k
        where k.candidate_id = ${candidateId}::uuid and k.processing_run_id = ${runId}::uuid order by k.created_at desc limit 1) as run_call`);
  const [row] = rowsOf<{
    has_result: boolean;
    has_open_call: boolean;
    has_open_callback: boolean;
    run_call: { id: string; status: string; providerCallId: string | null } | null;
  }>(result);
  return {
    hasResult: Boolean(row?.has_result),
    hasOpenCall: Boolean(row?.has_open_call),
    hasOpenCallback: Boolean(row?.has_open_callback),
    runCall: row?.run_call ?? null,
  };
}

/** An item's outcomes; the run kind (prescreen-all.ts) maps them onto the run's counters. */
export type ItemOutcome = 'called' | 'deferred' | 'skipped' | 'failed';
