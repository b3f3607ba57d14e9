import { KIDNEY_STAGE_EGFR, kidneyStageOf } from '../../../../contract/kidney-disease-stage';
import type { CriterionKind, CriterionRule } from '../../../../contract/trials';
import { leftoverNumbers, plainReasons, reviewed, type Span, spanOf, type TextRule } from './text';

/**
 * A chronic kidney disease's stage, read as the filtration rate that defines it (decision 379): "CKD stage 4 or 5",
 * "chronic kidney disease stage 3b or higher", "stage IV-V CKD". KDIGO 2012 defines stages 3a to 5 by the eGFR alone
 * (G3a 45-59, G3b 30-44, G4 15-29, G5 under 15 mL/min/1.73 m²), so the rule is the eGFR's, which a person's record or a
 * site's laboratory answers. Stages 1 and 2 also need kidney damage beyond the rate (albuminuria, imaging), which an eGFR
 * cannot say: a criterion naming them is left to the other readers.
 */

const KIDNEY_DISEASE = String.raw`(?:chronic\s+kidney\s+disease|chronic\s+renal\s+(?:disease|failure|insufficiency|impairment)|ckd)(?:\s*\(\s*ckd\s*\))?`;
const STAGE = String.raw`(?:3a|3b|[345]|iii[ab]?|iv|v)`;
const JOIN = String.raw`\s*(?:-|–|to|through|or|and|\/)\s*`;
const HIGHER = String.raw`(?:\s*(?:or|and)\s+(?:higher|greater|above|worse|more\s+severe|beyond))`;
/** "Stage 4 or 5 CKD", "CKD stage ≥ 3b", "chronic kidney disease (stage 3b or higher)". */
const STAGED = new RegExp(
  String.raw`\b(?:${KIDNEY_DISEASE}\s*,?\s*\(?\s*(?:(?:at|of|in)\s+)?(?:stages?|g)\s*(?<at>≥|>=|>)?\s*(?<first>${STAGE})(?:${JOIN}(?<second>${STAGE}))?(?<higher>${HIGHER})?\s*\)?|(?:stages?|g)\s*(?<at2>≥|>=|>)?\s*(?<first2>${STAGE})(?:${JOIN}(?<second2>${STAGE}))?(?<higher2>${HIGHER})?\s+${KIDNEY_DISEASE})(?![a-z\d])`,
  'i',
);
/** A stage of another scale beside it: "CKD stage 3 or stage 2 with albuminuria" names what the rate cannot. */
const STAGE_ONE_OR_TWO = /\b(?:stages?|g)\s*[12]\b|\b(?:stages?|g)\s*i{1,2}\b(?!i)/i;
const WORDS = new Set([
  'chronic',
  'kidney',
  'renal',
  'disease',
  'failure',
  'insufficiency',
  'impairment',
  'ckd',
  'stage',
  'stages',
  'higher',
  'greater',
  'above',
  'worse',
  'more',
  'severe',
  'beyond',
]);

export function readKidneyStageRule(kind: CriterionKind, text: string): TextRule | null {
  // A rate written beside the stage ("CKD stage 4 (eGFR < 30)") is the lab reader's to read.
  if (!/ckd|kidney|renal/i.test(text) || /\b(?:e?gfr|crcl|creatinine\s+clearance)\b/i.test(text)) return null;
  const match = STAGED.exec(text);
  if (!match?.groups || STAGE_ONE_OR_TWO.test(text)) return null;
  const groups = match.groups;
  const first = kidneyStageOf(groups.first ?? groups.first2);
  const secondWritten = groups.second ?? groups.second2;
  const upward = Boolean(groups.higher ?? groups.higher2 ?? groups.at ?? groups.at2);
  const second = secondWritten ? kidneyStageOf(secondWritten) : upward ? '5' : first;
  if (!first || !second) return { rule: null, needsReview: true };
  // "Stage 4 or 3": no range says it.
  if (KIDNEY_STAGE_EGFR[second][1] > KIDNEY_STAGE_EGFR[first][1]) return { rule: null, needsReview: true };
  // "Stage > 3" is the stages past 3, below its lowest rate; "≥ 3" and "3 or higher" are 3 and past it.
  const strict = groups.at === '>' || groups.at2 === '>';
  const low = KIDNEY_STAGE_EGFR[second][0];
  const high = strict ? KIDNEY_STAGE_EGFR[first][0] : KIDNEY_STAGE_EGFR[first][1];
  if (high <= low) return { rule: null, needsReview: true };
  const span: Span = [match.index, match.index + match[0].length];
  const rule = egfrRule(kind, low, high, span);
  if (!rule) return { rule: null, needsReview: true };
  return reviewed(rule, [leftoverNumbers(text, [span]) && 'numbers', ...plainReasons(text, [span], 0, WORDS)]);
}

/** The eGFR's rule: the stages' rate below a bound, or between two. An excluded middle range is two rules, a person's. */
function egfrRule(kind: CriterionKind, low: number, high: number, span: Span): CriterionRule | null {
  const lab = (comparator: Extract<CriterionRule, { type: 'lab' }>['comparator'], value: number, upperValue?: number): CriterionRule => ({
    type: 'lab',
    measure: 'eGFR',
    comparator,
    value,
    ...(upperValue !== undefined ? { upperValue } : {}),
    unit: 'mL/min/1.73m2',
    span: spanOf(span),
  });
  if (low === 0) return kind === 'inclusion' ? lab('<', high) : lab('>=', high);
  // Rates are reported in whole numbers: the stage ends one under the next stage's bound.
  return kind === 'inclusion' ? lab('between', low, high - 1) : null;
}
