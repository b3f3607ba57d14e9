import type { CriterionRule } from '../../src/contract/trials';
import type { MatchCriterion, MatchFact } from '../../src/server/features/matching/evaluate';

let next = 0;

/** A candidate fact for matcher tests: only what the test says, the rest empty, from `source`. */
export function matchFact(source: MatchFact['source']) {
  return (partial: Partial<MatchFact> & Pick<MatchFact, 'kind' | 'name'>): MatchFact => ({
    id: `f${++next}`,
    conceptId: null,
    status: null,
    value: null,
    unit: null,
    valueText: null,
    observedOn: null,
    source,
    ...partial,
  });
}

/** A criterion for matcher tests: the rule as the criteria reader read it, reviewed, for everyone; `more` overrides. */
export function ruleCriterion(rule: CriterionRule, kind: MatchCriterion['kind'] = 'inclusion', more: Partial<MatchCriterion> = {}): MatchCriterion {
  return { id: 'c1', kind, rule, ruleSource: 'text', needsReview: false, population: null, ...more };
}
