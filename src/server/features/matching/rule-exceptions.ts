import { isA } from './concept-hierarchy';

/**
 * What a rule excepts ("any cancer other than skin cancer", decision 202): a fact of an excepted concept, or one under it
 * in MeSH's tree, is not the rule's concept. A fact broader than an exception (the rule's own "lung disease" beside
 * "other than asthma") may be the exception, so it does not count either: the rule is left to other facts, or unknown.
 * Denials are not affected: "no lung disease" still answers "no lung disease other than asthma".
 */
export function exceptedFact(conceptId: string | null | undefined, except: ReadonlyArray<{ id: string }> | undefined): boolean {
  if (!except?.length || !conceptId) return false;
  for (const excepted of except) if (conceptId === excepted.id || isA(conceptId, excepted.id) || isA(excepted.id, conceptId)) return true;
  return false;
}
