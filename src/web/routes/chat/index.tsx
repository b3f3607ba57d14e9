import { createFileRoute, redirect } from '@tanstack/react-router';
import { chatEntrySearch } from '../../../contract/search';

/** /chat/?organization-id=...: to the organization's chat, carrying conversation-id and token; else home. */
export const Route = createFileRoute('/chat/')({
  validateSearch: chatEntrySearch,
  beforeLoad: ({ search }) => {
    const organizationId = search['organization-id'];
    if (!organizationId) throw redirect({ to: '/' });
    throw redirect({
      to: '/chat/$organizationId',
      params: { organizationId },
      search: { 'conversation-id': search['conversation-id'], token: search.token },
    });
  },
});
