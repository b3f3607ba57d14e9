/**
 * Where `recordActivity`'s time goes (decision 078): `npx tsx bench/activity-write.ts DATABASE` on a database the dashboard bench kept
 * (`--keep`). Prints the round-trip floor (`select 1` in a transaction), one event of a kind that feeds only the three
 * rollups, and one of each kind that also feeds a lean rollup, 270 transactions each; then EXPLAIN ANALYZE of the
 * statement (planning and execution time, and time per table written), rolled back.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { ActivityKind } from '../src/contract/activity';
import { recordActivity } from '../src/server/activity';
import { openPostgres } from '../src/server/db/client';
import { rowsOf, runAsOrganization, type Transaction } from '../src/server/db/scoped';
const db = process.argv[2] ?? 'analytics13';
const handle = await openPostgres(`postgres://postgres@127.0.0.1:5432/${db}`);
const d = handle.db;
const org = rowsOf<{ id: string }>(await d.execute(sql`select id from organization where slug = 'bench-customer-1'`))[0].id;
const trial = rowsOf<{ id: string }>(await d.execute(sql`select id from trial where organization_id = ${org} limit 1`))[0].id;
const pct = (v: number[], p: number) => [...v].sort((a, b) => a - b)[Math.ceil((p / 100) * v.length) - 1];
async function time(name: string, fn: (tx: Transaction) => Promise<unknown>) {
  const t: number[] = [];
  for (let i = 0; i < 300; i++)
    await runAsOrganization(d, org, async (tx) => {
      const b = performance.now();
      await fn(tx);
      t.push(performance.now() - b);
    });
  const w = t.slice(30);
  console.log(`${name.padEnd(40)} p50 ${pct(w, 50).toFixed(2)} ms  p95 ${pct(w, 95).toFixed(2)} ms`);
}
const entry = (kind: ActivityKind, label: string, value?: number) => [{ organizationId: org, kind, source: 'sms' as const, label, trialId: trial, value }];
await time('select 1', (tx) => tx.execute(sql`select 1`));
// The client's share: building the statement's text and parameters, without sending it.
await time('recordActivity sms_sent, not sent', () => recordActivity({ execute: async () => undefined } as never, entry('sms_sent', 'outreach')));
await time('recordActivity sms_sent', (tx) => recordActivity(tx, entry('sms_sent', 'outreach')));
await time('recordActivity prescreen_result', (tx) => recordActivity(tx, entry('prescreen_result', 'PASS', 12.5)));
await time('recordActivity status enrolled', (tx) => recordActivity(tx, entry('status_changed', 'enrolled')));
// Plan vs execution of one sms_sent statement, rolled back: sent through an executor without drizzle's session, so
// recordActivity takes its plain `execute` path and EXPLAIN can wrap the statement.
const plans: string[] = [];
await runAsOrganization(d, org, async (tx) => {
  const explaining = {
    execute: (query: SQL) =>
      tx.execute(sql`explain (analyze, summary) ${query}`).then((result) => {
        plans.push(
          ...rowsOf<Record<string, string>>(result)
            .map((row) => row['QUERY PLAN'])
            .filter((line) => /Time|Insert on|Trigger/.test(line)),
        );
        return result;
      }),
  };
  for (let i = 0; i < 3; i++) await recordActivity(explaining as never, entry('sms_sent', 'outreach'));
  throw new Error('rollback');
}).catch(() => {});
console.log(plans.join('\n'));
await handle.close();
process.exit(0);
