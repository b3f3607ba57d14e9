import type { AnswerPredicate, Question } from '../../../contract/prescreen-forms';
import type { CriterionKind, CriterionRule } from '../../../contract/trials';

/** The generator's own shapes, shared by generator.ts and patient-side.ts (decision 150). */

export interface GeneratorCriterion {
  id: string;
  position: number;
  kind: CriterionKind;
  text: string;
  rule: CriterionRule | null;
  needsReview: boolean;
  /** A cohort the criterion is limited to ("Healthy controls"): it never disqualifies someone on its own. */
  population?: string | null;
}

export type Eligibility = 'eligible' | 'ineligible' | 'review';
export interface EligibilityLink {
  when: AnswerPredicate;
  then: Eligibility;
  otherwise?: Eligibility;
}

export type BlockKey = 'about' | 'medical' | 'medications' | 'logistics' | 'site';

export interface Template {
  block: BlockKey;
  question: Omit<Question, 'criterionLinks' | 'id'>;
  idBase: string;
}
