/**
 * Splits the 94 shared ClinicalTrials.gov records into a development half and an evaluation half (issue 30):
 * `npx tsx scripts/criteria-split.ts` writes tests/fixtures/ctgov/evaluation-split.json.
 *
 * The NCT ids are sorted, shuffled by a seeded mulberry32 Fisher-Yates (seed 30030, chosen before any record was
 * looked at) and cut in two: the first 47 are the development half, the other 47 the evaluation half. No change to
 * the reader may be tuned against the evaluation half; its figures are reported beside the development half's.
 * Running this again gives the same file.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { seededRandom } from '../src/server/seeded-random';

const SEED = 30030;
const file = path.resolve(process.cwd(), '../shared/data/ctgov/studies.json');
if (!existsSync(file)) {
  console.error(`No records: ${file} is absent.`);
  process.exit(1);
}
const studies = JSON.parse(readFileSync(file, 'utf8')) as Array<{ protocolSection: { identificationModule: { nctId: string } } }>;
const ids = studies.map((study) => study.protocolSection.identificationModule.nctId).sort();
const random = seededRandom(SEED);
for (let index = ids.length - 1; index > 0; index--) {
  const other = Math.floor(random() * (index + 1));
  [ids[index], ids[other]] = [ids[other], ids[index]];
}
const half = Math.floor(ids.length / 2);
const split = {
  about: 'Issue 30: the 94 records of ../shared/data/ctgov/studies.json split by scripts/criteria-split.ts. Tune only on development.',
  seed: SEED,
  development: ids.slice(0, half).sort(),
  evaluation: ids.slice(half).sort(),
};
const out = path.resolve(process.cwd(), 'tests/fixtures/ctgov/evaluation-split.json');
writeFileSync(out, `${JSON.stringify(split, null, 2)}\n`);
console.info(`seed ${SEED}: ${split.development.length} development, ${split.evaluation.length} evaluation records -> ${out}`);
