import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { createApp, type App } from '../../src/server/app';
import { bootstrap } from '../../src/server/bootstrap';
import { loadConfig } from '../../src/server/config';
import type { DatabaseHandle } from '../../src/server/db/client';
import { mailOutbox, user } from '../../src/server/db/schema';
import { createDeps } from '../../src/server/deps';
import { whenNoRunIsWorked } from '../../src/server/features/processing-runs/runner';
import { startBackgroundWork } from '../../src/server/jobs/register';
import type { AppDeps } from '../../src/server/http/context';
import { CrossTenantTally } from './cross-tenant-tally';
import { openTestDatabase } from './test-database';

export const BASE_URL = 'http://localhost:3000';
export const ADMIN_EMAIL = 'admin@cohortly.test';
export const ADMIN_PASSWORD = 'admin-password-1';

export interface ApiAnswer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** One person's browser: a cookie jar, an address (sign-in is rate-limited per address) and, for admins, an active organization. */
export class Actor {
  cookie = '';
  activeOrganizationId?: string;
  readonly ip = `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
  /** The socket's peer when it is not `ip` (e.g. a proxy in front). */
  socketAddress?: string;
  /** The organization this person belongs to (set by signUp and signIn while the cross-tenant tally is on). */
  homeOrganizationId?: string;
  constructor(
    readonly app: App,
    private readonly tally?: CrossTenantTally,
    private readonly internalOrganizationId?: string,
  ) {}

  /** The organization the request acts for, unless it is Cohortly's own (an internal admin sees every organization). */
  private actingOrganization() {
    const acting = this.activeOrganizationId ?? this.homeOrganizationId;
    return acting === this.internalOrganizationId ? undefined : acting;
  }

  async request<T = any>(method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<ApiAnswer<T>> {
    const headers: Record<string, string> = { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...extraHeaders };
    return this.send<T>(method, path, body === undefined ? undefined : JSON.stringify(body), headers);
  }

  /** A request with a raw body (a file's text or a stream, e.g. the streamed import's CSV) and its content type. */
  upload = <T = any>(path: string, body: string | ReadableStream<Uint8Array>, contentType = 'text/csv') =>
    this.send<T>('POST', path, body, { 'content-type': contentType });

  private async send<T>(method: string, path: string, body: BodyInit | undefined, extraHeaders: Record<string, string>): Promise<ApiAnswer<T>> {
    const headers: Record<string, string> = { accept: 'application/json', origin: BASE_URL, ...extraHeaders };
    if (this.cookie) headers.cookie = this.cookie;
    if (this.activeOrganizationId) headers['x-organization-id'] = this.activeOrganizationId;
    // The address comes from the (simulated) socket, as @hono/node-server gives it: headers cannot choose it.
    const env = { incoming: { socket: { remoteAddress: this.socketAddress ?? this.ip } } };
    const init: RequestInit & { duplex?: 'half' } = { method, headers, body };
    if (body instanceof ReadableStream) init.duplex = 'half';
    this.tally?.inspect(this.actingOrganization(), method, path, typeof body === 'string' ? body : undefined);
    const response = await this.app.request(path, init, env);
    this.keepCookies(response.headers);
    const text = await response.text();
    this.tally?.credit(this.actingOrganization(), text);
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  get = <T = any>(path: string) => this.request<T>('GET', path);
  post = <T = any>(path: string, body?: unknown) => this.request<T>('POST', path, body ?? {});
  patch = <T = any>(path: string, body?: unknown) => this.request<T>('PATCH', path, body ?? {});
  put = <T = any>(path: string, body?: unknown) => this.request<T>('PUT', path, body ?? {});
  delete = <T = any>(path: string) => this.request<T>('DELETE', path);

  private keepCookies(headers: Headers) {
    const jar = new Map(
      this.cookie
        .split('; ')
        .filter(Boolean)
        .map((pair) => pair.split(/=(.*)/s).slice(0, 2) as [string, string]),
    );
    for (const line of headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = pair.split(/=(.*)/s);
      if (!value || /max-age=0/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    this.cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

export interface TestApp {
  app: App;
  deps: AppDeps;
  database: DatabaseHandle;
  internalOrganizationId: string;
  actor(): Actor;
  /** Signs up a new person with their own research site; returns them signed in. */
  signUp(input?: { name?: string; email?: string; password?: string; organizationName?: string }): Promise<SignedUp>;
  signIn(email: string, password: string): Promise<Actor>;
  signInAdmin(): Promise<Actor>;
  /** Makes an existing user an internal admin (as an operator would in the database). */
  promoteToAdmin(userId: string): Promise<void>;
  outbox(): Promise<Array<typeof mailOutbox.$inferSelect>>;
  /** The cross-tenant requests counted for `npm run probe:tenancy` (off unless CROSS_TENANT_TALLY is set). */
  crossTenant: CrossTenantTally;
  close(): Promise<void>;
}

export interface SignedUp {
  actor: Actor;
  userId: string;
  email: string;
  password: string;
  organizationId: string;
}

/** Opens a mailed link (e.g. the verification link, which signs in) as the actor's browser would. */
export async function openMailLink(actor: Actor, link: string | undefined) {
  if (!link) throw new Error('no mail link in the answer');
  const url = new URL(link);
  const answer = await actor.request('GET', `${url.pathname}${url.search}`);
  if (answer.status >= 400) throw new Error(`mail link failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer;
}

