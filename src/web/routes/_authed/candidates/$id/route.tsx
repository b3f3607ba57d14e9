import { createFileRoute } from '@tanstack/react-router';
import { candidateName } from '../../../../features/candidates/name';
import { candidateQueryOptions } from '../../../../features/candidates/queries';
import { getActiveOrganizationId } from '../../../../lib/api';

/** /candidates/$id and its contact history share the candidate's name as breadcrumb (Candidates > name). */
export const Route = createFileRoute('/_authed/candidates/$id')({
  loader: async ({ context, params }) => {
    try {
      const candidate = await context.queryClient.ensureQueryData(candidateQueryOptions(getActiveOrganizationId(), params.id));
      return { crumb: candidateName(candidate) };
    } catch {
      return { crumb: 'Candidate' };
    }
  },
});
