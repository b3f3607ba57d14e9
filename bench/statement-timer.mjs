/**
 * Time per SQL statement for a benchmark run on PostgreSQL (pg_stat_statements is not installed here):
 *   node --import ./bench/statement-timer.mjs --import tsx bench/candidates.ts --db postgres --single --rows 50000
 * Wraps pg's Client#query, sums the time from the call to its answer by the statement's first 90 characters
 * (no parameters, so no personal data), and prints the 40 largest to stderr when the process exits. The time
 * includes waiting for the connection's earlier statements, so read it per transaction step, not as server time.
 */
import { createRequire } from 'node:module';

const pg = createRequire(import.meta.url)('pg');
const totals = new Map();
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function timedQuery(config, values, callback) {
  const text = typeof config === 'string' ? config : (config?.text ?? '');
  const key = text.replace(/\s+/g, ' ').trim().slice(0, 90);
  const started = performance.now();
  const answer = query.call(this, config, values, callback);
  if (answer && typeof answer.then === 'function') {
    answer.then(
      () => {
        const total = totals.get(key) ?? { count: 0, ms: 0 };
        total.count++;
        total.ms += performance.now() - started;
        totals.set(key, total);
      },
      () => undefined,
    );
  }
  return answer;
};

process.on('exit', () => {
  const all = [...totals.values()].reduce((sum, total) => sum + total.ms, 0);
  process.stderr.write(`statements: ${all.toFixed(0)} ms in all\n`);
  for (const [key, total] of [...totals].sort((a, b) => b[1].ms - a[1].ms).slice(0, 40)) {
    process.stderr.write(`${total.ms.toFixed(0).padStart(8)} ms ${String(total.count).padStart(7)}x  ${key}\n`);
  }
});
