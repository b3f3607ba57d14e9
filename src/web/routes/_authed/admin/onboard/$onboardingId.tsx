import { createFileRoute } from '@tanstack/react-router';
import { onboardingSearch } from '../../../../../contract/search';
import { ONBOARDING_STEPS, type OnboardingStep } from '../../../../../contract/onboarding-steps';
import { OnboardingWizardPage } from '../../../../features/onboarding/OnboardingWizardPage';
import { onboardingQueryOptions } from '../../../../features/onboarding/keys';
import { getActiveOrganizationId } from '../../../../lib/api';

/** One onboarding: the wizard. `step` in the URL keeps the step, so a reload resumes there. */
export const Route = createFileRoute('/_authed/admin/onboard/$onboardingId')({
  validateSearch: onboardingSearch,
  // The breadcrumb is the organization's name (Admin > Onboard > name); the page shows its own errors.
  loader: async ({ context, params }) => {
    try {
      const onboarding = await context.queryClient.ensureQueryData(onboardingQueryOptions(getActiveOrganizationId(), params.onboardingId));
      return { crumb: onboarding.organizationName };
    } catch {
      return { crumb: 'Onboarding' };
    }
  },
  component: function OnboardingWizardRoute() {
    const { onboardingId } = Route.useParams();
    const { step } = Route.useSearch();
    const navigate = Route.useNavigate();
    const known = ONBOARDING_STEPS.find((item): item is OnboardingStep => item === step);
    return <OnboardingWizardPage onboardingId={onboardingId} step={known} onStepChange={(next) => void navigate({ search: { step: next } })} />;
  },
});
