import { FilterBar } from '../../components/filters';
import { SearchBox } from '../../components/SearchBox';
import { ExternalLink } from 'lucide-react';
import { useMemo, useState } from 'react';
import type { ChatAgent, StartedChat } from '../../../contract/chat';
import { CopyButton, CopyField } from '../../components/CopyButton';
import { Dialog } from '../../components/dialogs';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Button, buttonClass, Card, CardContent, EmptyState, PageHeader } from '../../components/ui';
import { EmptyWithAction } from '../../components/ListState';
import { useActiveOrganization } from '../../lib/active-organization';
import { useIsGlobal } from '../trials/hooks';
import { DeleteAgentDialog } from './agent-list';
import { AgentDialog } from './dialogs';
import { ChatAgentsTable } from './ChatAgentsTable';
import { publicChatUrl, useChatAgentsQuery, useDeleteChatAgent, useStartTestChat } from './queries';

/** The test conversation just started: opened in a new tab when the browser allowed it, and its link. */
function TestChatDialog({ started, onClose }: { started: { chat: StartedChat; url: string; opened: boolean } | null; onClose: () => void }) {
  return (
    <Dialog
      open={started !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Test chat started"
      description={
        started?.opened
          ? 'The chat opened in a new tab. It is marked as a test in Conversations.'
          : 'Open the chat to continue it as a visitor would. It is marked as a test in Conversations.'
      }
    >
      {started && (
        <div className="grid gap-4">
          <CopyField id="test-chat-link" label="Test chat link" value={started.url} />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
            <a href={started.url} target="_blank" rel="noopener noreferrer" className={buttonClass('primary')}>
              <ExternalLink aria-hidden="true" className="h-4 w-4" />
              Open chat<span className="sr-only"> (opens in a new tab)</span>
            </a>
          </div>
        </div>
      )}
    </Dialog>
  );
}

/** /admin/chat-agents: the agents that prescreen visitors on the public chat page; create, edit, try, delete. */
export function ChatAgentsPage({ search, onSearchChange }: { search: string | undefined; onSearchChange: (next: string | undefined) => void }) {
  const query = useChatAgentsQuery({ search });
  const isGlobal = useIsGlobal();
  const { activeOrganization, organizations } = useActiveOrganization();
  const names = useMemo(() => new Map(organizations.map((org) => [org.id, org.name])), [organizations]);
  const [editing, setEditing] = useState<ChatAgent | null>(null);
  const [deleting, setDeleting] = useState<ChatAgent | null>(null);
  const [tested, setTested] = useState<{ chat: StartedChat; url: string; opened: boolean } | null>(null);
  const remove = useDeleteChatAgent();
  const startTest = useStartTestChat();
  const publicLink = activeOrganization ? publicChatUrl(activeOrganization.publicId) : null;
  const agents = query.data?.chatAgents ?? [];

  const tryAgent = async (agent: ChatAgent) => {
    // Open the tab now (a user gesture), then point it at the chat once it exists: popup blockers allow that.
    const tab = window.open('', '_blank');
    try {
      const chat = await startTest.mutateAsync({ chatAgentId: agent.id });
      const url = publicChatUrl(chat.organization.publicId, { conversationId: chat.conversationId, token: chat.token });
      if (tab) {
        tab.opener = null;
        tab.location.href = url;
      }
      setTested({ chat, url, opened: Boolean(tab) });
    } catch {
      tab?.close();
    }
  };

  let body;
  if (query.isPending) body = <Spinner label="Loading chat agents" />;
  else if (query.isError) body = <ErrorCard title="Could not load chat agents" error={query.error} onRetry={() => void query.refetch()} />;
  else if (agents.length === 0 && !search) {
    body = (
      <EmptyState title="No chat agents yet">
        <p>Create an agent for a trial with a published prescreen form; visitors then chat with it on your public chat page.</p>
        <div className="mt-4 flex justify-center">
          <AgentDialog />
        </div>
      </EmptyState>
    );
  } else if (agents.length === 0) {
    body = <EmptyWithAction title="No agents match" actionLabel="Clear search" onAction={() => onSearchChange(undefined)} />;
  } else {
    body = (
      <ChatAgentsTable
        agents={agents}
        organizationNames={isGlobal ? names : null}
        onEdit={setEditing}
        onDelete={setDeleting}
        onTry={(agent) => void tryAgent(agent)}
        tryDisabled={startTest.isPending}
      />
    );
  }

  return (
    <div>
      <PageHeader
        title="Chat agents"
        description="Agents prescreen visitors on your organization’s public chat page, asking a trial’s published prescreen form as a conversation."
        actions={agents.length > 0 || search ? <AgentDialog /> : undefined}
      />
      {publicLink && (
        <Card className="mb-6">
          <CardContent className="flex flex-wrap items-end gap-3 pt-5">
            <div className="min-w-0 flex-1">
              <p className="text-sm font-medium text-slate-800">Public chat page{isGlobal ? ` of ${activeOrganization?.name}` : ''}</p>
              <p className="truncate font-mono text-sm text-slate-900" data-testid="public-chat-link">
                {publicLink}
              </p>
              <p className="text-xs text-slate-700">Share it on your website or in messages: visitors chat with the first active agent, no sign-in needed.</p>
            </div>
            <CopyButton value={publicLink} label="Copy public link" />
            <a href={publicLink} target="_blank" rel="noopener noreferrer" className={buttonClass('secondary', 'sm')}>
              <ExternalLink aria-hidden="true" className="h-4 w-4" />
              Open<span className="sr-only"> the public chat page (new tab)</span>
            </a>
          </CardContent>
        </Card>
      )}
      <FilterBar label="Filter chat agents">
        <SearchBox id="agents-search" placeholder="Agent name" className="w-72" value={search} onChange={onSearchChange} />
      </FilterBar>
      {body}
      {editing && <AgentDialog key={editing.id} agent={editing} open onOpenChange={(open) => !open && setEditing(null)} />}
      <DeleteAgentDialog
        agent={deleting}
        onClose={() => setDeleting(null)}
        remove={remove}
        description="The agent stops answering at once. Its conversations stay, without an agent."
      />
      <TestChatDialog started={tested} onClose={() => setTested(null)} />
    </div>
  );
}
