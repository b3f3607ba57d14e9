/**
 * Does sign-up's time tell whether an email has an account (issue 35 item 5, decision 121)?
 *
 *   npx tsx bench/sign-up-enumeration.ts [--runs N] [--floor MS]       # PGlite in memory
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/sign-up-enumeration.ts
 *
 * One registered account; then N (default 40, at least 40) sign-ups with its email and N with new emails, after 5
 * warm-ups of each, interleaved in pairs whose order alternates (known then unknown, then unknown then known) so a
 * drift in the machine's load falls on both alike; every one from a new client address (the per-address limit is
 * not what is measured). Prints each kind's status, body keys, median and p95 in ms, and the medians' ratio: the
 * goal is the same status and body and medians within 10%.
 */
import { createTestApp } from '../tests/support/test-app';

const args = process.argv.slice(2);
const runs = Math.max(40, Number(args[args.indexOf('--runs') + 1]) || 40);
// The production floor (config.ts signUpMinMs); --floor 0 measures the two paths' own times.
const floor = args.includes('--floor') ? args[args.indexOf('--floor') + 1] : '700';
const t = await createTestApp({ LOG_LEVEL: 'warn', SIGN_UP_MIN_MS: floor });
console.log(`sign-up floor ${floor} ms`);
const registered = await t.signUp({ name: 'Bench Owner', password: 'quiet-river-lantern-42' });

let fresh = 0;
async function signUp(email: string) {
  const actor = t.actor();
  const started = performance.now();
  const answer = await actor.post('/api/auth/sign-up/email', {
    name: 'Maya Okafor',
    email,
    password: 'copper-lantern-orbit-meadow',
    organizationName: 'Harbor Research',
  });
  return {
    ms: performance.now() - started,
    status: answer.status,
    keys: Object.keys(answer.body ?? {})
      .sort()
      .join(','),
  };
}
const unknownEmail = () => `bench.${Date.now().toString(36)}.${++fresh}@site.test`;

for (let warm = 0; warm < 5; warm++) {
  await signUp(registered.email);
  await signUp(unknownEmail());
}
const known: Awaited<ReturnType<typeof signUp>>[] = [];
const unknown: Awaited<ReturnType<typeof signUp>>[] = [];
for (let run = 0; run < runs; run++) {
  if (run % 2 === 0) {
    known.push(await signUp(registered.email));
    unknown.push(await signUp(unknownEmail()));
  } else {
    unknown.push(await signUp(unknownEmail()));
    known.push(await signUp(registered.email));
  }
}

const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.ceil((p / 100) * values.length) - 1];
for (const [name, rows] of [
  ['registered email', known],
  ['new email', unknown],
] as const) {
  const statuses = [...new Set(rows.map((row) => row.status))].join('/');
  const keys = [...new Set(rows.map((row) => row.keys))].join(' | ');
  const ms = rows.map((row) => row.ms);
  console.log(
    `${name.padEnd(18)} status ${statuses}  body keys ${keys}  median ${pct(ms, 50).toFixed(1)} ms  p95 ${pct(ms, 95).toFixed(1)} ms  (${rows.length} runs)`,
  );
}
const ratio =
  pct(
    known.map((row) => row.ms),
    50,
  ) /
  pct(
    unknown.map((row) => row.ms),
    50,
  );
console.log(`median registered / new: ${ratio.toFixed(3)} (${Math.abs(ratio - 1) <= 0.1 ? 'within' : 'NOT within'} 10%)`);
await t.close();
process.exit(0);
