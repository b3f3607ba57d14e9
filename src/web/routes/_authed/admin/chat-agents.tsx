import { createFileRoute } from '@tanstack/react-router';
import { chatAgentsSearch } from '../../../../contract/search';
import { ComingSoon } from '../../../components/ComingSoon';

export const Route = createFileRoute('/_authed/admin/chat-agents')({
  validateSearch: chatAgentsSearch,
  staticData: { crumb: "Chat agents" },
  component: () => <ComingSoon title="Chat agents" description="Chat agents that prescreen candidates on an organization's public chat page will be configured here." search={Route.useSearch()} />,
});
