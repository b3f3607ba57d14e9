import type { CriterionRule } from '../../src/contract/trials';
import type { MatchCriterion, MatchFact } from '../../src/server/features/matching/evaluate';
import { extractNoteFacts } from '../../src/server/features/matching/note-extractor';

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

/** A note's facts as the matcher sees them: read by the note reader on `today`, each with an id, from a clinical note. */
export function noteFacts(note: string, today: Date): MatchFact[] {
  return extractNoteFacts(note, { today }).map((fact, index) => ({ ...fact, id: `n${index}`, source: 'note' }) as MatchFact);
}
