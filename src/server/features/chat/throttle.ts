import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { Executor } from '../../db/scoped';
import { requestThrottle } from '../../db/schema';
import { AppError } from '../../http/errors';

/**
 * Fixed-window rate limits for the public chat endpoints, on `request_throttle` (shared by every app
 * process). Keys are hashed: the table never holds an address or a conversation id.
 */

export interface Limit {
  /** The bucket's name, e.g. 'chat:entry:ip'. */
  name: string;
  max: number;
  windowMs: number;
}

export const CHAT_LIMITS = {
  /** Starting conversations and verifying phones, per address. */
  entryPerAddress: { name: 'chat:entry:ip', max: 30, windowMs: 60_000 },
  /** Messages and resumes, per address (a page with several conversations open). */
  publicPerAddress: { name: 'chat:public:ip', max: 120, windowMs: 60_000 },
  /** Messages of one conversation. */
  messagesPerConversation: { name: 'chat:messages:conversation', max: 20, windowMs: 60_000 },
  /** SMS codes sent for one conversation. */
  codesPerConversation: { name: 'chat:codes:conversation', max: 3, windowMs: 10 * 60_000 },
} satisfies Record<string, Limit>;

export const throttleKey = (limit: Limit, subject: string) => createHash('sha256').update(`${limit.name}\u0000${subject}`).digest('hex');

/** Counts one request; returns whether it is within the limit. */
export async function hit(executor: Executor, limit: Limit, subject: string, now = new Date()): Promise<boolean> {
  const key = throttleKey(limit, subject);
  const windowStart = sql`${new Date(now.getTime() - limit.windowMs).toISOString()}::timestamptz`;
  const started = sql`${now.toISOString()}::timestamptz`;
  const [row] = await executor
    .insert(requestThrottle)
    .values({ key, windowStartedAt: now, count: 1 })
    .onConflictDoUpdate({
      target: requestThrottle.key,
      set: {
        count: sql`case when ${requestThrottle.windowStartedAt} <= ${windowStart} then 1 else ${requestThrottle.count} + 1 end`,
        windowStartedAt: sql`case when ${requestThrottle.windowStartedAt} <= ${windowStart} then ${started} else ${requestThrottle.windowStartedAt} end`,
      },
    })
    .returning({ count: requestThrottle.count });
  return row.count <= limit.max;
}

/** Counts one request and answers 429 when over the limit. */
export async function enforce(executor: Executor, limit: Limit, subject: string, message: string, now = new Date()): Promise<void> {
  if (!(await hit(executor, limit, subject, now))) throw new AppError(429, message);
}

/** The client's address: the first x-forwarded-for entry, else the socket's address when the server gives it. */
export function clientAddress(c: Context): string {
  const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
  if (forwarded) return forwarded;
  const real = c.req.header('x-real-ip')?.trim();
  if (real) return real;
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? 'unknown';
}
