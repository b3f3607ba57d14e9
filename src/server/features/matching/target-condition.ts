import type { ConceptRef } from '../../../contract/trials';
import { vocabulary } from '../trials/vocabulary';
import { matchPerson, type MatchCriterion, type MatchPerson, type PersonMatch } from './evaluate';
import { discLevelsOf } from './spinal-levels';

/**
 * The trial's target condition as a key inclusion (issue 31, decision 130): the condition the trial is for, read
 * from the conditions its record lists (by the vocabulary; a listed condition it does not know is kept by its words)
 * and, when none of those is a known concept, from the conditions its inclusion criteria ask for. A person whose
 * facts show it (or a more specific form of it, `concept-hierarchy.ts`) meets it; one whose facts show nothing
 * about it is never "likely". A trial that also accepts healthy volunteers (a vaccine against the condition, a
 * household's prophylaxis) keeps it as a key criterion (no one is "likely" on silence), with an even prior; a trial
 * whose listed conditions name no disease ("Healthy Subjects", "Older Adults") has none.
 */

/** The criterion id of a trial's target condition in results and evidence (never a stored criterion's uuid). */
export const TARGET_CONDITION_ID = 'trial-condition';
/** Its rule's source: the trial is for people with the condition, or also takes healthy volunteers. */
export const TARGET_SOURCE = 'target';
export const TARGET_OPEN_SOURCE = 'target-open';

export interface TrialForMatch {
  conditions: readonly string[];
  healthyVolunteers?: boolean | null;
  criteria: readonly MatchCriterion[];
}

/** What the record lists that names no disease: a population, a procedure or a goal ("Healthy Subjects", "Children"). */
const NOT_A_CONDITION = /^(?:healthy|older adults?|children|adults?|volunteers?|quality of life|surgery|acute disease|chronic disease)\b/i;

/** The condition concepts the vocabulary reads in a listed condition, kept per name (re-matching reads 200 trials a request). */
const conceptIdCache = new Map<string, string[]>();
function conceptIdsOf(name: string): string[] {
  let ids = conceptIdCache.get(name);
  if (!ids) {
    if (conceptIdCache.size > 5_000) conceptIdCache.clear();
    ids = [
      ...new Set(
        vocabulary()
          .find(name)
          .filter((mention) => mention.concept.kind === 'condition')
          .map((mention) => mention.concept.id),
      ),
    ];
    conceptIdCache.set(name, ids);
  }
  return ids;
}

export function targetConditionOf(trial: TrialForMatch): (MatchCriterion & { text: string }) | null {
  const concepts = new Map<string, ConceptRef>();
  const unread: string[] = [];
  for (const condition of trial.conditions) {
    const name = condition.trim();
    if (!name || NOT_A_CONDITION.test(name)) continue;
    const ids = conceptIdsOf(name);
    for (const id of ids) concepts.set(id, { id, name: name.slice(0, 200) });
    if (ids.length === 0) unread.push(name);
  }
  if (concepts.size === 0) {
    // The record's list names nothing the vocabulary knows: the conditions the inclusion criteria require.
    for (const criterion of trial.criteria) {
      const rule = criterion.rule;
      if (criterion.kind !== 'inclusion' || criterion.population || rule?.type !== 'condition' || !rule.present) continue;
      for (const concept of rule.concepts ?? []) concepts.set(concept.id, concept);
    }
  }
  // A listed condition the vocabulary does not know is kept by its words: a fact naming all of them meets it.
  for (const name of unread) concepts.set(`cohortly:trial-condition:${name.toLowerCase()}`, { id: `cohortly:trial-condition:${name.toLowerCase()}`, name });
  if (concepts.size === 0 || asksItPlainly(trial.criteria, concepts)) return null;
  const names = trial.conditions.filter((name) => !NOT_A_CONDITION.test(name.trim()));
  const label = (names.length ? names : [...concepts.values()].map((concept) => concept.name)).slice(0, 3).join(', ');
  return {
    id: TARGET_CONDITION_ID,
    kind: 'inclusion',
    text: `Has the condition the trial is for: ${label}`,
    rule: { type: 'condition', condition: label.slice(0, 200), present: true, concepts: [...concepts.values()].slice(0, 50) },
    ruleSource: trial.healthyVolunteers === true ? TARGET_OPEN_SOURCE : TARGET_SOURCE,
    needsReview: false,
    population: null,
  };
}

/**
 * Whether one of the trial's own inclusions already asks for the condition, plainly (a reviewed rule, for everyone,
 * with no qualifier, duration or window that could leave it unknown when the condition is on record): that criterion
 * is the key, and a second one saying the same would only repeat it in the evidence.
 */
function asksItPlainly(criteria: readonly MatchCriterion[], concepts: ReadonlyMap<string, ConceptRef>): boolean {
  return criteria.some((criterion) => {
    const rule = criterion.rule;
    if (criterion.kind !== 'inclusion' || criterion.population || criterion.needsReview || rule?.type !== 'condition' || !rule.present) return false;
    if (rule.qualifiers?.length || rule.duration || rule.within || discLevelsOf(criterion)) return false;
    return (rule.concepts ?? []).some((concept) => concepts.has(concept.id));
  });
}

/** The criteria the matcher evaluates for a trial: its target condition first, then its own criteria. */
export function criteriaForMatching<C extends MatchCriterion>(
  trial: TrialForMatch & { criteria: readonly C[] },
): Array<C | (MatchCriterion & { text: string })> {
  const target = targetConditionOf(trial);
  return target ? [target, ...trial.criteria] : [...trial.criteria];
}

/** A trial (its listed conditions and criteria) against a person: its target condition first. */
export function matchTrial(trial: TrialForMatch, person: MatchPerson, today: Date, options: { explain?: boolean } = {}): PersonMatch {
  return matchPerson(criteriaForMatching(trial), person, today, options);
}
