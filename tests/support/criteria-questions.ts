import type { CriterionRule } from '../../src/contract/trials';
import { generateStudyBlocks } from '../../src/server/features/prescreen-forms/generator';

/** The questions a generated form asks about one criterion read into `rule` (those linked to a criterion). */
export function questionsAbout(kind: 'inclusion' | 'exclusion', text: string, rule: CriterionRule | null) {
  const { blocks } = generateStudyBlocks({ criteria: [{ id: 'c1', position: 0, kind, text, rule, needsReview: false }] });
  return blocks.flatMap((block) => block.questions).filter((item) => item.criterionLinks.length);
}
