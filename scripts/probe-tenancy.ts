/**
 * The cross-tenant figure of issue 35's closing note, counted from what the isolation suites really send:
 * runs every tests/integration/tenant-isolation*.int.test.ts and inbound-routing.int.test.ts with the
 * cross-tenant tally on (tests/support/cross-tenant-tally.ts), then prints the requests that carried another
 * organization's id (or were inbound webhooks routed by `To` between two organizations), by operation, and the
 * suites' result: every such request is asserted by its test (404, nothing changed, the right tenant), so a
 * failed test is a violation.
 *
 *   flock /tmp/heavy.lock npm run probe:tenancy                 # PGlite
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test flock /tmp/heavy.lock npm run probe:tenancy
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const folder = 'tests/integration';
const files = readdirSync(folder)
  .filter((name) => /^tenant-isolation.*\.int\.test\.ts$/.test(name) || name === 'inbound-routing.int.test.ts')
  .map((name) => path.join(folder, name));
const dir = mkdtempSync(path.join(tmpdir(), 'cross-tenant-'));
const tallyFile = path.join(dir, 'tally.jsonl');
const run = spawnSync('npx', ['vitest', 'run', '--project', 'integration', ...files], {
  env: { ...process.env, CROSS_TENANT_TALLY: tallyFile },
  stdio: ['ignore', 'pipe', 'inherit'],
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
const summary = (run.stdout ?? '').split('\n').filter((line) => /Test Files|Tests |FAIL|✗|×/.test(line));

const byOperation = new Map<string, number>();
let lines: string[] = [];
try {
  lines = readFileSync(tallyFile, 'utf8').split('\n').filter(Boolean);
} catch {
  // no test app counted anything
}
for (const line of lines)
  for (const [operation, count] of Object.entries(JSON.parse(line) as Record<string, number>))
    byOperation.set(operation, (byOperation.get(operation) ?? 0) + count);
rmSync(dir, { recursive: true, force: true });

const total = [...byOperation.values()].reduce((sum, count) => sum + count, 0);
const inbound = [...byOperation].filter(([operation]) => operation.includes('routed by To')).reduce((sum, [, count]) => sum + count, 0);
console.log(`cross-tenant probe on ${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}: ${files.length} suites`);
for (const [operation, count] of [...byOperation].sort(([a], [b]) => a.localeCompare(b))) console.log(`  ${String(count).padStart(5)}  ${operation}`);
console.log(`${total} cross-tenant requests over ${byOperation.size} operations (${inbound} inbound SMS and calls routed by To)`);
for (const line of summary) console.log(line.replace(/\x1b\[[0-9;]*m/g, '').trim());
const violations = run.status === 0 ? 0 : 'some';
console.log(`violations (failed isolation tests): ${violations}`);
process.exit(run.status ?? 1);
