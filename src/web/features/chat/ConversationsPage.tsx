import { OffsetPager } from '../../components/Pager';
import { SearchBox } from '../../components/SearchBox';
import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import { CONVERSATION_SORTS, CONVERSATION_STATUSES } from '../../../contract/search';
import { ChoiceFilter, FilterBar, optionsOf } from '../../components/filters';
import { ListState, NoMatch } from '../../components/ListState';
import { Button, EmptyState, FilterSelect, Input, Label, PageHeader } from '../../components/ui';
import { useActiveOrganization } from '../../lib/active-organization';
import { useOffsetPaging } from '../../lib/paging';
import { OrganizationFilter } from '../trials/OrganizationFilter';
import { useIsGlobal } from '../trials/hooks';
import { SORT_LABELS, STATUS_LABELS } from './format';
import { ConversationsTable } from './ConversationsTable';
import { useChatAgentsQuery, useConversationsQuery } from './queries';

export const CONVERSATIONS_PAGE_SIZE = 25;

export interface ConversationFilters {
  search?: string;
  status?: (typeof CONVERSATION_STATUSES)[number];
  sortBy: (typeof CONVERSATION_SORTS)[number];
  dateFrom?: string;
  dateTo?: string;
  chatAgentId?: string;
  orgs?: string[];
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A labelled day (YYYY-MM-DD) of a date range filter; cleared, it reports undefined. */
function DateFilter({
  id,
  label,
  value,
  min,
  max,
  onChange,
}: {
  id: string;
  label: string;
  value: string | undefined;
  min?: string;
  max?: string;
  onChange: (value: string | undefined) => void;
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} type="date" className="w-40" value={value ?? ''} min={min} max={max} onChange={(event) => onChange(event.target.value || undefined)} />
    </div>
  );
}

/** /admin/chat-conversations: every chat of the organization, filtered and sorted by the URL's search params. */
export function ConversationsPage({
  filters,
  onFiltersChange,
}: {
  filters: ConversationFilters;
  onFiltersChange: (patch: Partial<ConversationFilters>) => void;
}) {
  const isGlobal = useIsGlobal();
  const { organizations } = useActiveOrganization();
  const names = useMemo(() => new Map(organizations.map((org) => [org.id, org.name])), [organizations]);
  const orgs = isGlobal ? filters.orgs : undefined;
  // The agent filter offers the agents of the organizations chosen, as the list shows their conversations.
  const agentsQuery = useChatAgentsQuery({ orgs });
  const agents = agentsQuery.data?.chatAgents ?? [];
  // Dates the server would refuse (not YYYY-MM-DD) are left out of the request.
  const dateFrom = filters.dateFrom && DATE.test(filters.dateFrom) ? filters.dateFrom : undefined;
  const dateTo = filters.dateTo && DATE.test(filters.dateTo) ? filters.dateTo : undefined;
  const filterKey = JSON.stringify([filters.search, filters.status, filters.sortBy, dateFrom, dateTo, filters.chatAgentId, orgs]);
  const paging = useOffsetPaging(CONVERSATIONS_PAGE_SIZE, { filterKey });
  const query = useConversationsQuery({
    search: filters.search,
    status: filters.status,
    sortBy: filters.sortBy,
    dateFrom,
    dateTo,
    chatAgentId: filters.chatAgentId,
    orgs,
    limit: paging.pageSize,
    offset: paging.offset,
  });
  const rows = query.data?.conversations ?? [];
  const total = query.data?.total ?? 0;
  const hasFilters = Boolean(filters.search || filters.status || filters.dateFrom || filters.dateTo || filters.chatAgentId);
  const clear = () => onFiltersChange({ search: undefined, status: undefined, dateFrom: undefined, dateTo: undefined, chatAgentId: undefined });

  const body = (
    <ListState
      query={query}
      rowCount={rows.length}
      loadingLabel="Loading conversations"
      errorTitle="Could not load conversations"
      filtered={hasFilters || paging.offset > 0}
      empty={
        <EmptyState title="No conversations yet">
          <p>Chats from your public chat page appear here, with their transcript and prescreen result.</p>
          <Link to="/admin/chat-agents" className="mt-3 inline-block text-sm font-medium text-blue-800 underline underline-offset-4">
            Go to chat agents
          </Link>
        </EmptyState>
      }
      noMatch={<NoMatch title="No conversations match" onClear={clear} />}
      pager={<OffsetPager {...paging} shown={rows.length} total={total} busy={query.isFetching} />}
    >
      <ConversationsTable rows={rows} organizationNames={isGlobal ? names : null} />
    </ListState>
  );

  return (
    <div>
      <PageHeader title="Conversations" description="Chats on your public chat page: read a transcript beside its prescreen result." />
      <FilterBar label="Filter conversations">
        <SearchBox
          id="conversations-search"
          placeholder="Candidate name or phone"
          className="w-64"
          value={filters.search}
          onChange={(search) => onFiltersChange({ search })}
        />
        <FilterSelect
          id="conversations-status"
          label="Status"
          anyLabel="Any status"
          className="w-40"
          value={filters.status}
          options={optionsOf(CONVERSATION_STATUSES, STATUS_LABELS)}
          onChange={(status) => onFiltersChange({ status })}
        />
        <FilterSelect
          id="conversations-agent"
          label="Agent"
          anyLabel="Any agent"
          className="w-48"
          value={filters.chatAgentId}
          options={agents.map((agent) => ({ value: agent.id, label: agent.name }))}
          onChange={(chatAgentId) => onFiltersChange({ chatAgentId })}
        >
          {filters.chatAgentId && !agents.some((agent) => agent.id === filters.chatAgentId) && (
            <option value={filters.chatAgentId}>{agentsQuery.isPending ? 'Loading…' : 'Unknown agent'}</option>
          )}
        </FilterSelect>
        <DateFilter id="conversations-from" label="From" value={filters.dateFrom} max={filters.dateTo} onChange={(dateFrom) => onFiltersChange({ dateFrom })} />
        <DateFilter id="conversations-to" label="To" value={filters.dateTo} min={filters.dateFrom} onChange={(dateTo) => onFiltersChange({ dateTo })} />
        <ChoiceFilter
          id="conversations-sort"
          label="Sort by"
          className="w-52"
          value={filters.sortBy}
          options={optionsOf(CONVERSATION_SORTS, SORT_LABELS)}
          onChange={(sortBy) => onFiltersChange({ sortBy })}
        />
        {isGlobal && <OrganizationFilter organizations={organizations} selected={filters.orgs} onChange={(next) => onFiltersChange({ orgs: next })} />}
        {hasFilters && (
          <Button variant="ghost" onClick={clear}>
            Clear filters
          </Button>
        )}
      </FilterBar>
      {body}
    </div>
  );
}
