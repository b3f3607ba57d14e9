import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/scoped';
import type { SystemDb } from '../../db/system';
import { organization, phoneNumber, voiceAgent } from '../../db/schema';
import { isUuid } from '../../../contract/ids';

/** A voice agent as the registry sees it: the row of the agents that call from, or answer, a number. */
export type VoiceAgentRow = typeof voiceAgent.$inferSelect;

export type PhoneNumberRow = typeof phoneNumber.$inferSelect;
export type PhoneNumberInsert = typeof phoneNumber.$inferInsert;
export type PhoneNumberListRow = PhoneNumberRow & { organizationName: string };

export async function listPhoneNumberRows(
  executor: Executor,
  organizationIds: readonly string[],
  purpose?: PhoneNumberRow['purpose'],
): Promise<PhoneNumberListRow[]> {
  if (organizationIds.length === 0) return [];
  const rows = await executor
    .select({ row: phoneNumber, organizationName: organization.name })
    .from(phoneNumber)
    .innerJoin(organization, eq(organization.id, phoneNumber.organizationId))
    .where(and(inArray(phoneNumber.organizationId, [...organizationIds]), purpose ? eq(phoneNumber.purpose, purpose) : undefined))
    .orderBy(asc(organization.name), asc(phoneNumber.number));
  return rows.map(({ row, organizationName }) => ({ ...row, organizationName }));
}

export async function findPhoneNumber(executor: Executor, id: string, forUpdate = false): Promise<PhoneNumberRow | undefined> {
  if (!isUuid(id)) return undefined;
  const query = executor.select().from(phoneNumber).where(eq(phoneNumber.id, id));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

/** The registry row of a number, as far as the executor may see (row security hides other tenants' numbers). */
export async function findPhoneNumberByNumber(executor: Executor, number: string): Promise<PhoneNumberRow | undefined> {
  const [row] = await executor.select().from(phoneNumber).where(eq(phoneNumber.number, number));
  return row;
}

/**
 * The number an organization's SMS go out from: its oldest number for SMS (purpose sms or both), so a person
 * keeps one thread with it; undefined when it has none (the installation's shared sender is used).
 */
export async function organizationSmsNumber(executor: Executor, organizationId: string): Promise<string | undefined> {
  const [row] = await executor
    .select({ number: phoneNumber.number })
    .from(phoneNumber)
    .where(and(eq(phoneNumber.organizationId, organizationId), inArray(phoneNumber.purpose, ['sms', 'both'])))
    .orderBy(asc(phoneNumber.createdAt), asc(phoneNumber.number))
    .limit(1);
  return row?.number;
}

export async function organizationName(executor: Executor, organizationId: string): Promise<string> {
  const [row] = await executor.select({ name: organization.name }).from(organization).where(eq(organization.id, organizationId));
  return row?.name ?? '';
}

export async function insertPhoneNumber(executor: Executor, values: PhoneNumberInsert): Promise<PhoneNumberRow> {
  const [row] = await executor.insert(phoneNumber).values(values).returning();
  return row;
}

export async function updatePhoneNumberRow(executor: Executor, id: string, values: Partial<PhoneNumberInsert>): Promise<PhoneNumberRow> {
  const [row] = await executor
    .update(phoneNumber)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(phoneNumber.id, id))
    .returning();
  return row;
}

export async function deletePhoneNumberRow(executor: Executor, id: string): Promise<void> {
  await executor.delete(phoneNumber).where(eq(phoneNumber.id, id));
}

/** The owner's voice agents calling from these numbers (an agent only ever holds its own organization's numbers). */
export async function agentsUsingNumbers(executor: Executor, rows: readonly Pick<PhoneNumberRow, 'organizationId' | 'number'>[]): Promise<VoiceAgentRow[]> {
  if (rows.length === 0) return [];
  const agents = await executor
    .select()
    .from(voiceAgent)
    .where(
      and(
        inArray(voiceAgent.organizationId, [...new Set(rows.map((row) => row.organizationId))]),
        inArray(
          voiceAgent.fromNumber,
          rows.map((row) => row.number),
        ),
      ),
    )
    .orderBy(asc(voiceAgent.name));
  return agents.filter((agent) => rows.some((row) => row.organizationId === agent.organizationId && row.number === agent.fromNumber));
}

/** Takes a number away from the owner's agents (inactive ones only: active ones block a release or a move). */
export async function clearAgentNumbers(executor: Executor, organizationId: string, number: string): Promise<VoiceAgentRow[]> {
  return executor
    .update(voiceAgent)
    .set({ fromNumber: null })
    .where(and(eq(voiceAgent.organizationId, organizationId), eq(voiceAgent.fromNumber, number)))
    .returning();
}

// ---- system path: the inbound webhooks and agent tools, which have no session ----

/**
 * SYSTEM PATH, across all organizations: who owns a called or texted number. Only the inbound paths (Twilio
 * TwiML, the Vapi assistant-request, inbound SMS) and the agent tools use it, before any scope exists; it runs
 * as the owner role.
 */
export async function systemFindNumberOwner(system: SystemDb, number: string): Promise<PhoneNumberRow | undefined> {
  const [row] = await system.select().from(phoneNumber).where(eq(phoneNumber.number, number));
  return row;
}

/**
 * SYSTEM PATH: the agent that answers a call to `number`: the registry's owner of the number, then that
 * organization's active agent calling from it (the most recently updated when several are). Another
 * organization's agent can never answer, whatever its fromNumber says.
 */
export async function systemResolveInboundAgent(system: SystemDb, number: string): Promise<{ phoneNumber: PhoneNumberRow; agent: VoiceAgentRow } | undefined> {
  const owner = await systemFindNumberOwner(system, number);
  if (!owner) return undefined;
  const [agent] = await system
    .select()
    .from(voiceAgent)
    .where(and(eq(voiceAgent.organizationId, owner.organizationId), eq(voiceAgent.fromNumber, number), eq(voiceAgent.active, true)))
    .orderBy(desc(voiceAgent.updatedAt))
    .limit(1);
  return agent ? { phoneNumber: owner, agent } : undefined;
}
