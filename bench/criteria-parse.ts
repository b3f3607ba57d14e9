/**
 * Criteria parse time (issue 10): `npm run bench:criteria-parse [-- --rounds 5]`.
 *
 * Maps every record of ../shared/data/ctgov/studies.json to a draft trial (the structure, every rule, the
 * record's own MeSH terms in the vocabulary) and generates its prescreen form, after one warm-up pass.
 * Prints p50/p95/max per record for the parse alone (wall clock and CPU time) and for parse + form generation. Goal: p95 < 20 ms.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { generateStudyBlocks } from '../src/server/features/prescreen-forms/generator';
import { draftFromStudy } from '../src/server/features/trials/ctgov';

const file = path.resolve(process.cwd(), '../shared/data/ctgov/studies.json');
if (!existsSync(file)) {
  console.error(`No records: ${file} is absent.`);
  process.exit(1);
}
const studies = JSON.parse(readFileSync(file, 'utf8')) as unknown[];
const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 5;

const form = (study: unknown) => {
  const draft = draftFromStudy(study);
  return generateStudyBlocks({ criteria: draft.criteria.map((criterion, index) => ({ ...criterion, id: `c${index}`, position: index })) });
};
for (const study of studies) form(study);

const parse: number[] = [];
const both: number[] = [];
// CPU time per record as well: on a shared machine the wall clock waits for a core, the CPU time does not.
const parseCpu: number[] = [];
const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
for (let round = 0; round < rounds; round++) {
  for (const study of studies) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    const draft = draftFromStudy(study);
    const parsed = performance.now();
    parseCpu.push(cpuMs(cpu));
    generateStudyBlocks({ criteria: draft.criteria.map((criterion, index) => ({ ...criterion, id: `c${index}`, position: index })) });
    const end = performance.now();
    parse.push(parsed - start);
    both.push(end - start);
  }
}
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const ms = (value: number) => `${value.toFixed(2)} ms`;
console.info(`${studies.length} records x ${rounds} rounds`);
console.info(`parse (record -> draft trial): p50 ${ms(percentile(parse, 50))}, p95 ${ms(percentile(parse, 95))}, max ${ms(Math.max(...parse))}`);
console.info(`parse, CPU time:               p50 ${ms(percentile(parseCpu, 50))}, p95 ${ms(percentile(parseCpu, 95))}, max ${ms(Math.max(...parseCpu))}`);
console.info(`parse + prescreen form:        p50 ${ms(percentile(both, 50))}, p95 ${ms(percentile(both, 95))}, max ${ms(Math.max(...both))}`);
