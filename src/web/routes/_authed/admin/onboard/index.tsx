import { createFileRoute } from '@tanstack/react-router';
import { OnboardingsPage } from '../../../../features/onboarding/OnboardingsPage';

export const Route = createFileRoute('/_authed/admin/onboard/')({
  component: OnboardingsPage,
});
