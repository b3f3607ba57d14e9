/**
 * Where `recordActivity`'s time goes (decisions 095, 092), on a database the dashboard bench kept (`--keep`):
 *
 *   npx tsx bench/activity-write.ts NAME             # PostgreSQL database NAME on 127.0.0.1:5432
 *   npx tsx bench/activity-write.ts --pglite DIR     # the PGlite data directory DIR
 *
 * Prints, each over 270 transactions (after 30 warm-ups) as the app role with one organization in scope: the
 * round-trip floor (`select 1` in a transaction); the event's row alone (an INSERT into `activity_event`, rolled
 * back with its transaction); and `recordActivity` of one event of a kind that feeds only the four rollups every
 * event feeds, and of each kind that also feeds a lean rollup. The issue's goal: the event adds < 1 ms to its change.
 */
import { sql } from 'drizzle-orm';
import type { ActivityKind } from '../src/contract/activity';
import { recordActivity } from '../src/server/activity';
import { type DatabaseHandle, openPglite, openPostgres } from '../src/server/db/client';
import { rowsOf, runAsOrganization, type Transaction } from '../src/server/db/scoped';

const args = process.argv.slice(2);
const pgliteDir = args[0] === '--pglite' ? args[1] : undefined;
const handle: DatabaseHandle = pgliteDir ? await openPglite(pgliteDir) : await openPostgres(`postgres://postgres@127.0.0.1:5432/${args[0] ?? 'analytics13'}`);
await handle.migrate();
const d = handle.db;
const org = rowsOf<{ id: string }>(await d.execute(sql`select id from organization where slug = 'bench-customer-1'`))[0].id;
const trial = rowsOf<{ id: string }>(await d.execute(sql`select id from trial where organization_id = ${org} limit 1`))[0].id;
const pct = (v: number[], p: number) => [...v].sort((a, b) => a - b)[Math.ceil((p / 100) * v.length) - 1];
class Rollback extends Error {}
async function time(name: string, fn: (tx: Transaction) => Promise<unknown>, rollback = false) {
  const t: number[] = [];
  for (let i = 0; i < 300; i++)
    await runAsOrganization(d, org, async (tx) => {
      const b = performance.now();
      await fn(tx);
      t.push(performance.now() - b);
      if (rollback) throw new Rollback();
    }).catch((error) => {
      if (!(error instanceof Rollback)) throw error;
    });
  const w = t.slice(30);
  console.log(`${name.padEnd(40)} p50 ${pct(w, 50).toFixed(2)} ms  p95 ${pct(w, 95).toFixed(2)} ms`);
}
const entry = (kind: ActivityKind, label: string, value?: number) => [{ organizationId: org, kind, source: 'sms' as const, label, trialId: trial, value }];
console.log(
  `${pgliteDir ? `PGlite ${pgliteDir}` : 'PostgreSQL'}; load ${(await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
await time('select 1', (tx) => tx.execute(sql`select 1`));
await time(
  'the event row alone (rolled back)',
  (tx) => tx.execute(sql`insert into activity_event (organization_id, trial_id, kind, source, label) values (${org}, ${trial}, 'sms_sent', 'sms', 'outreach')`),
  true,
);
await time('recordActivity sms_sent', (tx) => recordActivity(tx, entry('sms_sent', 'outreach')));
await time('recordActivity prescreen_result', (tx) => recordActivity(tx, entry('prescreen_result', 'PASS', 12.5)));
await time('recordActivity status enrolled', (tx) => recordActivity(tx, entry('status_changed', 'enrolled')));
await handle.close();
process.exit(0);
