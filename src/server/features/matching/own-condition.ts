import { isA } from './concept-hierarchy';
import type { ScorePlan } from './score';

/**
 * The trial's own condition does not answer its broad exclusions (issue 31, decision 154). "Any musculoskeletal
 * disease" in a trial for lumbar disc herniation means another one: the herniation everyone in the trial has is not
 * what it excludes, so a fact of the trial's condition (or of a form of it, or of what it is a form of) is not read
 * for an exclusion whose concept is broader than that condition. Any other fact still decides it: someone with
 * rheumatoid arthritis is still excluded. Only the tree decides what is broader; nothing is matched by words.
 *
 * A trial that also takes healthy volunteers (decision 189) is not for people who have its listed condition unless an
 * inclusion asks for it (an asthma cohort beside healthy smokers): a vaccine trial's RSV is what it prevents, so a
 * person ill with RSV now is read for "acute disease at the time of vaccination" like anyone else.
 */

interface Criterion {
  kind: 'inclusion' | 'exclusion';
  ruleSource?: string | null;
  rule: { type: string; concepts?: ReadonlyArray<{ id: string }>; present?: boolean; otherThanTrialCondition?: boolean } | null;
}

const cache = new WeakMap<readonly Criterion[], Array<readonly string[] | null>>();

/** Per criterion: the trial's condition concepts its facts must not be read as (a broad exclusion), or null. */
export function ownConditionsPerCriterion(criteria: readonly Criterion[], plans: readonly ScorePlan[]): Array<readonly string[] | null> {
  let found = cache.get(criteria);
  if (found) return found;
  const own = new Set<string>();
  // The trial's condition, and every condition its inclusions ask everyone to have (decision 183): "any neurological
  // disease" in a trial that wants radiculopathy does not mean the radiculopathy.
  const wanted = wantedConditions(criteria);
  for (const [i, criterion] of criteria.entries()) {
    if (!plans[i].relevance && !plans[i].dependsOnRelevance) continue;
    const open = criterion.ruleSource === 'target-open';
    for (const concept of criterion.rule?.concepts ?? []) if (!open || isOwnCondition(concept.id, wanted)) own.add(concept.id);
  }
  found = criteria.map((criterion) => {
    const rule = criterion.rule;
    if (rule?.type === 'condition' && !rule.present && rule.otherThanTrialCondition) return otherThanOwn(rule.concepts ?? [], own);
    if (criterion.kind !== 'exclusion' || rule?.type !== 'condition' || rule.present || !own.size) return null;
    const narrower = [...own].filter((id) => (rule.concepts ?? []).some((concept) => concept.id !== id && isA(id, concept.id)));
    return narrower.length ? narrower : null;
  });
  cache.set(criteria, found);
  return found;
}

/** The conditions any inclusion asks for, a cohort's included ("Applies to asthmatics only"). */
function wantedConditions(criteria: readonly Criterion[]): string[] {
  const wanted: string[] = [];
  for (const criterion of criteria)
    if (criterion.kind === 'inclusion' && criterion.ruleSource !== 'target-open' && criterion.rule?.type === 'condition' && criterion.rule.present)
      for (const concept of criterion.rule.concepts ?? []) wanted.push(concept.id);
  return wanted;
}

/** Whether a fact's concept is the trial's own condition, a form of it or what it is a form of. */
export function isOwnCondition(conceptId: string | null, own: readonly string[]): boolean {
  if (!conceptId) return false;
  for (const id of own) if (conceptId === id || isA(conceptId, id) || isA(id, conceptId)) return true;
  return false;
}

/**
 * "Another malignancy", "other than the disease under study" (decision 305), in an exclusion or an inclusion that wants
 * none: the trial's condition is not counted even when it is the rule's own concept (a trial for "Cancer" or "Solid
 * Tumor"). When the trial's condition is not known, or not placed in the tree (a listed name the vocabulary does not
 * read), any fact of the rule's concept may be that condition: none is counted, and only a denial answers the rule.
 */
function otherThanOwn(concepts: ReadonlyArray<{ id: string }>, own: ReadonlySet<string>): readonly string[] | null {
  const unplaced = !own.size || [...own].some((id) => id.startsWith('cohortly:trial-condition:'));
  if (unplaced) return concepts.length ? concepts.map((concept) => concept.id) : null;
  const under = [...own].filter((id) => concepts.some((concept) => isA(id, concept.id)));
  return under.length ? under : null;
}
