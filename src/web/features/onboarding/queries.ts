import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CreateOnboardingAgentsInput,
  CreateStarterSequenceInput,
  ImportOnboardingTrialInput,
  InviteOwnerInput,
  Onboarding,
  OnboardingStep,
  OrganizationSiteInput,
  StartOnboardingInput,
} from '../../../contract/onboarding';
import { api } from '../../lib/api';
import { useActiveOrganization } from '../../lib/active-organization';
import { invalidateOrg, orgQueryOptions } from '../../lib/query';
import { onboardingKeys, onboardingQueryOptions } from './keys';
import * as endpoints from '../../lib/api-operations.gen';

export { onboardingKeys, onboardingQueryOptions } from './keys';

/** Every onboarding (open and completed): the page lists the open ones first. */
export function useOnboardingsQuery(enabled: boolean) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery(
    orgQueryOptions({
      queryKey: onboardingKeys.list(activeOrganizationId),
      queryFn: ({ signal }) => api.call(endpoints.listOnboardings, { query: { status: 'all' }, signal }),
      enabled: enabled && Boolean(activeOrganizationId),
    }),
  );
}

export function useOnboardingQuery(id: string) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery({ ...onboardingQueryOptions(activeOrganizationId, id), enabled: Boolean(activeOrganizationId) });
}

export function useChecklistQuery(id: string) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery(
    orgQueryOptions({
      queryKey: onboardingKeys.checklist(activeOrganizationId, id),
      queryFn: ({ signal }) => api.call(endpoints.getOnboardingChecklist, { params: { id }, signal }),
      enabled: Boolean(activeOrganizationId),
      // The checklist reads what happens elsewhere (an agent switched off, a number assigned): always ask again.
      staleTime: 0,
    }),
  );
}

/** What the steps make, by query kind: shown elsewhere (trials, agents, forms, users) once a step made them. */
const MADE_BY_STEPS = ['users', 'trials', 'trial', 'prescreen-forms', 'prescreen-form', 'chat-agents', 'voice-agents', 'sequences'] as const;

/**
 * After a step: the answer is the onboarding as it is now; the list, the checklist and the organization
 * queries of what a step made are refetched when next shown.
 */
function useStepDone(id: string) {
  const queryClient = useQueryClient();
  const { activeOrganizationId } = useActiveOrganization();
  return (onboarding: Onboarding) => {
    queryClient.setQueryData(onboardingKeys.one(activeOrganizationId, id), onboarding);
    void invalidateOrg(queryClient, undefined, 'onboardings', ['onboarding', id, 'checklist'], ...MADE_BY_STEPS);
  };
}

/** Failures show beside the step's fields (the server's message and details), so they are not toasted. */
const step = { meta: { silent: true } } as const;

export function useStartOnboarding() {
  const queryClient = useQueryClient();
  return useMutation({
    ...step,
    mutationFn: (input: StartOnboardingInput) => api.call(endpoints.createOnboarding, { body: input }),
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: ['organizations'] }), invalidateOrg(queryClient, undefined, 'onboardings')]),
  });
}

/** Where the admin is: the step "Continue" opens next time (a failure only costs that, so it is toasted). */
export function useMoveToStep(id: string) {
  const done = useStepDone(id);
  return useMutation({
    mutationFn: (currentStep: OnboardingStep) => api.call(endpoints.updateOnboarding, { params: { id }, body: { currentStep } }),
    onSuccess: done,
  });
}

export function useInviteOwner(id: string) {
  const done = useStepDone(id);
  return useMutation({
    ...step,
    mutationFn: (input: InviteOwnerInput) => api.call(endpoints.setOnboardingOwner, { params: { id }, body: input }),
    onSuccess: done,
  });
}

export function useSaveSites(id: string) {
  const done = useStepDone(id);
  return useMutation({
    ...step,
    mutationFn: (input: { sites: OrganizationSiteInput[] }) => api.call(endpoints.setOnboardingSites, { params: { id }, body: input }),
    onSuccess: done,
  });
}

export function useImportTrial(id: string) {
  const done = useStepDone(id);
  return useMutation({
    ...step,
    mutationFn: (input: ImportOnboardingTrialInput) => api.call(endpoints.setOnboardingTrial, { params: { id }, body: input }),
    onSuccess: done,
  });
}

/** Starts recruiting for the onboarding's trial through the trials API, then reads the onboarding again. */
export function useStartRecruiting(id: string) {
  const done = useStepDone(id);
  return useMutation({
    ...step,
    mutationFn: async (trialId: string) => {
      await api.call(endpoints.updateTrial, { params: { trialId }, body: { status: 'recruiting' } });
      return api.call(endpoints.getOnboarding, { params: { id } });
    },
    onSuccess: done,
  });
}

export function useCreateAgents(id: string) {
  const done = useStepDone(id);
  return useMutation({
    ...step,
    mutationFn: (input: CreateOnboardingAgentsInput) => api.call(endpoints.setOnboardingAgents, { params: { id }, body: input }),
    onSuccess: done,
  });
}

export function useCreateStarterSequence(id: string) {
  const done = useStepDone(id);
  return useMutation({
    ...step,
    mutationFn: (input: CreateStarterSequenceInput) => api.call(endpoints.setOnboardingSequence, { params: { id }, body: input }),
    onSuccess: done,
  });
}

export function useCompleteOnboarding(id: string) {
  const done = useStepDone(id);
  return useMutation({ ...step, mutationFn: () => api.call(endpoints.completeOnboarding, { params: { id } }), onSuccess: done });
}
