import { desc, eq } from 'drizzle-orm';
import { mailOutbox } from '../../db/schema';
import type { Executor } from '../../db/scoped';

/** The outbox's reads. The table belongs to no organization: the service lets internal admins only through. */

export function newestMail(executor: Executor, limit: number) {
  return executor
    .select({ id: mailOutbox.id, to: mailOutbox.toAddress, subject: mailOutbox.subject, createdAt: mailOutbox.createdAt })
    .from(mailOutbox)
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(limit);
}

export async function findMail(executor: Executor, id: string) {
  const [row] = await executor.select().from(mailOutbox).where(eq(mailOutbox.id, id));
  return row;
}
