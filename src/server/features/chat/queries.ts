import { and, asc, count, desc, eq, gte, ilike, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/scoped';
import { escapeLike } from '../../db/postgres';
import { candidate, chatAgent, chatConversation, chatMessage, prescreenForm, prescreenResult, trial } from '../../db/schema';
import { isUuid } from '../../../contract/ids';
import { insertInBatches } from '../../db/batched-insert';

export type AgentRow = typeof chatAgent.$inferSelect;
export type AgentInsert = typeof chatAgent.$inferInsert;
export type ConversationRow = typeof chatConversation.$inferSelect;
export type ConversationInsert = typeof chatConversation.$inferInsert;
export type MessageRow = typeof chatMessage.$inferSelect;
export type MessageInsert = typeof chatMessage.$inferInsert;

// ---- agents ----

/** An agent with the names of its trial and form (for the list and the editor). */
export interface ListedAgentRow {
  agent: AgentRow;
  trialTitle: string | null;
  trialPublicTitle: string | null;
  trialStatus: 'draft' | 'recruiting' | 'paused' | 'closed' | null;
  formName: string | null;
  formStatus: 'draft' | 'published' | 'archived' | null;
}

const agentSelection = {
  agent: chatAgent,
  trialTitle: trial.title,
  trialPublicTitle: trial.publicTitle,
  trialStatus: trial.status,
  formName: prescreenForm.name,
  formStatus: prescreenForm.status,
};

export async function listAgentRows(
  executor: Executor,
  organizationIds: readonly string[],
  filter: { type?: string; search?: string } = {},
): Promise<ListedAgentRow[]> {
  if (organizationIds.length === 0) return [];
  const conditions: SQL[] = [inArray(chatAgent.organizationId, [...organizationIds])];
  if (filter.type) conditions.push(eq(chatAgent.type, filter.type as 'PRESCREEN'));
  if (filter.search) conditions.push(ilike(chatAgent.name, `%${escapeLike(filter.search)}%`));
  return executor
    .select(agentSelection)
    .from(chatAgent)
    .leftJoin(trial, eq(trial.id, chatAgent.trialId))
    .leftJoin(prescreenForm, eq(prescreenForm.id, chatAgent.prescreenFormId))
    .where(and(...conditions))
    .orderBy(desc(chatAgent.createdAt), asc(chatAgent.id));
}

export async function listedAgent(executor: Executor, id: string): Promise<ListedAgentRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await executor
    .select(agentSelection)
    .from(chatAgent)
    .leftJoin(trial, eq(trial.id, chatAgent.trialId))
    .leftJoin(prescreenForm, eq(prescreenForm.id, chatAgent.prescreenFormId))
    .where(eq(chatAgent.id, id));
  return row;
}

export async function findAgentRow(executor: Executor, id: string): Promise<AgentRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await executor.select().from(chatAgent).where(eq(chatAgent.id, id));
  return row;
}

/** The organization's active agents with a published form for a recruiting trial, oldest first (the public page's default is the first). */
export async function activeAgentsWithPublishedForm(executor: Executor, organizationId: string): Promise<AgentRow[]> {
  const rows = await executor
    .select({ agent: chatAgent })
    .from(chatAgent)
    .innerJoin(prescreenForm, eq(prescreenForm.id, chatAgent.prescreenFormId))
    .innerJoin(trial, eq(trial.id, prescreenForm.trialId))
    .where(and(eq(chatAgent.organizationId, organizationId), eq(chatAgent.active, true), eq(prescreenForm.status, 'published'), eq(trial.status, 'recruiting')))
    .orderBy(asc(chatAgent.createdAt), asc(chatAgent.id));
  return rows.map((row) => row.agent);
}

export async function insertAgentRow(executor: Executor, values: AgentInsert): Promise<AgentRow> {
  const [row] = await executor.insert(chatAgent).values(values).returning();
  return row;
}

export async function updateAgentRow(executor: Executor, id: string, values: Partial<AgentInsert>): Promise<AgentRow> {
  const [row] = await executor
    .update(chatAgent)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(chatAgent.id, id))
    .returning();
  return row;
}

export async function deleteAgentRow(executor: Executor, id: string): Promise<void> {
  await executor.delete(chatAgent).where(eq(chatAgent.id, id));
}

// ---- conversations ----

export async function insertConversationRow(executor: Executor, values: ConversationInsert): Promise<ConversationRow> {
  const [row] = await executor.insert(chatConversation).values(values).returning();
  return row;
}

export async function findConversationRow(executor: Executor, id: string, forUpdate = false): Promise<ConversationRow | undefined> {
  if (!isUuid(id)) return undefined;
  const query = executor.select().from(chatConversation).where(eq(chatConversation.id, id));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function updateConversationRow(executor: Executor, id: string, values: Partial<ConversationInsert>): Promise<ConversationRow> {
  const [row] = await executor
    .update(chatConversation)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(chatConversation.id, id))
    .returning();
  return row;
}

export async function deleteConversationRow(executor: Executor, id: string): Promise<void> {
  await executor.delete(chatConversation).where(eq(chatConversation.id, id));
}

let lastMessageAt = 0;
/** Strictly increasing times, so messages written in one turn keep their order. */
function messageTime(): Date {
  lastMessageAt = Math.max(Date.now(), lastMessageAt + 1);
  return new Date(lastMessageAt);
}

