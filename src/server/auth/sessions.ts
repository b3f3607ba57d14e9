import { createHash } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { MemberRole } from '../../contract/users';
import type { AppConfig } from '../config';
import type { Database } from '../db/client';
import { cacheVersion, organization, session as sessionTable } from '../db/schema';
import type { Auth } from './auth';

/** The session cookie better-auth sets (with the __Secure- prefix on https). */
const SESSION_COOKIE_NAMES = ['better-auth.session_token', '__Secure-better-auth.session_token'];
/** Cache at most this many sessions per process; the oldest go first. */
const MAX_ENTRIES = 20_000;

export interface ActiveOrganization {
  id: string;
  slug: string;
  name: string;
  publicId: string;
}

/** What get-session answers (better-auth's session and user, extended by customSession in auth.ts). */
export interface SessionPayload {
  session: { id: string; userId: string; expiresAt: Date; createdAt: Date; [key: string]: unknown };
  user: { id: string; [key: string]: unknown };
  organization: ActiveOrganization | null;
  role: MemberRole | null;
  isAdmin: boolean;
  /** An internal admin's default active organization, the first of the list (decision 181); null for other users. */
  defaultOrganization?: ActiveOrganization | null;
}

export interface ResolvedSession {
  payload: SessionPayload;
  userId: string;
  sessionId: string;
  /** When the session ends unless there is activity (never after `absoluteExpiresAt`), epoch ms. */
  expiresAt: number;
  /** Sign-in time plus SESSION_MAX_HOURS, epoch ms. */
  absoluteExpiresAt: number;
}

interface Entry extends ResolvedSession {
  key: string;
  /** Past this (epoch ms) the entry is not served: read from the database again, SESSION_CACHE_SECONDS after it was. */
  staleAt: number;
  /** From this (epoch ms) a request served from the entry also reads it again in the background: see `REFRESH_FROM`. */
  refreshAt: number;
  refreshing?: boolean;
}

/**
 * A cached session is read again in the background by the first request past a random point between half and three
 * quarters of the cache period, and that request is answered from the entry at once. On PGlite a session read is four
 * statements, each queued behind every other request's (one connection), so a request that had to wait for it waited
 * four times the queue: those were the slowest lists under load. The point is random so that sessions read together
 * (a restart, many sign-ins at once) are not read again together (decision 106). The period itself is unchanged: an
 * entry is never served past it, so a revocation in another process still takes effect within SESSION_CACHE_SECONDS.
 */
const REFRESH_FROM = 0.5;
const REFRESH_SPREAD = 0.25;

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function parseCookies(header: string | null): Map<string, string> {
  const jar = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index > 0) jar.set(part.slice(0, index).trim(), part.slice(index + 1).trim());
  }
  return jar;
}

/**
 * Sessions with an idle timeout and an absolute lifetime, and an in-process cache of validated sessions.
 *
 * - The session row's `expires_at` is the idle deadline: sign-in sets it to now + SESSION_IDLE_MINUTES
 *   (auth.ts), and user activity moves it forward, never past `created_at` + SESSION_MAX_HOURS. better-auth's
 *   own refresh is off, so reading a session (get-session, polling) never extends it. An expired session
 *   answers 401 and its row is deleted.
 * - The cache is keyed by a hash of the session cookie's value and an entry lives
 *   SESSION_CACHE_SECONDS, read again in the background before that by a request it serves (`REFRESH_FROM`). It
 *   holds what get-session answers (user, organization, role), so a request costs no session or membership query
 *   while cached. This process drops entries on sign-out, revocation, account
 *   changes, role and membership changes, and organization changes; another process sees such a change when
 *   its own entry ages out (the TTL bounds the delay).
 */
export class SessionStore {
  private readonly entries = new Map<string, Entry>();
  /** Counts the drops this process made (`invalidateUser`, `clear`): a background read started before one is not kept. */
  private generation = 0;
  private readonly keysByUser = new Map<string, Set<string>>();
  private organizationsCache?: { at: number; version: number; rows: ActiveOrganization[]; byId: Map<string, ActiveOrganization> };
  readonly idleMs: number;
  readonly maxMs: number;
  private readonly ttlMs: number;
  /** Activity moves the idle deadline at most this often (one write per session per interval). */
  private readonly extendEveryMs: number;

