import type { DraftCriterion } from '../../../../contract/trials';
import { readWithAlternatives } from './alternatives';
import type { ReadOptions } from './reader';
import { type SplitCriterion, splitCriteria } from './structure';

/**
 * The deterministic reader of eligibility text (docs/criteria-reading.md; decisions 005, 021). The structure (sections,
 * nested lists, cohorts) is read in structure.ts; each criterion's rule by the readers of reader.ts's ordered table,
 * one file each: age.ts, labs.ts (labs, vitals, scores, on measures.ts's table), status.ts (pregnancy, smoking, sex,
 * healthy volunteers), concepts.ts (conditions.ts and medications.ts: what a criterion names), judgement.ts (staff's
 * checks), durations.ts (time windows and how long a condition has lasted), qualifiers.ts (severity, course, place),
 * vaccines.ts (a vaccine named for its antigen is never any vaccine), study-conduct.ts (what the study itself arranges:
 * its schedule, setting, own product, permissions (an exclusion's too, tried first) and the operation's needs, as site
 * checks);
 * alternatives.ts reads an "at least one of the following" list together. This file is the folder's surface: what the
 * rest of the product imports.
 */

export { analyteLabUnit, analyteOfLabel, LAB_UNIT, namesLevel } from './analyte-labs';
export { readWithAlternatives } from './alternatives';
export { canonical, implausible, MEASURES, type Measure, normalizeUnit, UNIT } from './measures';
export { isPainScore, type PainSite, painSiteNear, painSiteOf, painSiteOfMeasure } from './pain-sites';
export { type ReadOptions, readTextRule, recordVocabulary, trialConceptsOf } from './reader';
export { readHeading, type SplitCriterion, splitCriteria, splitInlineList, unescapeMarkdown } from './structure';
export { NUMBER, type TextRule, toNumber } from './text';

/** Splits the text and reads each item's rule: the eligibility part of a draft trial. */
export function parseCriteria(eligibilityText: string, options: ReadOptions = {}): DraftCriterion[] {
  const items = splitCriteria(eligibilityText);
  const reads = readWithAlternatives(items, options);
  return items.map((item: SplitCriterion, index) => {
    const { rule, needsReview, anyOne, cohort } = reads[index];
    // One of several alternatives is not required by itself: a person checks which one the candidate meets, unless
    // the whole list was read as one rule of alternatives.
    return {
      kind: item.kind,
      text: item.text,
      rule,
      ruleSource: rule ? 'text' : null,
      needsReview: needsReview || (Boolean(item.alternative) && !anyOne),
      // Contradictory inclusions are alternatives (alternatives.ts): each its own cohort, named by its words.
      population: item.population ?? (cohort ? item.text.slice(0, 200) : null),
    };
  });
}
