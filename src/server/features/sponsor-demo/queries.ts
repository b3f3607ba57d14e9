import { and, asc, eq, inArray, min, or, sql } from 'drizzle-orm';
import { CONTACTED_STATUS, REACHING_ACTIVITY_KINDS } from '../../../contract/candidate-status';
import { activityEvent, booking, candidate, candidateTrial, prescreenResult, trial } from '../../db/schema';
import type { Executor } from '../../db/scoped';

/** The reads of the sponsor demo: one trial's candidates and the rows that tell how far each got. Read-only. */

export type SponsorTrialRow = Pick<
  typeof trial.$inferSelect,
  'id' | 'title' | 'publicTitle' | 'nctId' | 'phase' | 'conditions' | 'targetEnrollment' | 'sites' | 'status' | 'sex' | 'maximumAgeYears'
>;

const trialColumns = {
  id: trial.id,
  title: trial.title,
  publicTitle: trial.publicTitle,
  nctId: trial.nctId,
  phase: trial.phase,
  conditions: trial.conditions,
  targetEnrollment: trial.targetEnrollment,
  sites: trial.sites,
  status: trial.status,
  sex: trial.sex,
  maximumAgeYears: trial.maximumAgeYears,
};

export function findRecruitingTrials(executor: Executor, organizationId: string): Promise<SponsorTrialRow[]> {
  return executor
    .select(trialColumns)
    .from(trial)
    .where(and(eq(trial.organizationId, organizationId), eq(trial.status, 'recruiting')))
    .orderBy(asc(trial.title));
}

export async function findTrial(executor: Executor, organizationId: string, trialId: string): Promise<SponsorTrialRow | undefined> {
  const [row] = await executor
    .select(trialColumns)
    .from(trial)
    .where(and(eq(trial.organizationId, organizationId), eq(trial.id, trialId)));
  return row;
}

/** Enrolled candidates per trial (status enrolled), for the trial list. */
export async function enrolledByTrial(executor: Executor, organizationId: string, trialIds: string[]): Promise<Map<string, number>> {
  if (!trialIds.length) return new Map();
  const rows = await executor
    .select({ trialId: candidateTrial.trialId, enrolled: sql<number>`count(*)::int` })
    .from(candidateTrial)
    .innerJoin(candidate, eq(candidate.id, candidateTrial.candidateId))
    .where(and(eq(candidateTrial.organizationId, organizationId), inArray(candidateTrial.trialId, trialIds), eq(candidate.status, 'enrolled')))
    .groupBy(candidateTrial.trialId);
  return new Map(rows.map((row) => [row.trialId, Number(row.enrolled)]));
}

export interface TrialCandidateRow {
  id: string;
  status: string;
  doNotContact: boolean;
  city: string | null;
  region: string | null;
  sex: string;
  dateOfBirth: string | null;
  preferredLanguage: string;
  customFields: Record<string, string | number | boolean | null>;
  linkedAt: Date;
}

export function trialCandidates(executor: Executor, organizationId: string, trialId: string): Promise<TrialCandidateRow[]> {
  return executor
    .select({
      id: candidate.id,
      status: candidate.status,
      doNotContact: candidate.doNotContact,
      city: candidate.city,
      region: candidate.region,
      sex: candidate.sex,
      dateOfBirth: candidate.dateOfBirth,
      preferredLanguage: candidate.preferredLanguage,
      customFields: candidate.customFields,
      linkedAt: candidateTrial.linkedAt,
    })
    .from(candidateTrial)
    .innerJoin(candidate, eq(candidate.id, candidateTrial.candidateId))
    .where(and(eq(candidateTrial.organizationId, organizationId), eq(candidateTrial.trialId, trialId)));
}

export function trialPrescreens(executor: Executor, organizationId: string, trialId: string) {
  return executor
    .select({ candidateId: prescreenResult.candidateId, aiRecommendation: prescreenResult.aiRecommendation, reviewStatus: prescreenResult.reviewStatus })
    .from(prescreenResult)
    .where(and(eq(prescreenResult.organizationId, organizationId), eq(prescreenResult.trialId, trialId)));
}

export function trialBookings(executor: Executor, organizationId: string, trialId: string) {
  return executor
    .select({ candidateId: booking.candidateId, siteId: booking.siteId, status: booking.status, createdAt: booking.createdAt })
    .from(booking)
    .where(and(eq(booking.organizationId, organizationId), eq(booking.trialId, trialId)))
    .orderBy(asc(booking.createdAt));
}

/**
 * The first outreach to each of these candidates: the first event that reached them (decision 169: a text, call or
 * chat, or the status change to contacted). Asked only for the candidates whose count needs it (service.ts).
 */
export async function firstContacts(executor: Executor, organizationId: string, candidateIds: string[]): Promise<Map<string, Date>> {
  const contacts = new Map<string, Date>();
  if (!candidateIds.length) return contacts;
  const rows = await executor
    .select({ candidateId: activityEvent.candidateId, at: min(activityEvent.occurredAt) })
    .from(activityEvent)
    .where(
      and(
        eq(activityEvent.organizationId, organizationId),
        or(inArray(activityEvent.kind, [...REACHING_ACTIVITY_KINDS]), and(eq(activityEvent.kind, 'status_changed'), eq(activityEvent.label, CONTACTED_STATUS))),
        sql`${activityEvent.candidateId} = any(${`{${candidateIds.join(',')}}`}::uuid[])`,
      ),
    )
    .groupBy(activityEvent.candidateId);
  for (const row of rows) if (row.candidateId && row.at) contacts.set(row.candidateId, new Date(row.at));
  return contacts;
}