  constructor(
    private readonly auth: Auth,
    private readonly db: Database,
    config: AppConfig,
  ) {
    this.idleMs = config.session.idleMinutes * 60_000;
    this.maxMs = config.session.maxHours * 3_600_000;
    this.ttlMs = config.session.cacheSeconds * 1000;
    this.extendEveryMs = Math.min(60_000, this.idleMs / 10);
  }

  /** The cache key of the request's credential: a hash of the session cookie's value (the only credential: decision 120). */
  credentialKey(headers: Headers): string | undefined {
    const cookies = parseCookies(headers.get('cookie'));
    const credential = SESSION_COOKIE_NAMES.map((name) => cookies.get(name)).find(Boolean);
    return credential
      ? createHash('sha256')
          .update(`cookie:${safeDecode(credential)}`)
          .digest('base64url')
      : undefined;
  }

  /**
   * The request's session, or null (none, revoked, idle too long or past its lifetime: the row is then gone).
   * `activity` (a user-initiated request) moves the idle deadline; passive reads do not.
   */
  async resolve(headers: Headers, options: { activity: boolean }): Promise<ResolvedSession | null> {
    const key = this.credentialKey(headers);
    if (!key) return null;
    const now = Date.now();
    let entry = this.entries.get(key);
    if (entry && (now >= entry.staleAt || entry.expiresAt <= now)) {
      // Aged out, or expired as far as this process knows (another process may have extended it): ask the database.
      this.drop(entry);
      entry = undefined;
    }
    if (!entry) {
      const loaded = await this.load(headers, key, now);
      if (!loaded) return null;
      entry = loaded;
    } else if (now >= entry.refreshAt && !entry.refreshing) this.refreshInBackground(headers, entry);
    if (entry.absoluteExpiresAt <= now) {
      await this.end(entry);
      return null;
    }
    if (options.activity && entry.expiresAt - this.idleMs + this.extendEveryMs <= now && entry.expiresAt < entry.absoluteExpiresAt) {
      const [row] = await this.db
        .update(sessionTable)
        .set({
          expiresAt: sql`least(${new Date(now + this.idleMs).toISOString()}::timestamptz, ${sessionTable.createdAt} + ${`${this.maxMs} milliseconds`}::interval)`,
          updatedAt: new Date(now),
        })
        .where(and(eq(sessionTable.id, entry.sessionId), gt(sessionTable.expiresAt, new Date(now))))
        .returning({ expiresAt: sessionTable.expiresAt });
      if (!row) {
        this.drop(entry);
        return null;
      }
      entry.expiresAt = row.expiresAt.getTime();
      entry.payload = { ...entry.payload, session: { ...entry.payload.session, expiresAt: row.expiresAt } };
    }
    return entry;
  }

  private async load(headers: Headers, key: string, now: number, keep: () => boolean = () => true): Promise<Entry | null> {
    const payload = (await this.auth.api.getSession({ headers })) as unknown as SessionPayload | null;
    if (!payload?.session) return null;
    const createdAt = new Date(payload.session.createdAt).getTime();
    const entry: Entry = {
      key,
      staleAt: now + this.ttlMs,
      refreshAt: now + this.ttlMs * (REFRESH_FROM + REFRESH_SPREAD * Math.random()),
      payload,
      userId: payload.user.id,
      sessionId: payload.session.id,
      expiresAt: new Date(payload.session.expiresAt).getTime(),
      absoluteExpiresAt: createdAt + this.maxMs,
    };
    if (entry.absoluteExpiresAt <= now) {
      await this.end(entry);
      return null;
    }
    if (this.ttlMs > 0 && keep()) this.remember(entry);
    return entry;
  }

