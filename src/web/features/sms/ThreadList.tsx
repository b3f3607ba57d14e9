import { Link } from '@tanstack/react-router';
import { Search } from 'lucide-react';
import { useMemo, useState } from 'react';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Badge, Button, Input, Label } from '../../components/ui';
import { cn } from '../../lib/utils';
import { candidateName } from '../candidates/format';
import { formatMessageTime } from './format';
import { useSmsThreadsQuery, type SmsThread } from './queries';

export const THREADS_PAGE_SIZE = 25;

function ThreadBadge({ thread }: { thread: SmsThread }) {
  if (thread.unansweredCount > 0) return <Badge tone="amber">{thread.unansweredCount === 1 ? '1 unanswered' : `${thread.unansweredCount} unanswered`}</Badge>;
  if (thread.lastMessage.status === 'blocked') return <Badge className="bg-red-100 text-red-900">Blocked</Badge>;
  if (thread.lastMessage.status === 'failed' || thread.lastMessage.status === 'undelivered') return <Badge className="bg-red-100 text-red-900">Failed</Badge>;
  return null;
}

function ThreadRow({ thread, selected, orgs, organizationName }: { thread: SmsThread; selected: boolean; orgs?: string[]; organizationName?: string }) {
  const name = candidateName(thread.candidate);
  const { lastMessage } = thread;
  return (
    <li>
      <Link
        to="/admin/sms"
        search={{ candidateId: thread.candidateId, orgs }}
        aria-current={selected ? 'page' : undefined}
        data-testid="sms-thread"
        className={cn(
          'grid gap-1 rounded-md border px-3 py-2.5 text-left focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700',
          selected ? 'border-blue-300 bg-blue-50' : 'border-transparent hover:bg-slate-100',
        )}
      >
        <span className="flex items-baseline justify-between gap-2">
          <span className="truncate font-medium text-slate-900">{name}</span>
          <time dateTime={lastMessage.createdAt} className="shrink-0 text-xs text-slate-700">
            {formatMessageTime(lastMessage.createdAt)}
          </time>
        </span>
        <span className="line-clamp-2 text-sm text-slate-700">
          <span className="font-medium">{lastMessage.direction === 'inbound' ? `${thread.candidate.firstName || 'Candidate'}: ` : 'Sent: '}</span>
          {lastMessage.body}
        </span>
        <span className="flex flex-wrap items-center gap-1.5">
          <ThreadBadge thread={thread} />
          {lastMessage.direction === 'inbound' && thread.unansweredCount === 0 && <Badge tone="blue">Reply</Badge>}
          <span className="text-xs text-slate-700">{thread.messageCount === 1 ? '1 message' : `${thread.messageCount} messages`}</span>
          {organizationName && <span className="text-xs text-slate-700">· {organizationName}</span>}
        </span>
      </Link>
    </li>
  );
}

/** Conversations by candidate, newest first, with a filter over what is loaded and "Load more". */
export function ThreadList({
  selectedId,
  orgs,
  organizationNames,
  onNewMessage,
}: {
  selectedId?: string;
  orgs?: string[];
  organizationNames?: Map<string, string>;
  onNewMessage: () => void;
}) {
  const [limit, setLimit] = useState(THREADS_PAGE_SIZE);
  const [filter, setFilter] = useState('');
  const query = useSmsThreadsQuery({ orgs, limit });
  const threads = useMemo(() => query.data?.threads ?? [], [query.data]);
  const needle = filter.trim().toLowerCase();
  const shown = useMemo(
    () => (needle ? threads.filter((thread) => candidateName(thread.candidate).toLowerCase().includes(needle)) : threads),
    [threads, needle],
  );
  const mayHaveMore = threads.length >= limit;

  let body;
  if (query.isPending) body = <Spinner label="Loading conversations" />;
  else if (query.isError && !query.data) body = <ErrorCard title="Could not load the conversations" error={query.error} onRetry={() => void query.refetch()} />;
  else if (threads.length === 0)
    body = (
      <div className="rounded-md border border-dashed border-slate-300 p-5 text-center text-sm text-slate-700">
        <p className="font-medium text-slate-900">No text messages yet</p>
        <p className="mt-1">Start a conversation with a candidate.</p>
        <Button variant="secondary" size="sm" className="mt-3" onClick={onNewMessage}>
          New message
        </Button>
      </div>
    );
  else
    body = (
      <>
        {shown.length === 0 ? (
          <p className="px-1 py-4 text-sm text-slate-700">
            No loaded conversation matches “{filter.trim()}”.{mayHaveMore ? ' Load more to search further.' : ''}
          </p>
        ) : (
          <ul aria-label="Conversations" className="grid gap-1">
            {shown.map((thread) => (
              <ThreadRow
                key={thread.candidateId}
                thread={thread}
                selected={thread.candidateId === selectedId}
                orgs={orgs}
                organizationName={organizationNames?.get(thread.organizationId)}
              />
            ))}
          </ul>
        )}
        <p className="px-1 text-xs text-slate-700" aria-live="polite">
          {needle ? `${shown.length} of ${threads.length} loaded` : threads.length === 1 ? '1 conversation' : `${threads.length} conversations`}
        </p>
        {mayHaveMore && (
          <Button variant="secondary" size="sm" disabled={query.isFetching} onClick={() => setLimit((current) => Math.min(current + THREADS_PAGE_SIZE, 500))}>
            {query.isFetching ? 'Loading…' : 'Load more'}
          </Button>
        )}
      </>
    );

  return (
    <section aria-labelledby="sms-threads-heading" className="grid content-start gap-3 rounded-lg border border-slate-200 bg-white p-3">
      <h2 id="sms-threads-heading" className="px-1 text-base font-semibold text-slate-900">
        Conversations
      </h2>
      <div className="relative">
        <Label htmlFor="sms-thread-search" className="sr-only">
          Search conversations
        </Label>
        <Search aria-hidden="true" className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-500" />
        <Input
          id="sms-thread-search"
          type="search"
          className="pl-9"
          placeholder="Search by name"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
        />
      </div>
      <div className="grid max-h-[65vh] gap-2 overflow-y-auto">{body}</div>
    </section>
  );
}
