/**
 * The invalid-input probe of issue 35's closing note: every generated bad request of tests/support/bad-input.ts,
 * over every operation of the OpenAPI document (checked against the endpoint inventory), sent by several people.
 *
 *   npm run probe:invalid                                   # PGlite in memory
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run probe:invalid   # (or TEST_DATABASE_URL) a throwaway database there
 *
 * Senders: provider webhooks and /api/auth anonymously; public operations anonymously and as site A's owner; every
 * other operation as site A's owner, as site B's owner with site A's candidate id wherever the generator puts an id
 * (a cross-tenant guess), and as an internal admin. Prints requests sent, the 5xx count, hangs (an answer slower
 * than 5 s), and leaks: an answer to anyone but A or the admin that carries A's candidate, or any answer carrying a
 * stack trace or a source path. Exits 1 on any 5xx or leak (hangs are listed for a person to judge: some valid
 * requests, such as the demo reset, do minutes of real work on a loaded machine).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { allBadRequests, type BadRequest, NIL_LIKE_UUID, type OpenApiDocument } from '../tests/support/bad-input';
import { BASE_URL, createTestApp } from '../tests/support/test-app';

type Classification = string;
const HANG_MS = 5_000;
/** An answer still missing after this long is given up on (listed among the hangs and as unanswered); long enough for the demo reset's real work. */
const GIVE_UP_MS = 180_000;

if (!process.env.TEST_DATABASE_URL && process.env.DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.DATABASE_URL;
const databaseKind = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite';

/** The endpoint inventory (tests/support/endpoints/*.ts), read without vite's import.meta.glob. */
async function inventory(): Promise<Record<string, Classification>> {
  const folder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../tests/support/endpoints');
  const merged: Record<string, Classification> = {};
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.ts') && name !== 'index.ts')) {
    const module = (await import(path.join(folder, file))) as { ENDPOINTS: Record<string, Classification> };
    Object.assign(merged, module.ENDPOINTS);
  }
  return merged;
}

// Site A's candidate: distinctive values no other sender may ever be shown.
const MARKERS = { firstName: 'Zephyrine', lastName: 'Quillfeather', email: 'zephyrine.quillfeather@probe.test', phone: '+12025550147' };
const LEAK_TEXTS = [MARKERS.firstName, MARKERS.lastName, MARKERS.email, '2025550147'];
/** A stack frame ("at fn (file.ts:12:5)") or a path into the server's source or dependencies. */
const STACK_TRACE = /\bat (?:async )?[\w$.<>[\] ]*\(?(?:file:\/\/)?\/[^\s)]+:\d+:\d+|node_modules\/|\/src\/server\//;

const t = await createTestApp({ LOG_LEVEL: 'silent' });
const siteA = await t.signUp({ organizationName: 'Probe Site A' });
const siteB = await t.signUp({ organizationName: 'Probe Site B' });
const admin = await t.signInAdmin();
const created = await siteA.actor.post('/api/candidates', MARKERS);
if (created.status !== 201 && created.status !== 200) throw new Error(`could not create site A's candidate: ${created.status}`);
const candidateA: string = created.body.id;

