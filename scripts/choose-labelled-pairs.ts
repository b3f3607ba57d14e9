/**
 * The recorded procedure that chose the labelled set's patient-trial pairs (docs/matching-evaluation.md): the
 * relevant trials of each patient are named by hand from the trial's listed conditions (RELEVANT below); the
 * disc-herniation trials, too many to read all, are a pool drawn by seed; each patient outside the spine pool gets
 * one trial of another condition drawn by seed (a "not relevant" pair); the untuned part is drawn by patient, by
 * seed, so no patient is in both parts. Prints the pairs as JSON; run once, before the matcher changed:
 * `npx tsx scripts/choose-labelled-pairs.ts`.
 */
import { readFileSync } from 'node:fs';
import { seededRandom } from '../src/server/seeded-random';

export const SEED = 2031;
export const UNTUNED_SHARE = 0.4;

/** The product's seeded generator (mulberry32), so the draw is the same on every machine. */
export const seeded = seededRandom;

export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

const LUMBAR = 'lumbar';
/** Hand-named relevant trials; LUMBAR draws that many from the seeded lumbar pool. */
const RELEVANT: Record<string, Array<string | [typeof LUMBAR, number]>> = {
  'ours-d1': [[LUMBAR, 5]],
  'ours-d2': [[LUMBAR, 5]],
  'ours-d3': [[LUMBAR, 5]],
  'ours-d5': [[LUMBAR, 5]],
  'ours-d6': [[LUMBAR, 5], 'NCT05161130'],
  'ours-d7': [[LUMBAR, 5]],
  'ours-d9': [[LUMBAR, 3], 'NCT05161130', 'NCT00000410'],
  'ours-d4': ['NCT04544683', 'NCT01662219', 'NCT05240586', 'NCT05474625', [LUMBAR, 1]],
  'ours-d8': ['NCT05313997', [LUMBAR, 2]],
  'trec-202144': [[LUMBAR, 2]],
  'ours-c1': ['NCT05897541', 'NCT05894590'],
  'ours-c2': ['NCT05913700', 'NCT05921903'],
  'ours-c3': ['NCT05925803'],
  'ours-c4': ['NCT05911841'],
  'ours-c5': ['NCT05831670'],
  'ours-c6': ['NCT05843643'],
  'ours-c7': ['NCT05819398'],
  'ours-c8': ['NCT05809934', 'NCT05869903', 'NCT05813925'],
  'ours-c9': ['NCT05913115', 'NCT05907980'],
  'ours-c10': ['NCT05879978', 'NCT05907980'],
  'ours-c11': ['NCT05914155'],
  'ours-c12': ['NCT05887817'],
  'ours-c13': ['NCT05861427'],
  'ours-c14': ['NCT05838768', 'NCT05907980'],
  'ours-c15': ['NCT05883644'],
  'ours-c16': ['NCT05818137'],
  'ours-c17': ['NCT05905055'],
  'ours-c18': ['NCT05844332', 'NCT05907980'],
  'ours-c19': ['NCT05882279'],
  'ours-c20': ['NCT05832827', 'NCT05907980'],
  'ours-h1': ['NCT05921903', 'NCT05819710', 'NCT05835856'],
  'trec-202117': ['NCT05882279'],
  'trec-202123': ['NCT00712335'],
  'trec-202159': ['NCT00712335'],
  'trec-202128': ['NCT00712335'],
  'sigir-201423': ['NCT00712335'],
  'trec-202136': ['NCT05869903', 'NCT05813925'],
  'trec-202171': ['NCT05869903', 'NCT05813925'],
  'sigir-20147': ['NCT05869903', 'NCT05813925'],
  'sigir-20146': ['NCT05869903', 'NCT05813925'],
  'trec-20214': ['NCT05861427', 'NCT05869903', 'NCT05813925'],
  'trec-202135': ['NCT05861427'],
  'trec-202161': ['NCT05907980'],
  'trec-202111': ['NCT05907980'],
  'trec-202125': ['NCT05907980'],
  'trec-202115': ['NCT05907980'],
  'trec-202131': ['NCT05907980'],
  'trec-202113': ['NCT05905055'],
  'trec-202151': ['NCT05905055'],
  'trec-202116': ['NCT05818137'],
  'trec-202127': ['NCT05883644', 'NCT05809934'],
  'trec-202164': ['NCT05883644', 'NCT05809934'],
  'trec-202154': [],
  'sigir-201411': [],
};

export const DISC = /disc|disk|herniat|prolapse|sciatica|radiculopathy|nucleus pulposus/i;

/** Each ctgov record's listed conditions, joined, by NCT id (read in place from ../shared). */
export function studyConditions(): Map<string, string> {
  const studies = JSON.parse(readFileSync('../shared/data/ctgov/studies.json', 'utf8')) as Array<{
    protocolSection: { identificationModule: { nctId: string }; conditionsModule?: { conditions?: string[] } };
  }>;
  return new Map(studies.map((s) => [s.protocolSection.identificationModule.nctId, (s.protocolSection.conditionsModule?.conditions ?? []).join('; ')]));
}

function main() {
  const conditions = studyConditions();
  const ids = [...conditions.keys()].sort();
  const random = seeded(SEED);
  const lumbarAll = ids.filter((id) => DISC.test(conditions.get(id) ?? '') && !/cervical|thoracic/i.test(conditions.get(id) ?? ''));
  const lumbarPool = shuffled(lumbarAll, random).slice(0, 8);
  const others = ids.filter((id) => !DISC.test(conditions.get(id) ?? '') && !/healthy|older adults/i.test(conditions.get(id) ?? ''));
  const pairs: Array<{ patient: string; trial: string; drawn: 'relevant-named' | 'lumbar-pool' | 'other-condition' }> = [];
  for (const [patient, wanted] of Object.entries(RELEVANT)) {
    const named = new Set<string>();
    for (const item of wanted) {
      if (typeof item === 'string') {
        named.add(item);
        pairs.push({ patient, trial: item, drawn: 'relevant-named' });
      } else {
        for (const trial of shuffled(lumbarPool, random).slice(0, item[1])) pairs.push({ patient, trial, drawn: 'lumbar-pool' });
      }
    }
    if (patient.startsWith('ours-d') || patient === 'trec-202144') continue;
    const other = shuffled(
      others.filter((id) => !named.has(id)),
      random,
    )[0];
    pairs.push({ patient, trial: other, drawn: 'other-condition' });
  }
  const patients = Object.keys(RELEVANT).sort();
  const untuned = new Set(shuffled(patients, seeded(SEED + 1)).slice(0, Math.round(patients.length * UNTUNED_SHARE)));
  console.log(JSON.stringify({ seed: SEED, lumbarPool, untunedPatients: [...untuned].sort(), pairs }, null, 1));
}

if (process.argv[1]?.endsWith('choose-labelled-pairs.ts')) main();
