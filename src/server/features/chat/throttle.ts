import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { Executor } from '../../db/scoped';
import { requestThrottle } from '../../db/schema';
import { AppError } from '../../http/errors';
import type { AppEnv } from '../../http/context';
import { clientAddressOf } from '../../auth/client-address';

/**
 * Rate limits for the public chat endpoints, on `request_throttle` (shared by every app process). Keys are
 * hashed: the table never holds an address or a conversation id.
 *
 * Two kinds (decision 060):
 * - a fixed window (`max` per `windowMs`): starting chats, verification, SMS codes;
 * - a token bucket (`burst`, refilled at `perMinute`), kept as one timestamp per key (GCRA: the "theoretical
 *   arrival time", stored in `window_started_at`): a burst of `burst` requests at once is allowed, then one
 *   more each 60/perMinute seconds. Chat messages use it, so a person tapping through a long form is never
 *   stopped while a script sending for minutes is.
 */

export interface WindowLimit {
  /** The bucket's name, e.g. 'chat:entry:ip'. */
  name: string;
  max: number;
  windowMs: number;
}
export interface BucketLimit {
  name: string;
  /** Requests allowed at once with a full bucket. */
  burst: number;
  /** Sustained rate: tokens added per minute. */
  perMinute: number;
}
export type Limit = WindowLimit | BucketLimit;

export const CHAT_LIMITS = {
  /** Starting conversations and verifying phones, per address. */
  entryPerAddress: { name: 'chat:entry:ip', max: 30, windowMs: 60_000 },
  /** Messages and resumes, per address: an abuse cap (a clinic's shared address can hold several visitors). */
  publicPerAddress: { name: 'chat:public:ip:bucket', burst: 240, perMinute: 240 },
  /**
   * Messages of one conversation: 30 at once, then one per second. A person answering yes/no as fast as they
   * can read the next question sends far less than one a second for long.
   */
  messagesPerConversation: { name: 'chat:messages:conversation:bucket', burst: 30, perMinute: 60 },
  /** SMS codes sent for one conversation. */
  codesPerConversation: { name: 'chat:codes:conversation', max: 3, windowMs: 10 * 60_000 },
} satisfies Record<string, Limit>;

export const throttleKey = (limit: Limit, subject: string) => createHash('sha256').update(`${limit.name}\u0000${subject}`).digest('hex');

export interface HitResult {
  allowed: boolean;
  /** When refused: how long until a request would be allowed. */
  retryAfterMs: number;
}

/** The token bucket's step (GCRA), pure: the stored arrival time (or null), now -> allowed, the new time, the wait. */
export function bucketStep(limit: BucketLimit, storedMs: number | null, nowMs: number): HitResult & { storedMs: number } {
  const interval = 60_000 / limit.perMinute;
  const tolerance = interval * limit.burst;
  const next = Math.max(storedMs ?? nowMs, nowMs) + interval;
  if (next - nowMs <= tolerance) return { allowed: true, retryAfterMs: 0, storedMs: next };
  return { allowed: false, retryAfterMs: Math.ceil(next - tolerance - nowMs), storedMs: storedMs ?? nowMs };
}

/** Counts one request; returns whether it is within the limit (and, if not, how long to wait). */
export async function hit(executor: Executor, limit: Limit, subject: string, now = new Date()): Promise<HitResult> {
  const key = throttleKey(limit, subject);
  const at = sql`${now.toISOString()}::timestamptz`;
  if ('burst' in limit) {
    const interval = 60_000 / limit.perMinute;
    const tolerance = interval * limit.burst;
    // The same step as bucketStep, in one statement, so concurrent requests cannot both take the last token.
    const next = sql`greatest(${requestThrottle.windowStartedAt}, ${at}) + (${interval} * interval '1 millisecond')`;
    const fits = sql`${next} <= ${at} + (${tolerance} * interval '1 millisecond')`;
    const [row] = await executor
      .insert(requestThrottle)
      .values({ key, windowStartedAt: new Date(now.getTime() + interval), count: 0 })
      .onConflictDoUpdate({
        target: requestThrottle.key,
        set: {
          windowStartedAt: sql`case when ${fits} then ${next} else ${requestThrottle.windowStartedAt} end`,
          count: sql`case when ${fits} then 0 else 1 end`,
        },
      })
      .returning({ at: requestThrottle.windowStartedAt, refused: requestThrottle.count });
    if (row.refused === 0) return { allowed: true, retryAfterMs: 0 };
    return { allowed: false, retryAfterMs: Math.max(1, Math.ceil(Math.max(row.at.getTime(), now.getTime()) + interval - tolerance - now.getTime())) };
  }
  const windowStart = sql`${new Date(now.getTime() - limit.windowMs).toISOString()}::timestamptz`;
  const [row] = await executor
    .insert(requestThrottle)
    .values({ key, windowStartedAt: now, count: 1 })
    .onConflictDoUpdate({
      target: requestThrottle.key,
      set: {
        count: sql`case when ${requestThrottle.windowStartedAt} <= ${windowStart} then 1 else ${requestThrottle.count} + 1 end`,
        windowStartedAt: sql`case when ${requestThrottle.windowStartedAt} <= ${windowStart} then ${at} else ${requestThrottle.windowStartedAt} end`,
      },
    })
    .returning({ count: requestThrottle.count, startedAt: requestThrottle.windowStartedAt });
  if (row.count <= limit.max) return { allowed: true, retryAfterMs: 0 };
  return { allowed: false, retryAfterMs: Math.max(1, row.startedAt.getTime() + limit.windowMs - now.getTime()) };
}

/** Counts one request and answers 429 with Retry-After (seconds) when over the limit. */
export async function enforce(executor: Executor, limit: Limit, subject: string, message: string, now = new Date()): Promise<void> {
  const result = await hit(executor, limit, subject, now);
  if (!result.allowed) {
    const seconds = Math.max(1, Math.ceil(result.retryAfterMs / 1000));
    throw new AppError(429, message, 'TOO_MANY_REQUESTS', [{ path: 'retryAfterSeconds', message: String(seconds) }], { 'Retry-After': String(seconds) });
  }
}

/** The client's address: the socket's, or X-Forwarded-For's right-most untrusted entry behind a TRUSTED_PROXIES proxy. */
export function clientAddress(c: Context<AppEnv>): string {
  return clientAddressOf(c, c.get('deps').config.trustedProxies) ?? 'unknown';
}
