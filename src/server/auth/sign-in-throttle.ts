import { createHmac } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { AppConfig } from '../config';
import type { Database } from '../db/client';
import { signInThrottle } from '../db/schema';

/** Longest wait between two failed sign-ins of one account. */
const MAX_DELAY_SECONDS = 60;

export type ThrottleDecision = { allowed: true; key: string } | { allowed: false; retryAfterSeconds: number };

/**
 * The per-account limit of sign-in attempts (the per-address limit is better-auth's rate limiter, fed the
 * real client address in app.ts). Counts live in the database so that every process shares them.
 *
 * An attempt is counted before the password is checked (one atomic upsert), so parallel guesses cannot slip
 * past the limit; a successful sign-in deletes the row. After `delayAfter` failures each further attempt
 * waits 1, 2, 4 ... seconds (at most a minute) after the previous one; after `maxFailures` the account
 * refuses attempts until the window (which started at the first failure) ends. Then it starts afresh: an
 * attacker can slow a user down, never lock them out for good.
 */
export function createSignInThrottle(db: Database, config: AppConfig) {
  const { maxFailures, windowSeconds, delayAfter } = config.signInAccountLimit;

  const accountKey = (email: string) => `account:${createHmac('sha256', config.authSecret).update(email.trim().toLowerCase()).digest('base64url')}`;

  const delaySeconds = (failures: number) => (failures < delayAfter ? 0 : Math.min(MAX_DELAY_SECONDS, 2 ** (failures - delayAfter)));

  return {
    accountKey,
    /** Counts this attempt when it is allowed; otherwise answers how long to wait. */
    async attempt(email: string): Promise<ThrottleDecision> {
      const key = accountKey(email);
      const now = new Date();
      const windowStart = new Date(now.getTime() - windowSeconds * 1000);
      const expired = sql`${signInThrottle.windowStartedAt} <= ${windowStart.toISOString()}::timestamptz`;
      const result = await db
        .insert(signInThrottle)
        .values({ key, failures: 1, windowStartedAt: now, lastFailureAt: now })
        .onConflictDoUpdate({
          target: signInThrottle.key,
          set: {
            failures: sql`case when ${expired} then 1 else ${signInThrottle.failures} + 1 end`,
            windowStartedAt: sql`case when ${expired} then ${now.toISOString()}::timestamptz else ${signInThrottle.windowStartedAt} end`,
            lastFailureAt: now,
          },
          setWhere: sql`${expired} or (${signInThrottle.failures} < ${maxFailures} and (${signInThrottle.failures} < ${delayAfter}
            or ${signInThrottle.lastFailureAt} + make_interval(secs => least(${MAX_DELAY_SECONDS}, power(2, ${signInThrottle.failures} - ${delayAfter}))) <= ${now.toISOString()}::timestamptz))`,
        })
        .returning({ failures: signInThrottle.failures });
      if (result.length > 0) return { allowed: true, key };

      const [row] = await db.select().from(signInThrottle).where(eq(signInThrottle.key, key));
      if (!row) return { allowed: true, key };
      const windowEnds = row.windowStartedAt.getTime() + windowSeconds * 1000;
      const until = row.failures >= maxFailures ? windowEnds : Math.min(windowEnds, row.lastFailureAt.getTime() + delaySeconds(row.failures) * 1000);
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((until - now.getTime()) / 1000)) };
    },
    /** A successful sign-in: the account starts afresh. */
    async succeeded(key: string) {
      await db.delete(signInThrottle).where(eq(signInThrottle.key, key));
    },
  };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;