  /**
   * Reads the entry's session again without holding the request: the fresh entry replaces it, or it goes when the
   * session is gone. Not kept if this process dropped anything meanwhile (a sign-out, a role change): what was read
   * may predate that change, and the next request reads it again.
   */
  private refreshInBackground(headers: Headers, entry: Entry) {
    entry.refreshing = true;
    const generation = this.generation;
    const credential = new Headers(headers);
    this.load(credential, entry.key, Date.now(), () => generation === this.generation)
      .then((fresh) => {
        if (!fresh && generation === this.generation) this.drop(entry);
      })
      .catch(() => undefined)
      .finally(() => {
        entry.refreshing = false;
      });
  }

  /** Past the absolute lifetime: the row goes, whatever its idle deadline says. */
  private async end(entry: Entry) {
    this.drop(entry);
    await this.db.delete(sessionTable).where(eq(sessionTable.id, entry.sessionId));
  }

  private remember(entry: Entry) {
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.values().next().value;
      if (oldest) this.drop(oldest);
    }
    this.entries.set(entry.key, entry);
    let keys = this.keysByUser.get(entry.userId);
    if (!keys) this.keysByUser.set(entry.userId, (keys = new Set()));
    keys.add(entry.key);
  }

  private drop(entry: Entry) {
    if (this.entries.get(entry.key) === entry) this.entries.delete(entry.key);
    const keys = this.keysByUser.get(entry.userId);
    keys?.delete(entry.key);
    if (keys?.size === 0) this.keysByUser.delete(entry.userId);
  }

  /**
   * Ends the session the request's cookie held (a sign-in replaced it): a token the browser has just dropped must
   * not stay usable by whoever copied it (ASVS 5.0 7.2.4, a new token on authentication and the old one ended).
   */
  async endHeldSession(headers: Headers) {
    const held = await this.resolve(headers, { activity: false });
    if (!held) return;
    await this.db.delete(sessionTable).where(eq(sessionTable.id, held.sessionId));
    this.invalidateUser(held.userId);
  }

  /** Forget every cached session of this user (sign-out, revocation, role or membership change, deletion). */
  invalidateUser(userId: string) {
    this.generation++;
    for (const key of this.keysByUser.get(userId) ?? []) this.entries.delete(key);
    this.keysByUser.delete(userId);
  }

  /** Forget everything (an organization was created, renamed or deleted). */
  clear() {
    this.generation++;
    this.entries.clear();
    this.keysByUser.clear();
    this.organizationsCache = undefined;
  }

  /** Forget the organization list (a research site signed up). */
  organizationsChanged() {
    this.organizationsCache = undefined;
  }

  /**
   * Every organization (id, slug, name, public id). The copy kept for the cache period is served only while the
   * organizations' version (cache_version, moved by the organization table's trigger in any process's changing
   * transaction) is the one read with it: one key lookup instead of the list, and never another process's stale
   * list (decision 123). `fresh` reads the list whatever is kept.
   */
  async organizations(options: { fresh?: boolean } = {}): Promise<{ rows: ActiveOrganization[]; byId: Map<string, ActiveOrganization> }> {
    const now = Date.now();
    const kept = this.organizationsCache;
    // Read before the list: a change committed in between makes the next request read the list again, never the reverse.
    const version = await this.organizationsVersion();
    if (!options.fresh && kept && now - kept.at < this.ttlMs && kept.version === version) return kept;
    const rows = await this.db
      .select({ id: organization.id, slug: organization.slug, name: organization.name, publicId: organization.publicId })
      .from(organization)
      .orderBy(organization.createdAt, organization.name);
    const snapshot = { at: now, version, rows, byId: new Map(rows.map((row) => [row.id, row])) };
    if (this.ttlMs > 0) this.organizationsCache = snapshot;
    return snapshot;
  }

  private async organizationsVersion(): Promise<number> {
    const [row] = await this.db.select({ version: cacheVersion.version }).from(cacheVersion).where(eq(cacheVersion.name, 'organizations'));
    return Number(row?.version ?? 0);
  }
}
