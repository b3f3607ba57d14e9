import { and, count, eq, inArray, or, sql } from 'drizzle-orm';
import { candidate, candidateTrial } from '../../db/schema';
import type { Executor } from '../../db/scoped';
import { isId } from './queries-literals';

export async function findCandidateBasics(executor: Executor, candidateId: string) {
  if (!isId(candidateId)) return undefined;
  const [row] = await executor
    .select({
      id: candidate.id,
      organizationId: candidate.organizationId,
      firstName: candidate.firstName,
      lastName: candidate.lastName,
      status: candidate.status,
      dateOfBirth: candidate.dateOfBirth,
      sex: candidate.sex,
    })
    .from(candidate)
    .where(eq(candidate.id, candidateId));
  return row;
}

/** The organization's candidate with this phone (E.164) or email, if any. */
export async function findCandidateByContact(executor: Executor, organizationId: string, phone: string | null, email: string | null) {
  if (!phone && !email) return undefined;
  const [row] = await executor
    .select({ id: candidate.id, organizationId: candidate.organizationId })
    .from(candidate)
    .where(
      and(
        eq(candidate.organizationId, organizationId),
        or(phone ? eq(candidate.phone, phone) : undefined, email ? eq(candidate.email, email.toLowerCase()) : undefined),
      ),
    )
    .limit(1);
  return row;
}

/** A health record fills a date of birth or sex the candidate does not have yet; it never overwrites staff's. */
export async function fillMissingDemographics(executor: Executor, candidateId: string, values: { dateOfBirth: string | null; sex: string | null }) {
  await executor
    .update(candidate)
    .set({
      dateOfBirth: sql`coalesce(${candidate.dateOfBirth}, ${values.dateOfBirth}::date)`,
      sex: values.sex && values.sex !== 'unknown' ? sql`case when ${candidate.sex} = 'unknown' then ${values.sex} else ${candidate.sex} end` : undefined,
    })
    .where(eq(candidate.id, candidateId));
}

export async function linkedTrialIds(executor: Executor, candidateId: string): Promise<Set<string>> {
  const rows = await executor.select({ trialId: candidateTrial.trialId }).from(candidateTrial).where(eq(candidateTrial.candidateId, candidateId));
  return new Set(rows.map((row) => row.trialId));
}

/** How many of these candidates are already linked to the trial. */
export async function countLinked(executor: Executor, trialId: string, candidateIds: string[]): Promise<number> {
  if (candidateIds.length === 0) return 0;
  const [row] = await executor
    .select({ total: count() })
    .from(candidateTrial)
    .where(and(eq(candidateTrial.trialId, trialId), inArray(candidateTrial.candidateId, candidateIds)));
  return Number(row?.total ?? 0);
}
