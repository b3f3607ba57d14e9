import { and, eq, lt, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { simulatedVoiceCall } from '../../db/schema';
import type { ProviderCall } from './port';

/**
 * The voice simulator's calls in the database (decision 124), as a provider keeps them in its own store: the process
 * that plays a conversation writes its states here, and any process answers GET /call/{id}, cancels, and sees a call
 * end. Written with the owner handle, outside our tenancy (a provider's store is not ours; cohortly_app has no rights
 * on the table), and found by the provider's id alone, as a provider's API is asked.
 */
export interface SimulatedCallStore {
  insert(row: { providerCallId: string; organizationId: string; callId: string }): Promise<void>;
  /** A status-update on the way; false when the call was cancelled or has ended (the conversation then stops). */
  setStatus(providerCallId: string, status: string): Promise<boolean>;
  /** The end-of-call report, kept before it is sent so a report that never arrives can be read back. False when cancelled. */
  setEnded(providerCallId: string, report: Partial<ProviderCall>): Promise<boolean>;
  /** The conversation could not go on: ended as Vapi reports a call its pipeline could not carry, unless it had ended. */
  failIfOpen(providerCallId: string): Promise<void>;
  /** The conversation stopped playing (whatever its end). */
  finish(providerCallId: string): Promise<void>;
  cancel(providerCallId: string): Promise<void>;
  /** The provider's view of the call; null when it never placed it (or forgot it: older than `KEPT_DAYS`). */
  fetch(providerCallId: string): Promise<ProviderCall | null>;
}

/** How long the simulator remembers a call (a real provider keeps them longer; the sweep gives up on a call after minutes). */
const KEPT_DAYS = 2;
/** Every this many calls placed, forgotten calls are deleted (one short statement, by the created_at index). */
const PRUNE_EVERY = 500;
/**
 * A conversation plays in a second or two. One whose state has not moved for this long had its process stop under it
 * (a crash, a deploy): the simulated provider then ends it, as a real one ends a call whose assistant went away.
 */
const ABANDONED_AFTER_MS = 5 * 60_000;

const ended = (reason: string): Partial<ProviderCall> => ({ status: 'ended', endedReason: reason, endedAt: new Date().toISOString() });
const asJson = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;

export function createSimulatedCallStore(db: Database): SimulatedCallStore {
  const table = simulatedVoiceCall;
  let placed = 0;
  const notEnded = ne(sql`${table.state}->>'status'`, 'ended');
  const touch = { updatedAt: sql`now()` };

  return {
    async insert({ providerCallId, organizationId, callId }) {
      const state: ProviderCall = { id: providerCallId, status: 'queued', metadata: { callId, organizationId } };
      await db.insert(table).values({ providerCallId, organizationId, callId, state: state as unknown as Record<string, unknown> });
      if (++placed % PRUNE_EVERY === 0) await db.delete(table).where(lt(table.createdAt, new Date(Date.now() - KEPT_DAYS * 86_400_000)));
    },
    async setStatus(providerCallId, status) {
      const rows = await db
        .update(table)
        .set({ state: sql`jsonb_set(${table.state}, '{status}', ${asJson(status)})`, ...touch })
        .where(and(eq(table.providerCallId, providerCallId), eq(table.cancelled, false), notEnded))
        .returning({ id: table.providerCallId });
      return rows.length > 0;
    },
    async setEnded(providerCallId, report) {
      const rows = await db
        .update(table)
        .set({ state: sql`${table.state} || ${asJson({ ...report, status: 'ended' })}`, ...touch })
        .where(and(eq(table.providerCallId, providerCallId), eq(table.cancelled, false)))
        .returning({ id: table.providerCallId });
      return rows.length > 0;
    },
    async failIfOpen(providerCallId) {
      await db
        .update(table)
        .set({ state: sql`${table.state} || ${asJson(ended('pipeline-error-simulator'))}`, ...touch })
        .where(and(eq(table.providerCallId, providerCallId), notEnded));
    },
    async finish(providerCallId) {
      await db
        .update(table)
        .set({ conversationFinished: true, ...touch })
        .where(eq(table.providerCallId, providerCallId));
    },
    async cancel(providerCallId) {
      await db
        .update(table)
        .set({ cancelled: true, ...touch })
        .where(eq(table.providerCallId, providerCallId));
    },
    async fetch(providerCallId) {
      const [row] = await db.select().from(table).where(eq(table.providerCallId, providerCallId));
      if (!row) return null;
      const state = row.state as unknown as ProviderCall;
      if (state.status === 'ended') return state;
      const abandoned = Date.now() - row.updatedAt.getTime() > ABANDONED_AFTER_MS;
      // A conversation that stopped short of an end (a phone left ringing) has, by now, stopped ringing; one nobody
      // plays any more ended with it.
      const end = row.cancelled
        ? ended('manually-canceled')
        : row.conversationFinished || (abandoned && state.status !== 'in-progress')
          ? ended('customer-did-not-answer')
          : abandoned
            ? ended('pipeline-error-simulator')
            : null;
      if (!end) return state;
      // Ended once, in the database: every process asking later reads the same end (the webhook's dedupe key holds).
      const [settled] = await db
        .update(table)
        .set({ state: sql`${table.state} || ${asJson(end)}`, ...touch })
        .where(and(eq(table.providerCallId, providerCallId), notEnded))
        .returning({ state: table.state });
      if (settled) return settled.state as unknown as ProviderCall;
      const [after] = await db.select({ state: table.state }).from(table).where(eq(table.providerCallId, providerCallId));
      return (after?.state as unknown as ProviderCall) ?? null;
    },
  };
}
