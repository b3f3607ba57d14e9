import { createFileRoute } from '@tanstack/react-router';
import { sequenceQueryOptions } from '../../../../../features/sequences/keys';
import { getActiveOrganizationId } from '../../../../../lib/api';

/** The sequence's name is the breadcrumb of its page and of its builder (Admin > Sequences > name). */
export const Route = createFileRoute('/_authed/admin/sequences/$id')({
  loader: async ({ context, params }) => {
    try {
      const sequence = await context.queryClient.ensureQueryData(sequenceQueryOptions(getActiveOrganizationId(), params.id));
      return { crumb: sequence.name };
    } catch {
      return { crumb: 'Sequence' };
    }
  },
});
