import { createFileRoute } from '@tanstack/react-router';
import { chatConversationsSearch } from '../../../../contract/search';
import { ComingSoon } from '../../../components/ComingSoon';

export const Route = createFileRoute('/_authed/admin/chat-conversations')({
  validateSearch: chatConversationsSearch,
  staticData: { crumb: "Conversations" },
  component: () => <ComingSoon title="Conversations" description="Chat conversations with candidates, by status and date, will be listed and readable here." search={Route.useSearch()} />,
});
