/**
 * The steps of an onboarding (decision 027), in order. A plain module, no zod: the wizard route's search
 * params (contract/search.ts) are in the first page's JavaScript.
 */
export const ONBOARDING_STEPS = ['organization', 'owner', 'sites', 'trial', 'agents', 'sequence', 'checklist'] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

export const ONBOARDING_STEP_LABELS: Record<OnboardingStep, string> = {
  organization: 'Organization',
  owner: 'First owner',
  sites: 'Sites',
  trial: 'First trial',
  agents: 'Agents',
  sequence: 'Starter sequence',
  checklist: 'Checklist',
};
