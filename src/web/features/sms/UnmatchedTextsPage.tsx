import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { SmsMessage } from '../../../contract/sms';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Button, Card, CardContent, EmptyState, PageHeader } from '../../components/ui';
import { formatDateTime } from '../../lib/utils';
import { useIsGlobal } from '../trials/hooks';
import { maskedPhone, timeAgo } from './format';
import { useUnmatchedTextsQuery } from './queries';

/**
 * /admin/unmatched-texts (decision 119): inbound texts to a number no organization owns, which Cohortly keeps
 * instead of guessing a tenant (decision 118). The sender is masked and the text hidden until an admin asks for
 * them: routing needs the number texted, rarely who texted or what they said.
 */
export function UnmatchedTextsPage() {
  const isGlobal = useIsGlobal();
  const query = useUnmatchedTextsQuery(isGlobal);
  const messages = query.data?.messages ?? [];

  let body;
  if (!isGlobal)
    body = (
      <EmptyState title="Switch to the Cohortly organization">
        Only Cohortly's internal admins, with the Cohortly organization active, see these texts.
      </EmptyState>
    );
  else if (query.isPending) body = <Spinner label="Loading unmatched texts" />;
  else if (query.isError) body = <ErrorCard title="Could not load unmatched texts" error={query.error} onRetry={() => void query.refetch()} />;
  else if (messages.length === 0)
    body = (
      <EmptyState title="No unmatched texts">
        Every text received so far was sent to a number an organization owns, or to one that was texting the person.
      </EmptyState>
    );
  else
    body = (
      <ul className="grid grid-cols-1 gap-3" aria-label="Texts no organization could be matched to">
        {messages.map((message) => (
          <UnmatchedText key={message.id} message={message} />
        ))}
      </ul>
    );

  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader
        title="Texts no organization could be matched to"
        description={
          <>
            Replies sent to a number no organization owns are kept here rather than given to a guessed organization. To route later texts, assign the number to
            its organization in{' '}
            <Link to="/admin/phone-numbers" className="font-medium text-blue-800 underline">
              Phone numbers
            </Link>
            .
          </>
        }
      />
      {body}
    </div>
  );
}

function UnmatchedText({ message }: { message: SmsMessage }) {
  const [shown, setShown] = useState(false);
  const textId = `unmatched-text-${message.id}`;
  return (
    <li>
      <Card>
        <CardContent className="grid grid-cols-1 gap-3 p-4 sm:grid-cols-[1fr_auto] sm:items-start">
          <dl className="grid min-w-0 grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-3">
            <div className="min-w-0">
              <dt className="text-slate-700">Received</dt>
              <dd className="font-medium text-slate-900" title={formatDateTime(message.createdAt)}>
                {timeAgo(message.createdAt)}
                <span className="block text-xs font-normal text-slate-700">{formatDateTime(message.createdAt)}</span>
              </dd>
            </div>
            <div className="min-w-0">
              <dt className="text-slate-700">Sent to</dt>
              <dd className="break-words font-mono text-slate-900">{message.toPhone}</dd>
            </div>
            <div className="min-w-0">
              <dt className="text-slate-700">From</dt>
              <dd className="break-words font-mono text-slate-900">{shown ? message.fromPhone : maskedPhone(message.fromPhone)}</dd>
            </div>
          </dl>
          <Button variant="secondary" size="sm" aria-expanded={shown} aria-controls={textId} onClick={() => setShown((value) => !value)}>
            {shown ? 'Hide the text' : 'Show the text'}
          </Button>
          {shown && (
            <p id={textId} className="whitespace-pre-wrap break-words rounded-md bg-slate-50 p-3 text-sm text-slate-900 sm:col-span-2">
              {message.body}
            </p>
          )}
        </CardContent>
      </Card>
    </li>
  );
}
