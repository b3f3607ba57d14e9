import type { MatchFact } from '../../src/server/features/matching/evaluate';

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
