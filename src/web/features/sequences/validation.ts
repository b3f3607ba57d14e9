import { SEQUENCE_MAX_STEPS, SequenceStepSchema, stepProblems, type SequenceStep } from '../../../contract/sequences';
import { normalizeSteps } from './format';

export interface StepProblem {
  path: string;
  message: string;
}

/**
 * What the server would refuse in a list of steps, by path (`steps.1.message.en`): each step against the
 * contract's schema (required texts, lengths, the key's form), then the contract's own rules across steps
 * (`stepProblems`: keys used twice, waits of both kinds, branches backwards or to nowhere).
 */
export function builderProblems(steps: readonly SequenceStep[]): StepProblem[] {
  const normalized = normalizeSteps(steps);
  const problems: StepProblem[] = [];
  if (normalized.length === 0) problems.push({ path: 'steps', message: 'Add at least one step' });
  if (normalized.length > SEQUENCE_MAX_STEPS) problems.push({ path: 'steps', message: `A sequence has at most ${SEQUENCE_MAX_STEPS} steps` });
  normalized.forEach((step, index) => {
    const parsed = SequenceStepSchema.safeParse(step);
    if (parsed.success) return;
    for (const issue of parsed.error.issues) {
      const message = issue.message === 'Required' || /received undefined/i.test(issue.message) ? 'Required' : issue.message;
      problems.push({ path: ['steps', index, ...issue.path.map(String)].join('.'), message });
    }
  });
  problems.push(...stepProblems(normalized));
  return problems;
}

/** Only the rules across steps: shown while editing, before any save is tried. */
export function structuralProblems(steps: readonly SequenceStep[]): StepProblem[] {
  return stepProblems(normalizeSteps(steps));
}
