/**
 * The recorded procedure that chose the second batch of the labelled set (issue 31; docs/matching-evaluation.md,
 * decision 196), all of it in the untuned part: twenty vignettes written for it (source `ours2`), each paired with the
 * trials named by hand from the trials' listed conditions (NAMED: the trials the patient has or may have the
 * condition of, and a few near misses, such as a cervical herniation for a lumbar trial), and each patient outside the
 * spine pool without a named near miss gets one trial of another condition drawn by seed 2041. Prints the pairs as
 * JSON; run once, after the vignettes were written and before any label: `npx tsx scripts/choose-labelled-pairs-2.ts`.
 */
import { DISC, seeded, shuffled, studyConditions } from './choose-labelled-pairs';

export const SEED = 2041;

/** Hand-named trials of each new patient; a patient listed in NAMED_NEAR_MISS already has a not-relevant pair. */
const NAMED: Record<string, string[]> = {
  'ours2-1': ['NCT05897541'],
  'ours2-2': ['NCT05913700', 'NCT05921903'],
  'ours2-3': ['NCT05925803'],
  'ours2-4': ['NCT05925803', 'NCT05818137'],
  'ours2-5': ['NCT05911841'],
  'ours2-6': ['NCT05831670'],
  'ours2-7': ['NCT05843643'],
  'ours2-8': ['NCT05861427'],
  'ours2-9': ['NCT05869903', 'NCT05813925'],
  'ours2-10': ['NCT05869903', 'NCT05813925'],
  'ours2-11': ['NCT05914155'],
  'ours2-12': ['NCT05887817'],
  'ours2-13': ['NCT05819398'],
  'ours2-14': ['NCT05879978', 'NCT05907980'],
  'ours2-15': ['NCT05879978', 'NCT05907980'],
  'ours2-16': ['NCT05913115'],
  'ours2-17': ['NCT06569069', 'NCT05021718', 'NCT03607838'],
  'ours2-18': ['NCT06569069', 'NCT04860609'],
  'ours2-19': ['NCT05474625', 'NCT05021718'],
  'ours2-20': ['NCT04860609', 'NCT05021718'],
};
/** Patients whose named trials already hold a near miss (furunculosis for hidradenitis; lung adenocarcinoma for SCLC). */
const NAMED_NEAR_MISS = new Set(['ours2-13', 'ours2-14']);
/** The spine patients: their pairs are all named (the herniation trials are not "other conditions"). */
const SPINE = new Set(['ours2-17', 'ours2-18', 'ours2-19', 'ours2-20']);

function main() {
  const conditions = studyConditions();
  const ids = [...conditions.keys()].sort();
  // The same pool of "other conditions" as the first batch's procedure.
  const others = ids.filter((id) => !DISC.test(conditions.get(id) ?? '') && !/healthy|older adults/i.test(conditions.get(id) ?? ''));
  const random = seeded(SEED);
  const pairs: Array<{ patient: string; trial: string; drawn: 'named' | 'other-condition' }> = [];
  for (const [patient, named] of Object.entries(NAMED)) {
    for (const trial of named) pairs.push({ patient, trial, drawn: 'named' });
    if (SPINE.has(patient) || NAMED_NEAR_MISS.has(patient)) continue;
    const other = shuffled(
      others.filter((id) => !named.includes(id)),
      random,
    )[0];
    pairs.push({ patient, trial: other, drawn: 'other-condition' });
  }
  console.log(JSON.stringify({ seed: SEED, part: 'untuned', pairs }, null, 1));
}

if (process.argv[1]?.endsWith('choose-labelled-pairs-2.ts')) main();