export async function insertMessageRows(executor: Executor, values: Array<Omit<MessageInsert, 'createdAt'>>): Promise<MessageRow[]> {
  if (values.length === 0) return [];
  return insertInBatches(
    chatMessage,
    values.map((value) => ({ ...value, createdAt: messageTime() })),
    (batch) => executor.insert(chatMessage).values(batch).returning(),
  );
}

export async function listMessageRows(executor: Executor, conversationId: string): Promise<MessageRow[]> {
  return executor.select().from(chatMessage).where(eq(chatMessage.conversationId, conversationId)).orderBy(asc(chatMessage.createdAt), asc(chatMessage.id));
}

// ---- the staff list ----

export interface ConversationFilter {
  organizationIds: string[];
  status?: 'ONGOING' | 'COMPLETED';
  chatAgentId?: string;
  search?: string;
  /** A phone number searched for, already in E.164. */
  searchPhone?: string | null;
  from?: Date;
  /** Exclusive. */
  to?: Date;
  isTest?: boolean;
}

export type ConversationSort = 'createdAt:desc' | 'createdAt:asc' | 'updatedAt:desc' | 'updatedAt:asc' | 'status';

export interface ListedConversationRow {
  conversation: ConversationRow;
  agentName: string | null;
  candidateFirstName: string | null;
  candidateLastName: string | null;
  messageCount: number;
  recommendation: 'PASS' | 'FAIL' | 'INCONCLUSIVE' | 'POTENTIAL' | null;
}

function conversationConditions(filter: ConversationFilter): SQL[] {
  const conditions: SQL[] = [inArray(chatConversation.organizationId, filter.organizationIds)];
  if (filter.status) conditions.push(eq(chatConversation.status, filter.status));
  if (filter.chatAgentId) conditions.push(eq(chatConversation.chatAgentId, filter.chatAgentId));
  if (filter.from) conditions.push(gte(chatConversation.createdAt, filter.from));
  if (filter.to) conditions.push(lt(chatConversation.createdAt, filter.to));
  if (filter.isTest !== undefined) conditions.push(eq(chatConversation.isTest, filter.isTest));
  const term = filter.search?.trim();
  if (filter.searchPhone) {
    conditions.push(sql`(${candidate.phone} = ${filter.searchPhone} or ${chatConversation.phone} = ${filter.searchPhone})`);
  } else if (term) {
    const pattern = `%${escapeLike(term.toLowerCase())}%`;
    const matches: SQL[] = [sql`lower(${candidate.firstName} || ' ' || ${candidate.lastName}) like ${pattern}`];
    const digits = term.replace(/\D/g, '');
    if (digits.length >= 3 && /^[\d\s()+.-]+$/.test(term)) matches.push(sql`${candidate.phone} like ${`%${digits}%`}`);
    conditions.push(sql`(${sql.join(matches, sql` or `)})`);
  }
  return conditions;
}

const ORDER: Record<ConversationSort, SQL[]> = {
  'createdAt:desc': [sql`${chatConversation.createdAt} desc`, sql`${chatConversation.id} desc`],
  'createdAt:asc': [sql`${chatConversation.createdAt} asc`, sql`${chatConversation.id} asc`],
  'updatedAt:desc': [sql`${chatConversation.updatedAt} desc`, sql`${chatConversation.id} desc`],
  'updatedAt:asc': [sql`${chatConversation.updatedAt} asc`, sql`${chatConversation.id} asc`],
  // ONGOING before COMPLETED, newest first within each.
  status: [sql`${chatConversation.status} desc`, sql`${chatConversation.createdAt} desc`, sql`${chatConversation.id} desc`],
};

const messageCount = sql<number>`(select count(*)::int from ${chatMessage} where ${chatMessage.conversationId} = ${chatConversation.id})`;

const listedSelection = {
  conversation: chatConversation,
  agentName: chatAgent.name,
  candidateFirstName: candidate.firstName,
  candidateLastName: candidate.lastName,
  messageCount,
  recommendation: prescreenResult.aiRecommendation,
};

function listedQuery(executor: Executor) {
  return executor
    .select(listedSelection)
    .from(chatConversation)
    .leftJoin(chatAgent, eq(chatAgent.id, chatConversation.chatAgentId))
    .leftJoin(candidate, eq(candidate.id, chatConversation.candidateId))
    .leftJoin(prescreenResult, eq(prescreenResult.id, chatConversation.prescreenResultId));
}

export async function listConversationRows(
  executor: Executor,
  filter: ConversationFilter,
  page: { sortBy: ConversationSort; limit: number; offset: number },
): Promise<ListedConversationRow[]> {
  if (filter.organizationIds.length === 0) return [];
  const rows = await listedQuery(executor)
    .where(and(...conversationConditions(filter)))
    .orderBy(...ORDER[page.sortBy])
    .limit(page.limit)
    .offset(page.offset);
  return rows.map((row) => ({ ...row, messageCount: Number(row.messageCount) }));
}

export async function countConversationRows(executor: Executor, filter: ConversationFilter): Promise<number> {
  if (filter.organizationIds.length === 0) return 0;
  const [row] = await executor
    .select({ total: count() })
    .from(chatConversation)
    .leftJoin(candidate, eq(candidate.id, chatConversation.candidateId))
    .where(and(...conversationConditions(filter)));
  return Number(row.total);
}

export async function listedConversation(executor: Executor, id: string): Promise<ListedConversationRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await listedQuery(executor).where(eq(chatConversation.id, id));
  return row ? { ...row, messageCount: Number(row.messageCount) } : undefined;
}