const doc = (await t.actor().get('/api/openapi.json')).body as OpenApiDocument;
const endpoints = await inventory();
const operations = Object.entries(doc.paths).flatMap(([route, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${route}`));
const notInInventory = operations.filter((operation) => !(operation in endpoints));
const notInDocument = Object.keys(endpoints).filter((operation) => !operations.includes(operation));

interface Sender {
  name: string;
  cookie?: string;
  organizationId?: string;
  /** May see site A's candidate. */
  maySeeA: boolean;
  /** Rewrites the request (site B puts A's candidate id where the generator put an id). */
  rewrite?: (text: string) => string;
}
const anonymous: Sender = { name: 'anonymous', maySeeA: false };
const ownerA: Sender = { name: 'site A', cookie: siteA.actor.cookie, maySeeA: true };
const ownerB: Sender = { name: 'site B with A ids', cookie: siteB.actor.cookie, maySeeA: false, rewrite: (text) => text.replaceAll(NIL_LIKE_UUID, candidateA) };
const internalAdmin: Sender = { name: 'internal admin', cookie: admin.cookie, organizationId: admin.activeOrganizationId, maySeeA: true };

function sendersFor(operation: string): Sender[] {
  const route = operation.split(' ')[1];
  if (route.startsWith('/api/inbound') || route.startsWith('/api/functions/') || route.startsWith('/api/auth/')) return [anonymous];
  if (endpoints[operation] === 'public') return [anonymous, ownerA];
  return [ownerA, ownerB, internalAdmin];
}

let address = 0;
async function send(request: BadRequest, sender: Sender) {
  const rewrite = sender.rewrite ?? ((text: string) => text);
  const headers: Record<string, string> = { accept: 'application/json', origin: BASE_URL, ...request.headers };
  if (sender.cookie) headers.cookie = sender.cookie;
  if (sender.organizationId) headers['x-organization-id'] = sender.organizationId;
  address++;
  // A new client address now and then, so the per-address limits answer some requests and not all of them.
  const env = { incoming: { socket: { remoteAddress: `10.77.${(address >> 14) & 255}.${(address >> 6) & 255}` } } };
  const started = performance.now();
  const answer = (async () => {
    const response = await t.app.request(
      rewrite(request.url),
      { method: request.method, headers, body: request.body === undefined ? undefined : rewrite(request.body) },
      env,
    );
    return { status: response.status, text: await response.text() };
  })();
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), GIVE_UP_MS).unref());
  const result = await Promise.race([answer, timeout]);
  return { result, ms: performance.now() - started };
}

const requests = allBadRequests(doc);
const statuses = new Map<number, number>();
const serverErrors: string[] = [];
const hangs: string[] = [];
const leaks: string[] = [];
let sent = 0;
let crossTenant = 0;
const started = Date.now();
for (const request of requests) {
  for (const sender of sendersFor(request.operation)) {
    const { result, ms } = await send(request, sender);
    sent++;
    if (sender === ownerB) crossTenant++;
    const what = `${request.operation} [${request.label}] as ${sender.name}`;
    if (ms > HANG_MS) hangs.push(`${what}: ${Math.round(ms)} ms`);
    if (!result) continue;
    statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
    if (result.status >= 500) serverErrors.push(`${what} -> ${result.status} ${result.text.slice(0, 200)}`);
    if (STACK_TRACE.test(result.text)) leaks.push(`${what} -> ${result.status}: a stack trace or source path`);
    if (!sender.maySeeA && LEAK_TEXTS.some((text) => result.text.includes(text))) leaks.push(`${what} -> ${result.status}: site A's candidate`);
  }
  if (sent % 5000 < sendersFor(request.operation).length) process.stderr.write(`  ${sent} sent\n`);
}
const seconds = Math.round((Date.now() - started) / 1000);

const list = (title: string, rows: string[]) => {
  console.log(`${title}: ${rows.length}`);
  for (const row of rows.slice(0, 40)) console.log(`  ${row}`);
  if (rows.length > 40) console.log(`  ... and ${rows.length - 40} more`);
};
console.log(`invalid-input probe on ${databaseKind}`);
console.log(`operations: ${operations.length} in the OpenAPI document, ${Object.keys(endpoints).length} in the endpoint inventory`);
if (notInInventory.length || notInDocument.length)
  console.log(`  not in the inventory: ${notInInventory.join(', ') || '-'}; not in the document: ${notInDocument.join(', ') || '-'}`);
console.log(`generated requests: ${requests.length}; sent: ${sent} (${crossTenant} as another organization with site A's ids) in ${seconds} s`);
console.log(`statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
list('5xx', serverErrors);
list(`hangs (> ${HANG_MS / 1000} s)`, hangs);
list("leaks (another organization's data or a stack trace)", leaks);
const unanswered = sent - [...statuses.values()].reduce((sum, count) => sum + count, 0);
if (unanswered) console.log(`unanswered after ${GIVE_UP_MS / 1000} s: ${unanswered}`);

await t.close();
process.exit(serverErrors.length || leaks.length ? 1 : 0);
