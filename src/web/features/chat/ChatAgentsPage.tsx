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
import { DefaultSelectionNote } from '../trials/DefaultSelectionNote';
import { OrganizationFilter } from '../trials/OrganizationFilter';
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

interface ChatAgentsPageProps {
  search: string | undefined;
  onSearchChange: (next: string | undefined) => void;
  /** A global admin's organization filter, as on the other list pages (none: the default selection). */
  orgs: string[] | undefined;
  onOrgsChange: (next: string[] | undefined) => void;
}

/**
 * The organization whose public chat page the page offers: the user's own, or for a global admin the one organization
 * chosen in the filter (none or several chosen: no single page to offer).
 */
function usePublicChatOrganization(chosenOrgs: string[] | undefined) {
  const isGlobal = useIsGlobal();
  const { activeOrganization, organizations } = useActiveOrganization();
  if (!isGlobal) return activeOrganization;
  return chosenOrgs?.length === 1 ? (organizations.find((org) => org.id === chosenOrgs[0]) ?? null) : null;
}

/** /admin/chat-agents: the agents that prescreen visitors on the public chat page; create, edit, try, delete. */
export function ChatAgentsPage({ search, onSearchChange, orgs, onOrgsChange }: ChatAgentsPageProps) {
  const isGlobal = useIsGlobal();
  const chosenOrgs = isGlobal ? orgs : undefined;
  const query = useChatAgentsQuery({ search, orgs: chosenOrgs });
  const { organizations } = useActiveOrganization();
  const publicOrganization = usePublicChatOrganization(chosenOrgs);
  const names = useMemo(() => new Map(organizations.map((org) => [org.id, org.name])), [organizations]);
  const [editing, setEditing] = useState<ChatAgent | null>(null);
  const [deleting, setDeleting] = useState<ChatAgent | null>(null);
  const [tested, setTested] = useState<{ chat: StartedChat; url: string; opened: boolean } | null>(null);
  const remove = useDeleteChatAgent();
  const startTest = useStartTestChat();
  const publicLink = publicOrganization ? publicChatUrl(publicOrganization.publicId) : null;
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
      <EmptyState title={chosenOrgs?.length ? 'No chat agents in the chosen organizations' : 'No chat agents yet'}>
        <p>Create an agent for a trial with a published prescreen form; visitors then chat with it on your public chat page.</p>
        {isGlobal && !chosenOrgs?.length && <DefaultSelectionNote things="agents" />}
        <div className="mt-4 flex justify-center">
          <AgentDialog orgs={chosenOrgs} />
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
        actions={agents.length > 0 || search ? <AgentDialog orgs={chosenOrgs} /> : undefined}
      />
      {isGlobal && !publicLink && (
        <p className="mb-4 text-sm text-slate-700" data-testid="public-chat-choose">
          Choose one organization under Organizations to see its public chat page.
        </p>
      )}
      {publicLink && (
        <Card className="mb-6">
          <CardContent className="flex flex-wrap items-end gap-3 pt-5">
            <div className="min-w-0 flex-1">
              <p className="text-sm font-medium text-slate-800">Public chat page{isGlobal ? ` of ${publicOrganization?.name}` : ''}</p>
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
        {isGlobal && <OrganizationFilter organizations={organizations} selected={orgs} onChange={onOrgsChange} />}
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
