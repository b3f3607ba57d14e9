import { Link } from '@tanstack/react-router';
import { FormError } from '../../components/FormError';
import { FlaskConical, ShieldAlert, ShieldCheck, UserRound } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { SMS_MAX_BODY_LENGTH } from '../../../contract/sms';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { buttonClass, Input, Label, SubmitButton } from '../../components/ui';
import { ApiRequestError } from '../../lib/api';
import { usePhoneLibrary } from '../../lib/phone-lazy';
import { formatDateTime } from '../../lib/utils';
import { candidateName, formatPhone } from '../candidates/format';
import { Composer } from './Composer';
import { blockReasonText } from './format';
import { MessageLog } from './MessageLog';
import { serverReason, useSimulateReply, useSimulatorActive, useSmsThreadQuery, type SmsThreadDetail } from './queries';

const NEXT_STEP: Record<string, string> = {
  sms_opted_out: 'They can text START to opt back in.',
  do_not_contact: 'Clear do-not-contact on the candidate’s profile if they ask to be contacted again.',
  no_phone: 'Add a phone number on the candidate’s profile to text them.',
};

/** The consent state of the thread: a clear banner when no message may go out. */
function ConsentBanner({ thread }: { thread: SmsThreadDetail }) {
  const { consent } = thread;
  if (!consent.canSend) {
    return (
      <div
        role="status"
        className="flex items-start gap-3 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-950"
        data-testid="sms-blocked-banner"
      >
        <ShieldAlert aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-red-700" />
        <div className="grid gap-0.5">
          <p className="font-semibold">SMS is blocked</p>
          <p>
            {blockReasonText(consent.blockReason)}
            {consent.blockReason === 'sms_opted_out' && consent.smsOptedOutAt ? ` Opted out ${formatDateTime(consent.smsOptedOutAt)}.` : ''}
          </p>
          {consent.blockReason && NEXT_STEP[consent.blockReason] && <p>{NEXT_STEP[consent.blockReason]}</p>}
        </div>
      </div>
    );
  }
  return (
    <div className="flex items-start gap-3 rounded-md border border-slate-200 bg-slate-50 px-4 py-2.5 text-sm text-slate-800" data-testid="sms-consent">
      <ShieldCheck aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-green-700" />
      <p>
        {consent.consentSms
          ? 'Consented to SMS: any message may be sent. Replying STOP turns SMS off at once.'
          : 'No SMS consent recorded: messages about something the candidate is doing may be sent; marketing templates will be refused.'}
      </p>
    </div>
  );
}

const ACTION_TEXT: Record<string, string> = {
  opt_out: 'Opt-out keyword: SMS is now turned off for this candidate',
  opt_in: 'Opt-in keyword: SMS is turned on again',
  help: 'Help keyword: the automatic help answer was sent',
  none: 'Reply received',
};

/** The simulator's phone: post a reply as the candidate, through the real inbound handler. */
function SimulatorTools({ thread }: { thread: SmsThreadDetail }) {
  const inputId = useId();
  const [text, setText] = useState('');
  const simulate = useSimulateReply();
  if (!thread.candidate.phone) return null;
  return (
    <section aria-labelledby={`${inputId}-heading`} className="grid gap-2 rounded-md border border-dashed border-purple-300 bg-purple-50/50 p-3">
      <h3 id={`${inputId}-heading`} className="flex items-center gap-2 text-sm font-semibold text-slate-900">
        <FlaskConical aria-hidden="true" className="h-4 w-4 text-purple-800" />
        Simulator
      </h3>
      <p className="text-xs text-slate-700">
        No real SMS goes out. Post a reply as {thread.candidate.firstName || 'the candidate'} would (try STOP, START or HELP).
      </p>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          const body = text.trim();
          if (!body) return;
          simulate.mutate(
            { candidateId: thread.candidate.id, body },
            {
              onSuccess: (result) => {
                toast.success(ACTION_TEXT[result.action] ?? 'Reply received');
                setText('');
              },
            },
          );
        }}
      >
        <div className="grid min-w-[12rem] flex-1 gap-1.5">
          <Label htmlFor={inputId}>Simulate a reply</Label>
          <Input
            id={inputId}
            value={text}
            maxLength={SMS_MAX_BODY_LENGTH}
            placeholder="e.g. Yes I'm interested"
            onChange={(event) => setText(event.target.value)}
          />
        </div>
        <SubmitButton variant="secondary" pending={simulate.isPending} pendingLabel="Sending…" disabled={!text.trim()}>
          Send reply
        </SubmitButton>
      </form>
      <FormError>{simulate.isError && serverReason(simulate.error)}</FormError>
    </section>
  );
}

/** The selected conversation: who, whether they may be texted, the messages, the composer and the simulator. */
export function ThreadPane({ candidateId }: { candidateId: string }) {
  const query = useSmsThreadQuery(candidateId);
  const simulatorActive = useSimulatorActive();
  usePhoneLibrary();

  if (query.isPending) return <Spinner label="Loading the conversation" />;
  if (query.isError && !query.data) {
    const notFound = query.error instanceof ApiRequestError && query.error.status === 404;
    return (
      <ErrorCard
        title={notFound ? 'This candidate does not exist or is not in your organization' : 'Could not load the conversation'}
        message={notFound ? 'Choose another conversation or start a new message.' : serverReason(query.error)}
        onRetry={notFound ? undefined : () => void query.refetch()}
      />
    );
  }
  const thread = query.data;
  const name = candidateName(thread.candidate);
  return (
    <section
      aria-labelledby="sms-thread-heading"
      className="grid content-start gap-4 rounded-lg border border-slate-200 bg-white p-4"
      data-testid="sms-thread-pane"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid gap-0.5">
          <h2 id="sms-thread-heading" className="text-lg font-semibold text-slate-900">
            {name}
          </h2>
          <p className="text-sm text-slate-700">{thread.candidate.phone ? formatPhone(thread.candidate.phone) : 'No phone number'}</p>
        </div>
        <Link to="/candidates/$id" params={{ id: thread.candidate.id }} className={buttonClass('secondary', 'sm')}>
          <UserRound aria-hidden="true" className="h-4 w-4" />
          Candidate profile
        </Link>
      </div>
      <ConsentBanner thread={thread} />
      {query.isError && <p className="text-sm text-amber-900">Could not refresh just now: {serverReason(query.error)}. Showing the last loaded messages.</p>}
      <MessageLog messages={thread.messages} candidateName={name} candidateFirstName={thread.candidate.firstName} />
      <Composer key={`composer-${thread.candidate.id}`} thread={thread} />
      {simulatorActive && <SimulatorTools key={`simulator-${thread.candidate.id}`} thread={thread} />}
    </section>
  );
}
