import { createFileRoute } from '@tanstack/react-router';

/** Onboarding customer organizations: Cohortly's internal admins (decision 027). */
export const Route = createFileRoute('/_authed/admin/onboard')({
  staticData: { crumb: 'Onboard' },
});
