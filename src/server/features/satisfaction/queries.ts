import { and, desc, eq, gte, inArray, isNotNull, lt, type SQL } from 'drizzle-orm';
import type { SatisfactionChannel } from '../../../contract/satisfaction';
import type { Executor } from '../../db/scoped';
import { satisfactionResponse } from '../../db/schema';

export type SatisfactionRow = typeof satisfactionResponse.$inferSelect;

/** Stores a rating once per rated thing: undefined when that chat, call or booking was already rated. */
export async function insertResponseOnce(executor: Executor, values: typeof satisfactionResponse.$inferInsert): Promise<SatisfactionRow | undefined> {
  const [row] = await executor.insert(satisfactionResponse).values(values).onConflictDoNothing().returning();
  return row;
}

export async function findResponse(executor: Executor, channel: SatisfactionChannel, referenceId: string): Promise<SatisfactionRow | undefined> {
  const [row] = await executor
    .select()
    .from(satisfactionResponse)
    .where(and(eq(satisfactionResponse.channel, channel), eq(satisfactionResponse.referenceId, referenceId)));
  return row;
}

export interface CommentFilter {
  organizationIds: string[];
  from?: Date;
  to?: Date;
  channel?: SatisfactionChannel;
  limit: number;
}

/** The newest ratings that came with a comment. */
export async function listComments(executor: Executor, filter: CommentFilter): Promise<SatisfactionRow[]> {
  if (!filter.organizationIds.length) return [];
  const where: SQL[] = [inArray(satisfactionResponse.organizationId, filter.organizationIds), isNotNull(satisfactionResponse.comment)];
  if (filter.from) where.push(gte(satisfactionResponse.createdAt, filter.from));
  if (filter.to) where.push(lt(satisfactionResponse.createdAt, filter.to));
  if (filter.channel) where.push(eq(satisfactionResponse.channel, filter.channel));
  return executor
    .select()
    .from(satisfactionResponse)
    .where(and(...where))
    .orderBy(desc(satisfactionResponse.createdAt))
    .limit(filter.limit);
}
