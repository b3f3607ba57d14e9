import { sql } from 'drizzle-orm';
import { CONTACTED_STATUS, NEVER_A_CONTACT, NOT_YET_CONTACTED, REACHING_ACTIVITY_KINDS } from '../../../contract/candidate-status';
import { shortTrialTitle } from '../../../contract/trial-name';
import { activityEvent, candidate, processingRun, trial, trialCriterion, trialMatch } from '../../db/schema';
import { rowsOf, type Executor } from '../../db/scoped';
import { TRIAL_MATCH_RUN_KIND, arrayLiteral } from './queries-literals';

/**
 * Each trial's latest completed match run in these organizations (as `matchRuns` finds it): the rows a trial's
 * screen shows. The runs it replaced keep their rows for a moment after it completes (`dropSupersededResults`).
 */
const latestCompletedRuns = (organizationIds: readonly string[]) => sql`(
  select distinct on (r.options->>'trialId') r.id
  from ${processingRun} r
  where r.kind = ${TRIAL_MATCH_RUN_KIND} and r.status = 'completed' and r.organization_id = any(${arrayLiteral(organizationIds)}::uuid[])
  order by r.options->>'trialId', r.created_at desc
)`;

/**
 * `wasContacted` (contract/candidate-status.ts, decisions 159 and 169) in SQL: the status has left new, and a person
 * at do-not-contact counts only when they were reached before (a text, a call, a chat or a move to contacted).
 */
const contactedSql = sql`(c.status <> ${NOT_YET_CONTACTED} and (c.status <> ${NEVER_A_CONTACT} or exists (
  select 1 from ${activityEvent} a
  where a.organization_id = c.organization_id and a.candidate_id = c.id
    and (a.kind = any(${arrayLiteral(REACHING_ACTIVITY_KINDS)}::text[]) or (a.kind = 'status_changed' and a.label = ${CONTACTED_STATUS})))))`;

/**
 * The dashboard's matcher summary over organizations (decision 032): per trial, its latest completed run's
 * results, how many of the matched candidates were contacted and converted (enrolled). Trials are named briefly.
 */
export async function matcherSummaryRows(executor: Executor, organizationIds: readonly string[]) {
  if (!organizationIds.length) return [];
  const result = await executor.execute(sql`
    select m.trial_id, t.title, t.public_title,
      count(*) filter (where m.class_rank < 2)::int as found,
      count(*) filter (where m.class_rank = 0)::int as likely,
      count(*) filter (where m.class_rank = 1)::int as possible,
      count(*) filter (where m.class_rank < 2 and ${contactedSql})::int as contacted,
      count(*) filter (where m.class_rank < 2 and c.status = 'enrolled')::int as converted
    from ${latestCompletedRuns(organizationIds)} r
    join ${trialMatch} m on m.run_id = r.id
    join ${trial} t on t.id = m.trial_id
    join ${candidate} c on c.id = m.candidate_id
    group by m.trial_id, t.title, t.public_title
    order by found desc, t.title`);
  type Row = {
    trial_id: string;
    title: string;
    public_title: string | null;
    found: number;
    likely: number;
    possible: number;
    contacted: number;
    converted: number;
  };
  return rowsOf<Row>(result).map(({ public_title, ...row }) => ({ ...row, title: shortTrialTitle({ title: row.title, publicTitle: public_title }) }));
}

/** The criteria that most often stand between the completed runs' candidates and a match, with their text. */
export async function matcherTopGapRows(executor: Executor, organizationIds: readonly string[], limit: number) {
  if (!organizationIds.length) return [];
  const result = await executor.execute(sql`
    with gaps as (
      select m.trial_id, g.criterion_id, count(*) filter (where g.gap = 'not_met')::int as not_met, count(*) filter (where g.gap = 'unknown')::int as unknown
      from ${latestCompletedRuns(organizationIds)} r
      join ${trialMatch} m on m.run_id = r.id
      cross join lateral (
        select n as criterion_id, 'not_met' as gap from unnest(m.not_met_ids) n
        union all
        select u, 'unknown' from unnest(m.unknown_ids) u where m.class_rank < 2
      ) g
      group by m.trial_id, g.criterion_id
    )
    select gaps.trial_id, t.title, t.public_title, gaps.criterion_id, tc.text, gaps.not_met, gaps.unknown
    from gaps
    join ${trial} t on t.id = gaps.trial_id
    join ${trialCriterion} tc on tc.id::text = gaps.criterion_id
    order by gaps.not_met + gaps.unknown desc, tc.position
    limit ${limit}`);
  type Row = { trial_id: string; title: string; public_title: string | null; criterion_id: string; text: string; not_met: number; unknown: number };
  return rowsOf<Row>(result).map(({ public_title, ...row }) => ({ ...row, title: shortTrialTitle({ title: row.title, publicTitle: public_title }) }));
}
