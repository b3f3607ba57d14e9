import { createFileRoute } from '@tanstack/react-router';
import { FormBuilderPage } from '../../../../features/prescreen-forms/FormBuilderPage';
import { prescreenFormQueryOptions } from '../../../../features/prescreen-forms/keys';
import { getActiveOrganizationId } from '../../../../lib/api';

export const Route = createFileRoute('/_authed/admin/prescreen-forms/$formId')({
  // The breadcrumb is the form's name (Admin > Prescreen forms > name); the page shows its own errors.
  loader: async ({ context, params }) => {
    try {
      const form = await context.queryClient.ensureQueryData(prescreenFormQueryOptions(getActiveOrganizationId(), params.formId));
      return { crumb: form.name };
    } catch {
      return { crumb: 'Form' };
    }
  },
  component: function FormBuilderRoute() {
    const { formId } = Route.useParams();
    return <FormBuilderPage formId={formId} />;
  },
});
