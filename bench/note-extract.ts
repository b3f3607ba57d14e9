/**
 * Clinical-note extraction speed (issue 11): `npm run bench:note-extract [-- --runs N]`. A 2,000-character note (the
 * project's cardiology fixture, repeated) read N times (default 1,000) once warm (200 readings first: with 20, the
 * optimizing compiler was still at work during the timed runs and its threads' CPU showed in the figure); prints the
 * median and p95 per note, and the machine's load average beside them (2 shared cores: the tail is the machine's).
 * Goal (docs/note-extraction.md, issue 30): under 5 ms p95 per 2,000 characters with the whole vocabulary loaded. The
 * CPU time per note is printed beside the wall times: on a shared machine it is the reader's own cost.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { extractNoteFacts } from '../src/server/features/matching/note-extractor';

const note = readFileSync(path.resolve(process.cwd(), 'tests/fixtures/matching/notes/cardiology-follow-up.txt'), 'utf8');
const long = `${note}\n${note}\n${note}\n`.slice(0, 2000);
const runsAt = process.argv.indexOf('--runs');
const RUNS = runsAt > 0 ? Number(process.argv[runsAt + 1]) : 1000;
for (let run = 0; run < 200; run++) extractNoteFacts(long);
const times: number[] = [];
const load = loadavg()[0];
const cpu = process.cpuUsage();
for (let run = 0; run < RUNS; run++) {
  const started = performance.now();
  extractNoteFacts(long);
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(2);
const used = process.cpuUsage(cpu);
console.log(
  `note extraction, 2,000 characters: median ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms (${times.length} runs, warm); ` +
    `CPU ${((used.user + used.system) / 1000 / times.length).toFixed(2)} ms per note; load average ${load.toFixed(1)} -> ${loadavg()[0].toFixed(1)}`,
);