let counter = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}.${Date.now().toString(36)}.${++counter}.${randomBytes(2).toString('hex')}@site.test`;

/**
 * A test app on a fresh database, or, with `shared`, a second app instance (its own caches, job workers and
 * session store, as another process would have) on the database of an existing one; closing it leaves the database open.
 */
export async function createTestApp(env: Record<string, string> = {}, shared?: DatabaseHandle): Promise<TestApp> {
  const database = shared ? { ...shared, close: async () => {} } : await openTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: '/tmp/cohortly-test-unused',
    BETTER_AUTH_SECRET: 'test-secret-with-enough-entropy-0123456789abcdef',
    PUBLIC_BASE_URL: BASE_URL,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    ...env,
  });
  const deps = createDeps(config, database);
  const { organizationId: internalOrganizationId } = await bootstrap(deps.db, deps.auth, config);
  const app = createApp(deps);
  await startBackgroundWork(deps);

  const tally = new CrossTenantTally();
  const newActor = () => new Actor(app, tally.enabled ? tally : undefined, internalOrganizationId);
  const signIn = async (email: string, password: string) => {
    const actor = newActor();
    const answer = await actor.post('/api/auth/sign-in/email', { email, password });
    if (answer.status !== 200) throw new Error(`sign-in failed: ${answer.status} ${JSON.stringify(answer.body)}`);
    if (tally.enabled) actor.homeOrganizationId = (await actor.get('/api/auth/get-session')).body?.organization?.id;
    return actor;
  };

  return {
    app,
    deps,
    database,
    internalOrganizationId,
    actor: newActor,
    crossTenant: tally,
    async signUp(input = {}) {
      const actor = newActor();
      const email = input.email ?? uniqueEmail();
      const password = input.password ?? 'correct-horse-battery';
      const answer = await actor.post('/api/auth/sign-up/email', {
        name: input.name ?? 'Site Coordinator',
        email,
        password,
        organizationName: input.organizationName ?? `Research Site ${++counter}`,
      });
      if (answer.status !== 200) throw new Error(`sign-up failed: ${answer.status} ${JSON.stringify(answer.body)}`);
      // A new account signs in by its verification link (decision 121), which the simulated mail hands back.
      await openMailLink(actor, answer.body.simulatedMailLink);
      const session = await actor.get('/api/auth/get-session');
      actor.homeOrganizationId = session.body.organization.id;
      return { actor, userId: session.body.user.id, email, password, organizationId: session.body.organization.id };
    },
    signIn,
    signInAdmin: () => signIn(ADMIN_EMAIL, ADMIN_PASSWORD),
    async promoteToAdmin(userId) {
      await deps.db.update(user).set({ isAdmin: true }).where(eq(user.id, userId));
    },
    outbox: () => deps.db.select().from(mailOutbox),
    async close() {
      tally.flush();
      await deps.jobs.stop();
      // Runs this process still works on and simulated calls still talking end before the database closes: a loop
      // that outlived its test would query a closed PGlite, an unhandled rejection in whichever file runs next.
      await settledWithin(30_000, Promise.all([whenNoRunIsWorked(), deps.voice.drain()]));
      await database.close();
    },
  };
}

/** Waits for `work` to settle, for at most `ms` (a close never hangs on a loop that cannot end). */
async function settledWithin(ms: number, work: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([work.catch(() => undefined), timeout]);
  clearTimeout(timer);
}
