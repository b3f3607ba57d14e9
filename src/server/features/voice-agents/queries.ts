import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { TrialStatus } from '../../../contract/trials';
import type { Executor } from '../../db/scoped';
import { candidateTrial, prescreenForm, trial, voiceAgent } from '../../db/schema';
import type { NamedTrial } from '../../../contract/trial-name';
import { isUuid } from '../../../contract/ids';

export type VoiceAgentRow = typeof voiceAgent.$inferSelect;
export type VoiceAgentInsert = typeof voiceAgent.$inferInsert;

export async function findVoiceAgent(executor: Executor, id: string): Promise<VoiceAgentRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await executor.select().from(voiceAgent).where(eq(voiceAgent.id, id));
  return row;
}

export async function listVoiceAgentRows(executor: Executor, organizationIds: readonly string[], type?: VoiceAgentRow['type']): Promise<VoiceAgentRow[]> {
  if (organizationIds.length === 0) return [];
  return executor
    .select()
    .from(voiceAgent)
    .where(and(inArray(voiceAgent.organizationId, [...organizationIds]), type ? eq(voiceAgent.type, type) : undefined))
    .orderBy(desc(voiceAgent.createdAt));
}

/** Who a call is for: the person, and (when the caller knows it) the trial the call is for. */
export interface CallFor {
  /** Absent (with no trial either): any agent that has a trial, e.g. to pick the trial of a bulk run. */
  candidateId?: string;
  /** The trial the call is for (a run over a trial's people): only that trial's agent may call. */
  trialId?: string | null;
}

/** The trial an agent recruits for: its form's trial, else its own (decision 174). */
const agentTrialId = sql<string | null>`coalesce(${prescreenForm.trialId}, ${voiceAgent.trialId})`;

/**
 * The active agent of the type that may call this person (decision 174): one whose trial is the call's trial
 * when it is given, else one of the trials the person is in (candidate_trial), the most recently updated. An
 * agent with no trial calls nobody: its questions belong to no study. With the status of that trial: a
 * prescreen call is only placed for a recruiting trial.
 */
export async function activeVoiceAgent(
  executor: Executor,
  organizationId: string,
  type: VoiceAgentRow['type'],
  forCall: CallFor,
): Promise<ActiveVoiceAgent | undefined> {
  const trialMatch = forCall.trialId
    ? isUuid(forCall.trialId)
      ? sql`${agentTrialId} = ${forCall.trialId}`
      : sql`false`
    : forCall.candidateId
      ? sql`${agentTrialId} in (select ${candidateTrial.trialId} from ${candidateTrial} where ${candidateTrial.candidateId} = ${forCall.candidateId})`
      : sql`${agentTrialId} is not null`;
  const [row] = await executor
    .select({ agent: voiceAgent, trialStatus: trial.status, recruitsForTrialId: trial.id })
    .from(voiceAgent)
    .leftJoin(prescreenForm, eq(prescreenForm.id, voiceAgent.prescreenFormId))
    .leftJoin(trial, eq(trial.id, agentTrialId))
    .where(and(eq(voiceAgent.organizationId, organizationId), eq(voiceAgent.type, type), eq(voiceAgent.active, true), trialMatch))
    .orderBy(desc(voiceAgent.updatedAt))
    .limit(1);
  return row ? { ...row.agent, trialStatus: row.trialStatus, recruitsForTrialId: row.recruitsForTrialId } : undefined;
}

/**
 * Why no agent fits, in words for staff: the trials the call could have been for (the call's, else the
 * person's), by their short names; none when the person is in no trial.
 */
export async function trialsWithoutAgent(executor: Executor, forCall: CallFor): Promise<NamedTrial[]> {
  const named = { title: trial.title, publicTitle: trial.publicTitle };
  if (forCall.trialId) {
    if (!isUuid(forCall.trialId)) return [];
    return executor.select(named).from(trial).where(eq(trial.id, forCall.trialId));
  }
  if (!forCall.candidateId) return [];
  return executor
    .select(named)
    .from(candidateTrial)
    .innerJoin(trial, eq(trial.id, candidateTrial.trialId))
    .where(eq(candidateTrial.candidateId, forCall.candidateId))
    .orderBy(trial.title);
}

/** An agent that may call, with the trial it recruits for (its form's, else its own) and that trial's status. */
export type ActiveVoiceAgent = VoiceAgentRow & { trialStatus: TrialStatus | null; recruitsForTrialId: string | null };

export async function insertVoiceAgent(executor: Executor, values: VoiceAgentInsert): Promise<VoiceAgentRow> {
  const [row] = await executor.insert(voiceAgent).values(values).returning();
  return row;
}

export async function updateVoiceAgent(executor: Executor, id: string, values: Partial<VoiceAgentInsert>): Promise<VoiceAgentRow> {
  const [row] = await executor
    .update(voiceAgent)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(voiceAgent.id, id))
    .returning();
  return row;
}

export async function deleteVoiceAgent(executor: Executor, id: string): Promise<void> {
  await executor.delete(voiceAgent).where(eq(voiceAgent.id, id));
}
