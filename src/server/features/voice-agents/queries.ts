import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { TrialStatus } from '../../../contract/trials';
import type { Executor } from '../../db/scoped';
import { prescreenForm, trial, voiceAgent } from '../../db/schema';
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

/**
 * The organization's active agent of the type (the most recently updated), with the status of the trial it
 * recruits for (its form's trial, else its own): a prescreen call is only placed for a recruiting trial.
 */
export async function activeVoiceAgent(executor: Executor, organizationId: string, type: VoiceAgentRow['type']): Promise<ActiveVoiceAgent | undefined> {
  const [row] = await executor
    .select({ agent: voiceAgent, trialStatus: trial.status })
    .from(voiceAgent)
    .leftJoin(prescreenForm, eq(prescreenForm.id, voiceAgent.prescreenFormId))
    .leftJoin(trial, eq(trial.id, sql`coalesce(${prescreenForm.trialId}, ${voiceAgent.trialId})`))
    .where(and(eq(voiceAgent.organizationId, organizationId), eq(voiceAgent.type, type), eq(voiceAgent.active, true)))
    .orderBy(desc(voiceAgent.updatedAt))
    .limit(1);
  return row ? { ...row.agent, trialStatus: row.trialStatus } : undefined;
}

export type ActiveVoiceAgent = VoiceAgentRow & { trialStatus: TrialStatus | null };

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
