import { ONBOARDING_STEP_LABELS, ONBOARDING_STEPS, type OnboardingStep } from '../../../contract/onboarding-steps';
import type { SequenceStepInput } from '../../../contract/sequences';

/** "Step 3 of 7: Sites". */
export const stepPosition = (step: OnboardingStep) =>
  `Step ${ONBOARDING_STEPS.indexOf(step) + 1} of ${ONBOARDING_STEPS.length}: ${ONBOARDING_STEP_LABELS[step]}`;

const BRANCH_WORDS: Record<string, string> = {
  replied: 'they replied',
  call_answered: 'they answered the call',
  call_missed: 'the call was missed',
  call_voicemail: 'the call went to voicemail',
  prescreen_pass: 'they passed the prescreen',
  prescreen_fail: 'they did not pass the prescreen',
};
const target = (value: string) => (value === 'end' ? 'stop' : value === 'next' ? 'go on' : `go to ${value}`);
const unitWords = (amount: number, unit: string) => `${amount} ${amount === 1 ? unit.replace(/s$/, '') : unit}`;

/** One step of a sequence template in words: "Text: Hi {firstName}…", "Wait 2 days", "If they replied: stop; otherwise go on". */
export function sequenceStepWords(step: SequenceStepInput): string {
  switch (step.type) {
    case 'sms':
      return `Text: ${step.message.en}`;
    case 'email':
      return `Email: ${step.subject.en}`;
    case 'call':
      return step.agentType === 'PRESCREEN' ? 'Prescreen call by the voice agent' : 'Scheduling call by the voice agent';
    case 'wait':
      return step.amount && step.unit
        ? `Wait ${unitWords(step.amount, step.unit)}`
        : `Wait until ${step.untilWeekday ? `${step.untilWeekday} ` : ''}${step.untilTime ?? ''}`;
    case 'branch':
      return `If ${BRANCH_WORDS[step.condition] ?? step.condition}: ${target(step.ifTrue)}; otherwise ${target(step.ifFalse)}`;
  }
}
