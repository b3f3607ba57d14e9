import { createFileRoute } from '@tanstack/react-router';

/**
 * Prescreen forms and the form builder. Organization staff may open them too: a site writes its own trials'
 * prescreen questions (the server scopes every form to the trial's organization).
 */
export const Route = createFileRoute('/_authed/admin/prescreen-forms')({
  staticData: { crumb: 'Prescreen forms', orgStaffAllowed: true },
});
