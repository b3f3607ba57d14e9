import { createFileRoute } from '@tanstack/react-router';
import { chatConversationsSearch } from '../../../../contract/search';
import { extendSearch, text } from '../../../../contract/search-params';
import { ConversationDetailPage } from '../../../features/chat/ConversationDetailPage';
import { ConversationsPage, type ConversationFilters } from '../../../features/chat/ConversationsPage';

/** The list's filters (docs/product-spec.md §2) plus `conversationId`: that conversation's transcript and result. */
const search = extendSearch(chatConversationsSearch, { conversationId: text });

/** Chat conversations; filters live in the URL (they survive a reload). Organization staff read their own. */
export const Route = createFileRoute('/_authed/admin/chat-conversations')({
  validateSearch: search,
  staticData: { crumb: 'Conversations', orgStaffAllowed: true },
  loaderDeps: ({ search }) => ({ conversationId: search.conversationId }),
  loader: ({ deps }) => (deps.conversationId ? { trailingCrumb: 'Conversation' } : {}),
  component: function ChatConversationsRoute() {
    const { conversationId, ...filters } = Route.useSearch();
    const navigate = Route.useNavigate();
    if (conversationId) return <ConversationDetailPage key={conversationId} conversationId={conversationId} backSearch={filters} />;
    return (
      <ConversationsPage
        filters={filters as ConversationFilters}
        onFiltersChange={(patch) => void navigate({ search: (previous) => ({ ...previous, ...patch }), replace: true })}
      />
    );
  },
});
