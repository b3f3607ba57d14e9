import { and, asc, desc, eq, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/scoped';
import { contactEvent } from '../../db/schema';

export type ContactEventRow = typeof contactEvent.$inferSelect;

/** A candidate's touches in time order (the index on candidate_id, occurred_at serves it). */
export async function listContactEvents(executor: Executor, candidateId: string, options: { order: 'asc' | 'desc'; kind?: string; limit: number }) {
  const conditions: SQL[] = [eq(contactEvent.candidateId, candidateId)];
  if (options.kind) conditions.push(eq(contactEvent.kind, options.kind));
  const direction = options.order === 'asc' ? asc : desc;
  return executor
    .select()
    .from(contactEvent)
    .where(and(...conditions))
    .orderBy(direction(contactEvent.occurredAt), direction(contactEvent.id))
    .limit(options.limit);
}
