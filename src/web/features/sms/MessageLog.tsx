import { useEffect, useRef } from 'react';
import type { SmsMessage } from '../../../contract/sms';
import { Bubble } from '../../components/Transcript';
import { useAuth } from '../../lib/auth';
import { cn, formatDateTime } from '../../lib/utils';
import { blockReasonText, formatMessageTime, STATUS_LABELS, STATUS_TONES } from './format';

function senderOf(message: SmsMessage, candidateFirstName: string, userId: string | undefined): string {
  if (message.direction === 'inbound') return candidateFirstName || 'Candidate';
  if (message.purpose === 'reply') return 'Automatic reply';
  if (message.sentByUserId && message.sentByUserId === userId) return 'You';
  if (message.sentByUserId) return 'Staff';
  return 'Cohortly';
}

function DeliveryStatus({ message }: { message: SmsMessage }) {
  return (
    <span className={cn('inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium', STATUS_TONES[message.status])} data-testid="sms-status">
      {STATUS_LABELS[message.status] ?? message.status}
    </span>
  );
}

function MessageBubble({ message, candidateFirstName, userId }: { message: SmsMessage; candidateFirstName: string; userId?: string }) {
  const outbound = message.direction === 'outbound';
  const sender = senderOf(message, candidateFirstName, userId);
  const problem =
    message.status === 'blocked'
      ? `Not sent: ${blockReasonText(message.error)}`
      : (message.status === 'failed' || message.status === 'undelivered') && message.error
        ? `Provider error ${message.error}`
        : null;
  return (
    <li className={cn('flex flex-col gap-1', outbound ? 'items-end' : 'items-start')} data-direction={message.direction} data-testid="sms-message">
      <Bubble as="div" side={outbound ? 'end' : 'start'} tone={message.status === 'blocked' ? 'blocked' : undefined} className="sm:max-w-[70%]">
        <span className="sr-only">{sender}: </span>
        <p className="whitespace-pre-wrap break-words">{message.body}</p>
      </Bubble>
      <p className="flex flex-wrap items-center gap-1.5 px-1 text-xs text-slate-700">
        <span aria-hidden="true">{sender}</span>
        <span aria-hidden="true">·</span>
        <time dateTime={message.createdAt} title={formatDateTime(message.createdAt)}>
          {formatMessageTime(message.createdAt)}
        </time>
        {outbound && (
          <>
            <span aria-hidden="true">·</span>
            <DeliveryStatus message={message} />
          </>
        )}
        {message.templateKey && <span>· {message.templateKey.replace(/_/g, ' ')}</span>}
      </p>
      {problem && <p className="px-1 text-xs font-medium text-red-800">{problem}</p>}
    </li>
  );
}

/** The thread's messages, oldest first, as a live log that keeps the newest in view. */
export function MessageLog({ messages, candidateName, candidateFirstName }: { messages: SmsMessage[]; candidateName: string; candidateFirstName: string }) {
  const { session } = useAuth();
  const scroller = useRef<HTMLDivElement>(null);
  const last = messages.at(-1)?.id;
  useEffect(() => {
    const element = scroller.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [last, messages.length]);

  return (
    <div
      ref={scroller}
      role="log"
      aria-label={`Messages with ${candidateName}`}
      tabIndex={0}
      className="max-h-[55vh] min-h-48 overflow-y-auto rounded-md bg-white p-4 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
    >
      {messages.length === 0 ? (
        <p className="py-10 text-center text-sm text-slate-700">No messages yet. Write the first one below.</p>
      ) : (
        <ol className="grid gap-4">
          {messages.map((message) => (
            <MessageBubble key={message.id} message={message} candidateFirstName={candidateFirstName} userId={session?.user.id} />
          ))}
        </ol>
      )}
    </div>
  );
}
