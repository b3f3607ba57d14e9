/**
 * Bulk prescreen calls benchmark (issue 5): `npm run bench:prescreen-all -- --db pglite|postgres [--rows N] [--calls M]`.
 *
 * 1. Selection: N (default 100,000) callable candidates in one organization; POST /api/calls/prescreen-all
 *    picks the due ones and stores them as run items: the time to the 202 answer.
 * 2. End to end: a second organization with M (default 300) candidates, the voice simulator and
 *    VOICE_MAX_CONCURRENT_CALLS (default 3): the time until every call has ended and its prescreen result is
 *    recorded, as calls per second. The simulator answers instantly, so this measures our own path (planning,
 *    the webhook, the engine), not a telephone line.
 *
 * PostgreSQL: --url (default $TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test); a scratch database
 * is created and dropped, as the integration tests do.
 */
import { sql } from 'drizzle-orm';
import type { StudyBlock } from '../src/contract/prescreen-forms';
import { prescreenForm, prescreenFormVersion } from '../src/server/db/schema';
import { whenPrescreenRunSettled } from '../src/server/features/calls/prescreen-all';
import { createTestApp, type TestApp } from '../tests/support/test-app';
import { zoneAtHour } from '../tests/support/zones';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 && args[index + 1] ? args[index + 1] : fallback;
};
const dbKind = option('db', 'pglite') as 'pglite' | 'postgres';
const ROWS = Number(option('rows', '100000'));
const CALLS = Number(option('calls', '300'));
if (dbKind === 'postgres') process.env.TEST_DATABASE_URL = option('url', process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
else delete process.env.TEST_DATABASE_URL;
process.env.LOG_LEVEL ??= 'warn';

const blocks: StudyBlock[] = [
  {
    id: 'asthma',
    title: { en: 'About you' },
    questions: [
      {
        id: 'asthma',
        type: 'yes_no',
        wording: { phone: { en: 'Has a doctor told you that you have asthma?' }, chat: { en: 'Asthma?' } },
        required: true,
        criterionLinks: [],
      },
    ],
  },
];

/** A research site with a trial, a published form and an active prescreen agent; `count` callable candidates inserted in SQL. */
async function site(t: TestApp, name: string, count: number, phonePrefix: string) {
  const owner = await t.signUp({ organizationName: name });
  const trial = await owner.actor.post('/api/trials/', { title: `${name} asthma study`, criteria: [{ kind: 'inclusion', text: 'Asthma' }] });
  const [form] = await t.deps.db
    .insert(prescreenForm)
    .values({ organizationId: owner.organizationId, trialId: trial.body.id, name: 'Form', status: 'published', currentVersion: 1, publishedAt: new Date() })
    .returning();
  await t.deps.db.insert(prescreenFormVersion).values({ organizationId: owner.organizationId, formId: form.id, version: 1, blocks });
  const agent = await owner.actor.post('/api/voice-agents/', {
    name: 'Screener',
    type: 'PRESCREEN',
    trialId: trial.body.id,
    prescreenFormId: form.id,
    firstMessage: { en: 'Hello' },
    voicemailMessage: { en: 'Sorry we missed you' },
  });
  if (agent.status !== 201) throw new Error(`agent: ${JSON.stringify(agent.body)}`);
  await t.deps.db.execute(sql`
    insert into candidate (organization_id, first_name, last_name, phone, time_zone, consent_calls, custom_fields)
    select ${owner.organizationId}::uuid, 'Bench', 'Person ' || i, ${phonePrefix} || lpad(i::text, 6, '0'), ${zoneAtHour(12)}, true,
           jsonb_build_object('asthma', i % 2 = 0)
    from generate_series(1, ${count}) as i`);
  return owner;
}

const seconds = (ms: number) => (ms / 1000).toFixed(2);

async function main() {
  const t = await createTestApp({ VOICE_MAX_CONCURRENT_CALLS: option('concurrency', '3') });
  try {
    console.log(`database: ${dbKind}`);

    const large = await site(t, 'Bench Large Site', ROWS, '+1212');
    let started = performance.now();
    const answer = await large.actor.post('/api/calls/prescreen-all', {});
    const selectMs = performance.now() - started;
    if (answer.status !== 202) throw new Error(`prescreen-all: ${answer.status} ${JSON.stringify(answer.body)}`);
    console.log(
      `selection: ${answer.body.total.toLocaleString('en-US')} due candidates stored as run items in ${seconds(selectMs)} s (${Math.round(answer.body.total / (selectMs / 1000)).toLocaleString('en-US')} candidates/s)`,
    );
    // Stop the large run: only its selection is measured here.
    await t.deps.db.execute(sql`update processing_run set status = 'cancelled' where id = ${answer.body.id}::uuid`);
    await whenPrescreenRunSettled(answer.body.id);
    await t.deps.voice.drain();

    const small = await site(t, 'Bench Calling Site', CALLS, '+1313');
    started = performance.now();
    const run = await small.actor.post('/api/calls/prescreen-all', {});
    await whenPrescreenRunSettled(run.body.id);
    await t.deps.voice.drain();
    const totalMs = performance.now() - started;
    const data = await small.actor.get(`/api/processing-runs/${run.body.id}/data?limit=1`);
    const results = await t.deps.db.execute<{ n: number }>(
      sql`select count(*)::int as n from prescreen_result where organization_id = ${small.organizationId}::uuid`,
    );
    const recorded = Number((results as unknown as { rows: Array<{ n: number }> }).rows[0].n);
    console.log(
      `end to end: ${data.body.run.succeeded} calls placed, ${recorded} prescreen results recorded in ${seconds(totalMs)} s (${(recorded / (totalMs / 1000)).toFixed(1)} calls/s, at most ${option('concurrency', '3')} open at once)`,
    );
  } finally {
    await t.close();
  }
}

await main();
