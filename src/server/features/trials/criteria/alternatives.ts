import type { ConceptRef, CriterionKind, CriterionRule } from '../../../../contract/trials';
import { type ReadOptions, readTextRule } from './reader';
import { joinNames, type TextRule } from './text';

/**
 * An "at least one of the following" list read together as one rule of alternatives (decision 083).
 */

/** "At least one of the following conditions: ", "Any of the following: " (never "at least two of"). */
const ANY_ONE_LEAD =
  /^((?:[^:\n]*?:\s+)?[^:\n]*?\b(?:(?:one|any|either)\s+(?:\(1\)\s+)?of|at least one(?:\s+\(1\))?(?:\s+of)?|one or more of)\b[^:\n]*):\s+(?=\S)/i;

/**
 * Reads criteria in their order, the items of an inclusion list that one of is enough for together: "At least one of
 * the following conditions: type 2 diabetes", "...: hypertension", "...: chronic kidney disease" (consecutive items
 * with the same "any one of" lead-in, as the structure writes them) are one rule of alternatives, "must have type 2
 * diabetes, high blood pressure or kidney disease", which each item carries, so having any one meets all of them
 * (decision 083). Only when every item, read without its lead-in, is a rule that needs no review and wants a
 * concept (a condition the person has, or a medicine they take), all of one kind and time scope, with no qualifier or
 * duration (those belong to one item; a rule of alternatives would put them on all). Otherwise each item is read alone.
 * The import and the re-parse both read this way, so a re-parse finds the same rules.
 */
export function readWithAlternatives(
  items: ReadonlyArray<{ kind: CriterionKind; text: string; population?: string | null }>,
  options: ReadOptions = {},
): Array<TextRule & { anyOne?: boolean; cohort?: boolean }> {
  const reads: Array<TextRule & { anyOne?: boolean; cohort?: boolean }> = items.map((item) => readTextRule(item.kind, item.text, options));
  markCohorts(items, reads);
  const lead = (index: number) =>
    items[index].kind === 'inclusion' && !/\n/.test(items[index].text) ? (ANY_ONE_LEAD.exec(items[index].text)?.[1] ?? null) : null;
  for (let start = 0; start < items.length; ) {
    const key = lead(start);
    let end = start + 1;
    while (key && end < items.length && lead(end) === key) end++;
    if (key && !/\bat least (?:two|three|[2-9])\b/i.test(key) && end - start >= 2) {
      const members = Array.from({ length: end - start }, (_, offset) => start + offset);
      const merged = anyOneRule(
        members.map((index) => items[index].text),
        options,
      );
      if (merged)
        members.forEach((index, position) => {
          reads[index] = { ...merged[position], anyOne: true };
        });
    }
    start = end;
  }
  return reads;
}

/**
 * "COPD, smoker" and "COPD, non-smoker", "Aged 18-40" and "Aged 60-80": two inclusions of one cohort (or of none) that
 * cannot both hold are alternatives, headings of cohorts the protocol did not mark as such; a person meets the trial by
 * meeting either. Each is marked `cohort` and kept for a person: requiring both would refuse everybody.
 */
function markCohorts(items: ReadonlyArray<{ kind: CriterionKind; population?: string | null }>, reads: Array<TextRule & { cohort?: boolean }>) {
  for (let a = 0; a < items.length; a++) {
    for (let b = a + 1; b < items.length; b++) {
      const [first, second] = [reads[a].rule, reads[b].rule];
      if (items[a].kind !== 'inclusion' || items[b].kind !== 'inclusion' || (items[a].population ?? null) !== (items[b].population ?? null)) continue;
      if (!first || !second || !contradicts(first, second)) continue;
      for (const index of [a, b]) reads[index] = { ...reads[index], needsReview: true, cohort: true };
    }
  }
}

const conceptIds = (rule: CriterionRule) =>
  rule.type === 'condition' || rule.type === 'medication' ? JSON.stringify((rule.concepts ?? []).map((concept) => concept.id).sort()) : '';

/** Whether no person can meet both rules. */
function contradicts(a: CriterionRule, b: CriterionRule): boolean {
  if (a.type === 'smoking' && b.type === 'smoking') return a.smoker !== b.smoker;
  if (a.type === 'sex' && b.type === 'sex') return a.sex !== 'all' && b.sex !== 'all' && a.sex !== b.sex;
  if (a.type === 'age' && b.type === 'age')
    return (a.maxYears !== null && b.minYears !== null && a.maxYears < b.minYears) || (b.maxYears !== null && a.minYears !== null && b.maxYears < a.minYears);
  const scopeOf = (rule: CriterionRule) =>
    JSON.stringify([conceptIds(rule), (rule as { history?: boolean }).history ?? false, (rule as { within?: unknown }).within ?? null]);
  const sameScope = (x: CriterionRule, y: CriterionRule) => conceptIds(x) !== '[]' && scopeOf(x) === scopeOf(y);
  if (a.type === 'condition' && b.type === 'condition') return a.present !== b.present && sameScope(a, b);
  if (a.type === 'medication' && b.type === 'medication') return a.taking !== b.taking && sameScope(a, b);
  return false;
}

/** The words that say one alternative is enough, which the rule of alternatives says; the rest of a lead-in is read. */
const ANY_ONE_WORDS =
  /\b(?:(?:(?:at least|any)\s+)?one(?:\s+\(1\))?(?:\s+or\s+more)?|any|either)\s+of\s+(?:the\s+)?following(?:\s+(?:conditions?|criteria|diagnos[ie]s|diseases?|medical\s+conditions?))?(?=\s*:|\s+(?:in|within|during|over)\b)/i;

function anyOneRule(members: string[], options: ReadOptions): TextRule[] | null {
  // Blanked, not cut, so each rule's span still points into its own criterion's text.
  const rules = members.map((text) =>
    readTextRule(
      'inclusion',
      text.replace(ANY_ONE_WORDS, (words) => ' '.repeat(words.length)),
      options,
    ),
  );
  if (rules.some((read) => !read.rule || read.needsReview)) return null;
  const first = rules[0].rule!;
  const scope = (rule: CriterionRule) =>
    rule.type === 'condition' && rule.present && !rule.duration && !rule.qualifiers?.length
      ? JSON.stringify([rule.history ?? false, rule.within ?? null])
      : rule.type === 'medication' && rule.taking && !rule.medication.startsWith('medicines for ')
        ? JSON.stringify([rule.history ?? false, rule.within ?? null])
        : null;
  if (scope(first) === null || rules.some(({ rule }) => rule!.type !== first.type || scope(rule!) !== scope(first))) return null;
  const conceptsOf = (rule: CriterionRule) => (rule.type === 'condition' || rule.type === 'medication' ? (rule.concepts ?? []) : []);
  // Without concepts for every item, names are all a matcher could go by: a person reads the items.
  if (rules.some(({ rule }) => !conceptsOf(rule!).length)) return null;
  const concepts: ConceptRef[] = [];
  for (const { rule } of rules) for (const concept of conceptsOf(rule!)) if (!concepts.some((seen) => seen.id === concept.id)) concepts.push(concept);
  const name = joinNames(rules.map(({ rule }) => (rule!.type === 'condition' ? rule!.condition : rule!.type === 'medication' ? rule!.medication : '')));
  return rules.map((read) => {
    const own = read.rule!;
    const rule: CriterionRule =
      own.type === 'condition' ? { ...own, condition: name, concepts } : own.type === 'medication' ? { ...own, medication: name, concepts } : own;
    return { ...read, rule, needsReview: false };
  });
}
