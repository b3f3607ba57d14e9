import { sql } from 'drizzle-orm';
import { shortTrialTitle } from '../../../contract/trial-name';
import { readSites } from '../trials/sites';
import { rowsOf, type Transaction } from '../../db/scoped';
import type { CandidateRow } from '../candidates/service';
import type { EnrollmentRow, SequenceRow } from './queries';

/** What branches look at: what happened since the candidate entered the sequence. */
export interface BranchFacts {
  replied: boolean;
  /** The outcome of the call the sequence placed last (null: none placed, or not ended). */
  callOutcome: string | null;
  callOpen: boolean;
  /** The latest prescreen recommendation since enrollment. */
  prescreen: string | null;
}

export async function branchFacts(tx: Transaction, enrollment: EnrollmentRow, candidateId: string): Promise<BranchFacts> {
  const [row] = rowsOf<{ replied: boolean; call_status: string | null; call_outcome: string | null; prescreen: string | null }>(
    await tx.execute(sql`
      select
        exists (select 1 from sms_message m where m.candidate_id = ${candidateId} and m.direction = 'inbound' and m.created_at >= ${enrollment.enrolledAt}) as replied,
        (select c.status from call c where c.id = ${enrollment.lastCallId}) as call_status,
        (select c.outcome from call c where c.id = ${enrollment.lastCallId}) as call_outcome,
        (select r.ai_recommendation from prescreen_result r where r.candidate_id = ${candidateId} and r.created_at >= ${enrollment.enrolledAt} order by r.created_at desc limit 1) as prescreen`),
  );
  const open = row.call_status !== null && !['ended', 'failed', 'cancelled'].includes(row.call_status);
  return {
    replied: row.replied,
    callOutcome: open ? null : (row.call_outcome ?? (row.call_status ? 'failed' : null)),
    callOpen: open,
    prescreen: row.prescreen,
  };
}

/** The values a sequence message can use ({firstName}, {trialTitle}...) for one candidate. */
export async function messageVariables(
  tx: Transaction,
  sequence: Pick<SequenceRow, 'organizationId' | 'trialId'>,
  candidate: Pick<CandidateRow, 'firstName' | 'lastName'> | null,
): Promise<Record<string, string | null>> {
  const [row] = rowsOf<{ organization_name: string | null; title: string | null; public_title: string | null; sites: unknown }>(
    await tx.execute(sql`
      select o.name as organization_name, t.title, t.public_title, t.sites
      from organization o left join trial t on t.id = ${sequence.trialId}
      where o.id = ${sequence.organizationId}`),
  );
  const sites = readSites((row?.sites ?? []) as never);
  const site = sites.find((item) => item.isOwnSite) ?? sites[0];
  return {
    firstName: candidate?.firstName ?? null,
    lastName: candidate?.lastName || null,
    organizationName: row?.organization_name ?? null,
    trialTitle: row?.title ? shortTrialTitle({ title: row.title, publicTitle: row.public_title }) : null,
    siteAddress: site ? [site.name, site.address, site.city, site.region].filter(Boolean).join(', ') : null,
  };
}
