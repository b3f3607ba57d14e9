import type { CriterionRule } from '../../../contract/trials';
import { readTextRule } from '../trials/criteria';

/**
 * A criterion that applies to one cohort ("Applies to participants with type 2 diabetes only": its `population`,
 * decision 218) is judged for the people in that cohort and is not applicable to the others. Who is in it is read from
 * the population's words with the criteria reader, as an inclusion ("participant with T2D" wants type 2 diabetes,
 * "Non-smokers" never smoking now), and judged on the person's facts like any inclusion: met puts them in, not met
 * leaves them out, unknown leaves the criterion not applicable as before, so silence never brings a cohort's rules on
 * anyone. A population the reader cannot read as who a person is ("Expansion Part", "healthy participants": healthy
 * is loose in a protocol that takes stable chronic illness) has no rule and stays not applicable to everybody.
 */

/** The rules that say who a person is; a healthy volunteer, a pregnancy, a judgement or consent do not place anyone. */
const WHO_A_PERSON_IS = new Set<CriterionRule['type']>(['condition', 'medication', 'lab', 'age', 'sex', 'smoking', 'performance_status']);

export interface CohortCriterion {
  id: string;
  kind: 'inclusion';
  rule: CriterionRule;
  ruleSource: 'text';
  needsReview: false;
  population: null;
}

const cache = new Map<string, CohortCriterion | null>();

/** Who is in the population, as an inclusion criterion to judge on a person's facts; null when the words do not say. */
export function cohortCriterion(population: string): CohortCriterion | null {
  let found = cache.get(population);
  if (found !== undefined) return found;
  const read = readTextRule('inclusion', population);
  // Only a reading that needs no review places anyone: words it could not account for may narrow the cohort.
  found =
    read.rule && !read.needsReview && WHO_A_PERSON_IS.has(read.rule.type)
      ? { id: `cohort:${population}`, kind: 'inclusion', rule: read.rule, ruleSource: 'text', needsReview: false, population: null }
      : null;
  if (cache.size > 5_000) cache.clear();
  cache.set(population, found);
  return found;
}
