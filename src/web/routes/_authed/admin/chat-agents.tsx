import { createFileRoute } from '@tanstack/react-router';
import { chatAgentsSearch } from '../../../../contract/search';
import { ChatAgentsPage } from '../../../features/chat/ChatAgentsPage';

/** Chat agents: organization staff configure their own (the server scopes every agent to its organization). */
export const Route = createFileRoute('/_authed/admin/chat-agents')({
  validateSearch: chatAgentsSearch,
  staticData: { crumb: 'Chat agents', orgStaffAllowed: true },
  component: function ChatAgentsRoute() {
    const { search, orgs } = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <ChatAgentsPage
        search={search}
        orgs={orgs}
        onSearchChange={(next) => void navigate({ search: (previous) => ({ ...previous, search: next }), replace: true })}
        onOrgsChange={(next) => void navigate({ search: (previous) => ({ ...previous, orgs: next }), replace: true })}
      />
    );
  },
});
