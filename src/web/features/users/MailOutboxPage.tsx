import { useState } from 'react';
import type { MailOutboxList } from '../../../contract/mail';
import { CopyField } from '../../components/CopyButton';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Button, Card, CardContent, EmptyState, PageHeader } from '../../components/ui';
import { formatDateTime } from '../../lib/utils';
import { useIsGlobal } from '../trials/hooks';
import { timeAgo } from '../sms/format';
import { useMailMessageQuery, useMailOutboxQuery } from './api';

type Mail = MailOutboxList['messages'][number];

/**
 * /admin/mail-outbox (issue 32): without a mail server, invitations and sign-up links are kept instead of sent;
 * internal admins find them here and hand the link over themselves. Addresses are masked and a mail's text is
 * fetched only when an admin opens it.
 */
export function MailOutboxPage() {
  const isGlobal = useIsGlobal();
  const query = useMailOutboxQuery(isGlobal);
  const messages = query.data?.messages ?? [];

  let body;
  if (!isGlobal)
    body = (
      <EmptyState title="Switch to the Cohortly organization">
        Only Cohortly's internal admins, with the Cohortly organization active, see the mail outbox.
      </EmptyState>
    );
  else if (query.isPending) body = <Spinner label="Loading the mail outbox" />;
  else if (query.isError) body = <ErrorCard title="Could not load the mail outbox" error={query.error} onRetry={() => void query.refetch()} />;
  else if (messages.length === 0)
    body = (
      <EmptyState title="No mail yet">
        {query.data.delivery === 'smtp'
          ? 'Mail goes out through your mail server, so none is kept here.'
          : 'Invitations and sign-up emails appear here as soon as they are sent.'}
      </EmptyState>
    );
  else
    body = (
      <ul className="grid grid-cols-1 gap-3" aria-label="Kept mail, newest first">
        {messages.map((mail) => (
          <MailCard key={mail.id} mail={mail} />
        ))}
      </ul>
    );

  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader
        title="Mail outbox"
        description={
          query.data?.delivery === 'smtp'
            ? 'A mail server is configured: mail is sent, and only mail kept before it was set up is listed here.'
            : 'No mail server is configured, so no email leaves Cohortly: invitations and sign-up links are kept here. Open one to copy its link and send it to the person yourself.'
        }
      />
      {body}
    </div>
  );
}

/** The first web address in a mail's text: the link an invitation or sign-up mail carries. */
const linkIn = (text: string) => /https?:\/\/\S+/.exec(text)?.[0] ?? null;

function MailCard({ mail }: { mail: Mail }) {
  const [open, setOpen] = useState(false);
  const full = useMailMessageQuery(mail.id, open);
  const bodyId = `mail-body-${mail.id}`;
  const link = full.data ? linkIn(full.data.body) : null;
  return (
    <li>
      <Card>
        <CardContent className="grid grid-cols-1 gap-3 p-4 sm:grid-cols-[1fr_auto] sm:items-start">
          <dl className="grid min-w-0 grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-[10rem_12rem_1fr]">
            <div className="min-w-0">
              <dt className="text-slate-700">Sent</dt>
              <dd className="font-medium text-slate-900">
                {timeAgo(mail.createdAt)}
                <span className="block text-xs font-normal text-slate-700">{formatDateTime(mail.createdAt)}</span>
              </dd>
            </div>
            <div className="min-w-0">
              <dt className="text-slate-700">To</dt>
              <dd className="break-words text-slate-900">{full.data ? full.data.to : mail.to}</dd>
            </div>
            <div className="min-w-0">
              <dt className="text-slate-700">Subject</dt>
              <dd className="break-words text-slate-900">{mail.subject}</dd>
            </div>
          </dl>
          <Button variant="secondary" size="sm" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen((value) => !value)}>
            {open ? 'Hide the mail' : 'Show the mail'}
          </Button>
          {open && (
            <div id={bodyId} className="grid min-w-0 grid-cols-1 gap-3 sm:col-span-2">
              {full.isPending && <Spinner label="Loading the mail" />}
              {full.isError && <ErrorCard title="Could not load the mail" error={full.error} onRetry={() => void full.refetch()} />}
              {full.data && (
                <>
                  {link && <CopyField id={`mail-link-${mail.id}`} label="Copy the link" value={link} />}
                  <p className="whitespace-pre-wrap rounded-md [overflow-wrap:anywhere] bg-slate-50 p-3 text-sm text-slate-900">{full.data.body}</p>
                </>
              )}
            </div>
          )}
        </CardContent>
      </Card>
    </li>
  );
}
