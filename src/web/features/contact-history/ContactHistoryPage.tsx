import { Link } from '@tanstack/react-router';
import {
  ArrowLeft,
  BellRing,
  CalendarCheck,
  ClipboardCheck,
  FileUp,
  Gavel,
  ListOrdered,
  Mail,
  MessageSquare,
  MessagesSquare,
  Pencil,
  Phone,
  RefreshCcw,
  ShieldCheck,
  StickyNote,
  UserPlus,
  type LucideIcon,
} from 'lucide-react';
import type { ContactEvent } from '../../../contract/candidates';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { buttonClass, EmptyState, PageHeader } from '../../components/ui';
import { ApiRequestError } from '../../lib/api';
import { formatDateTime } from '../../lib/utils';
import { candidateName } from '../candidates/format';
import { useCandidateQuery } from '../candidates/queries';
import { useContactHistoryQuery } from './queries';
import { humanizeCode, humanSummary } from '../../lib/words';

const KINDS: Record<string, { label: string; icon: LucideIcon; tone: string }> = {
  created: { label: 'Created', icon: UserPlus, tone: 'bg-green-100 text-green-900' },
  updated: { label: 'Updated', icon: Pencil, tone: 'bg-slate-100 text-slate-800' },
  status_change: { label: 'Status change', icon: RefreshCcw, tone: 'bg-blue-100 text-blue-900' },
  note: { label: 'Note', icon: StickyNote, tone: 'bg-amber-100 text-amber-900' },
  import: { label: 'Import', icon: FileUp, tone: 'bg-slate-100 text-slate-800' },
  consent: { label: 'Consent', icon: ShieldCheck, tone: 'bg-purple-100 text-purple-900' },
  prescreen: { label: 'Prescreen', icon: ClipboardCheck, tone: 'bg-blue-100 text-blue-900' },
  decision: { label: 'Review decision', icon: Gavel, tone: 'bg-green-100 text-green-900' },
  call: { label: 'Call', icon: Phone, tone: 'bg-blue-100 text-blue-900' },
  sms: { label: 'SMS', icon: MessageSquare, tone: 'bg-blue-100 text-blue-900' },
  chat: { label: 'Chat', icon: MessagesSquare, tone: 'bg-blue-100 text-blue-900' },
  callback: { label: 'Callback', icon: BellRing, tone: 'bg-blue-100 text-blue-900' },
  booking: { label: 'Booking', icon: CalendarCheck, tone: 'bg-green-100 text-green-900' },
  email: { label: 'Email', icon: Mail, tone: 'bg-blue-100 text-blue-900' },
  sequence: { label: 'Sequence', icon: ListOrdered, tone: 'bg-purple-100 text-purple-900' },
};
const kindOf = (kind: string) => KINDS[kind] ?? { label: humanizeCode(kind), icon: RefreshCcw, tone: 'bg-slate-100 text-slate-800' };

function TimelineItem({ event, last }: { event: ContactEvent; last: boolean }) {
  const kind = kindOf(event.kind);
  const Icon = kind.icon;
  return (
    <li className="relative flex gap-4 pb-6" data-kind={event.kind}>
      {!last && <span aria-hidden="true" className="absolute left-4 top-9 -ml-px h-[calc(100%-2.25rem)] w-0.5 bg-slate-200" />}
      <span className={`relative flex h-8 w-8 shrink-0 items-center justify-center rounded-full ${kind.tone}`}>
        <Icon aria-hidden="true" className="h-4 w-4" />
      </span>
      <div className="grid min-w-0 gap-0.5 pt-1">
        <p className="text-sm text-slate-900">
          <span className="font-semibold">{kind.label}</span>
          <span className="sr-only">:</span> <span>{humanSummary(event.summary)}</span>
        </p>
        <p className="text-xs text-slate-700">
          By {event.actor.label} · <time dateTime={event.occurredAt}>{formatDateTime(event.occurredAt)}</time>
        </p>
      </div>
    </li>
  );
}

/** One candidate's touches, oldest first: what happened, who did it and when. */
export function ContactHistoryPage({ candidateId }: { candidateId: string }) {
  const candidate = useCandidateQuery(candidateId);
  const history = useContactHistoryQuery(candidateId);
  const name = candidate.data ? candidateName(candidate.data) : undefined;

  let body;
  if (history.isPending) body = <Spinner label="Loading contact history" />;
  else if (history.isError) {
    const notFound = history.error instanceof ApiRequestError && history.error.status === 404;
    body = (
      <ErrorCard
        title={notFound ? 'This candidate does not exist or was deleted' : 'Could not load the contact history'}
        error={history.error}
        onRetry={notFound ? undefined : () => void history.refetch()}
      />
    );
  } else if (history.data.events.length === 0) {
    body = (
      <EmptyState title="No contact yet">
        <p>Calls, messages, notes and status changes will appear here as they happen.</p>
      </EmptyState>
    );
  } else {
    const events = history.data.events;
    body = (
      <div className="rounded-lg border border-slate-200 bg-white p-5">
        <p className="mb-4 text-sm text-slate-700">{events.length === 1 ? '1 entry' : `${events.length} entries`}, oldest first</p>
        <ol aria-label="Contact history" className="grid">
          {events.map((event, index) => (
            <TimelineItem key={event.id} event={event} last={index === events.length - 1} />
          ))}
        </ol>
      </div>
    );
  }

  return (
    <div>
      <PageHeader
        title="Contact history"
        description={name ? `Every touch with ${name}: status changes, notes, consent, imports, and later calls, SMS and chats.` : undefined}
        actions={
          <Link to="/candidates/$id" params={{ id: candidateId }} className={buttonClass('secondary')}>
            <ArrowLeft aria-hidden="true" className="h-4 w-4" />
            {name ? `Back to ${name}` : 'Back to candidate'}
          </Link>
        }
      />
      {body}
    </div>
  );
}
