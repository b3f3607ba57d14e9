import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/scoped';
import { voiceAgent } from '../../db/schema';

export type VoiceAgentRow = typeof voiceAgent.$inferSelect;
export type VoiceAgentInsert = typeof voiceAgent.$inferInsert;

export const isUuid = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

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

/** The organization's active agent of a type (the most recently updated when several are). */
export async function activeVoiceAgent(executor: Executor, organizationId: string, type: VoiceAgentRow['type']): Promise<VoiceAgentRow | undefined> {
  const [row] = await executor
    .select()
    .from(voiceAgent)
    .where(and(eq(voiceAgent.organizationId, organizationId), eq(voiceAgent.type, type), eq(voiceAgent.active, true)))
    .orderBy(desc(voiceAgent.updatedAt))
    .limit(1);
  return row;
}

export async function insertVoiceAgent(executor: Executor, values: VoiceAgentInsert): Promise<VoiceAgentRow> {
  const [row] = await executor.insert(voiceAgent).values(values).returning();
  return row;
}

export async function updateVoiceAgent(executor: Executor, id: string, values: Partial<VoiceAgentInsert>): Promise<VoiceAgentRow> {
  const [row] = await executor.update(voiceAgent).set({ ...values, updatedAt: new Date() }).where(eq(voiceAgent.id, id)).returning();
  return row;
}

export async function deleteVoiceAgent(executor: Executor, id: string): Promise<void> {
  await executor.delete(voiceAgent).where(eq(voiceAgent.id, id));
}
