import { createFileRoute } from '@tanstack/react-router';

/**
 * Outreach sequences. Organization staff may open them too: coordinators enroll their own candidates (the
 * server scopes every sequence to its organization).
 */
export const Route = createFileRoute('/_authed/admin/sequences')({
  staticData: { crumb: 'Sequences', orgStaffAllowed: true },
});
