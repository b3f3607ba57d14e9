import { createFileRoute, notFound } from '@tanstack/react-router';
import type { PublicOrganization } from '../../../contract/organizations';
import { chatSearch } from '../../../contract/search';
import { NotFound } from '../../components/NotFound';
import { PublicChatPage } from '../../features/chat/PublicChatPage';
import { api, ApiRequestError } from '../../lib/api';
import { queryKeys } from '../../lib/query';
import * as endpoints from '../../lib/api-operations.gen';

export const Route = createFileRoute('/chat/$organizationId')({
  validateSearch: chatSearch,
  loader: async ({ params, context }): Promise<{ organization: PublicOrganization | null }> => {
    try {
      const organization = await context.queryClient.fetchQuery({
        queryKey: queryKeys.publicOrganization(params.organizationId),
        queryFn: () => api.call(endpoints.getPublicOrganization, { params: { publicId: params.organizationId } }),
        retry: false,
        meta: { silent: true },
      });
      return { organization };
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 404) throw notFound();
      // Any other failure is only logged: the page still loads (docs/product-spec.md §2, §8).
      console.error(error);
      return { organization: null };
    }
  },
  notFoundComponent: () => (
    <main>
      <NotFound />
    </main>
  ),
  component: function ChatRoute() {
    const { organization } = Route.useLoaderData();
    const { organizationId } = Route.useParams();
    const search = Route.useSearch();
    return <PublicChatPage organization={organization} organizationId={organizationId} search={search} />;
  },
});
