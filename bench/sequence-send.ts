/**
 * Sequence sending benchmark (issue 12): `npm run bench:sequence-send -- --db pglite|postgres [--enrollments N]`.
 *
 * N (default 10,000) candidates with SMS consent, at midday in their zone, are enrolled in a one-step SMS
 * sequence whose step is due at the same moment (startAt ~20 s ahead). The figure is the time from that
 * moment until every enrollment's SMS is recorded as sent through the simulator, with the duplicates (a
 * candidate texted twice: must be 0) and the process's resident memory sampled every second.
 *
 * PostgreSQL: --url (default $TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test); a scratch database
 * is created and dropped, as the integration tests do.
 */
import { sql } from 'drizzle-orm';
import { createTestApp } from '../tests/support/test-app';
import { zoneAtHour } from '../tests/support/zones';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 && args[index + 1] ? args[index + 1] : fallback;
};
const dbKind = option('db', 'pglite') as 'pglite' | 'postgres';
const ENROLLMENTS = Number(option('enrollments', '10000'));
if (dbKind === 'postgres') process.env.TEST_DATABASE_URL = option('url', process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
else delete process.env.TEST_DATABASE_URL;
process.env.LOG_LEVEL ??= 'warn';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

async function main() {
  const t = await createTestApp();
  try {
    console.log(`database: ${dbKind}, enrollments: ${ENROLLMENTS.toLocaleString('en-US')}`);
    const owner = await t.signUp({ organizationName: 'Bench Sequence Site' });
    await t.deps.db.execute(sql`
      insert into candidate (organization_id, first_name, last_name, phone, time_zone, consent_sms, consent_sms_source, consent_sms_at)
      select ${owner.organizationId}::uuid, 'Bench', 'Person ' || i, '+1415' || lpad(i::text, 7, '0'), ${zoneAtHour(12)}, true, 'bench', now()
      from generate_series(1, ${ENROLLMENTS}) as i`);
    await t.deps.db.execute(sql`analyze`);
    const created = await owner.actor.post('/api/sequences/', {
      name: 'Bench outreach',
      steps: [{ key: 'hello', type: 'sms', message: { en: 'Hi {firstName}, a study may suit you.' } }],
    });
    if (created.status !== 201) throw new Error(`sequence: ${JSON.stringify(created.body)}`);

    const dueAt = new Date(Date.now() + 20_000);
    let started = performance.now();
    const enrolled = await owner.actor.post(`/api/sequences/${created.body.id}/enrollments`, { filter: {}, startAt: dueAt.toISOString() });
    if (enrolled.status !== 200 || enrolled.body.enrolled !== ENROLLMENTS)
      throw new Error(`enroll: ${enrolled.status} ${JSON.stringify(enrolled.body).slice(0, 300)}`);
    console.log(`enrollment: ${ENROLLMENTS.toLocaleString('en-US')} enrolled (jobs queued) in ${((performance.now() - started) / 1000).toFixed(2)} s`);

    const memory: number[] = [];
    const heap: number[] = [];
    const sampler = setInterval(() => {
      memory.push(process.memoryUsage().rss);
      heap.push(process.memoryUsage().heapUsed);
    }, 1000);
    while (Date.now() < dueAt.getTime()) await new Promise((resolve) => setTimeout(resolve, 100));
    started = performance.now();
    let sent = 0;
    let lastReport = 0;
    while (sent < ENROLLMENTS) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      sent = Number(
        rowsOf<{ n: number }>(
          await t.deps.db.execute(sql`select count(*)::int as n from sequence_step_run where sequence_id = ${created.body.id}::uuid and kind = 'sent'`),
        )[0].n,
      );
      const elapsed = (performance.now() - started) / 1000;
      if (elapsed - lastReport >= 10) {
        lastReport = elapsed;
        console.log(`  ${elapsed.toFixed(0)} s: ${sent.toLocaleString('en-US')} sent`);
      }
      if (elapsed > 900) throw new Error(`gave up after 900 s with ${sent} sent`);
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const duplicates = Number(
      rowsOf<{ n: number }>(
        await t.deps.db.execute(
          sql`select count(*)::int as n from (select candidate_id from sms_message where organization_id = ${owner.organizationId}::uuid and direction = 'outbound' group by candidate_id having count(*) > 1) d`,
        ),
      )[0].n,
    );
    const messages = Number(
      rowsOf<{ n: number }>(
        await t.deps.db.execute(
          sql`select count(*)::int as n from sms_message where organization_id = ${owner.organizationId}::uuid and direction = 'outbound'`,
        ),
      )[0].n,
    );
    console.log(
      `sending: ${ENROLLMENTS.toLocaleString('en-US')} steps due at the same moment, all sent in ${seconds.toFixed(1)} s (${Math.round(ENROLLMENTS / seconds)} sends/s)`,
    );
    console.log(`messages: ${messages.toLocaleString('en-US')} outbound, candidates texted twice: ${duplicates}`);
    console.log(
      `memory (sampled each second while sending): rss first ${mb(memory[0] ?? 0)} MB, max ${mb(Math.max(...memory))} MB, last ${mb(memory.at(-1) ?? 0)} MB; heap used first ${mb(heap[0] ?? 0)} MB, max ${mb(Math.max(...heap))} MB, last ${mb(heap.at(-1) ?? 0)} MB`,
    );
  } finally {
    await t.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
