import { Link } from '@tanstack/react-router';
import { CalendarClock, X } from 'lucide-react';
import { useState } from 'react';
import type { Callback } from '../../../contract/callbacks';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui';
import { AGENT_TYPE_LABELS } from '../voice/format';
import { CallbackStatusBadge, CancelCallbackDialog, ScheduledFor } from './components';
import { CALLBACK_REASON_LABELS } from './format';
import { useCandidateCallbackQuery } from './queries';
import { ScheduleCallbackDialog } from './dialogs';

interface CandidateRef {
  id: string;
  name: string;
  organizationId: string;
  timeZone: string | null;
}

/** "Schedule callback" beside "Call now": schedules one, or moves the candidate's open callback. */
export function ScheduleCallbackButton({ candidate }: { candidate: CandidateRef }) {
  const { callback } = useCandidateCallbackQuery(candidate.id);
  return (
    <ScheduleCallbackDialog
      candidateId={candidate.id}
      candidateName={candidate.name}
      organizationId={candidate.organizationId}
      timeZone={candidate.timeZone}
      callback={callback}
      trigger={
        <Button variant="secondary">
          <CalendarClock aria-hidden="true" className="h-4 w-4" />
          {callback ? 'Reschedule callback' : 'Schedule callback'}
        </Button>
      }
    />
  );
}

function OpenCallback({ candidate, callback }: { candidate: CandidateRef; callback: Callback }) {
  const [cancelling, setCancelling] = useState(false);
  return (
    <div className="grid gap-3" data-testid="candidate-callback">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <CallbackStatusBadge status={callback.status} />
        <span className="text-slate-800">
          {AGENT_TYPE_LABELS[callback.type]} · {CALLBACK_REASON_LABELS[callback.reason] ?? callback.reason}
        </span>
      </div>
      <div className="text-sm">
        <ScheduledFor callback={callback} />
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-700">Attempts</dt>
        <dd className="tabular-nums">
          {callback.attempts} of {callback.maxAttempts}
        </dd>
        {callback.note && (
          <>
            <dt className="text-slate-700">Note</dt>
            <dd className="whitespace-pre-line break-words">{callback.note}</dd>
          </>
        )}
        {callback.lastError && (
          <>
            <dt className="text-slate-700">Last error</dt>
            <dd className="text-red-800">{callback.lastError}</dd>
          </>
        )}
      </dl>
      <div className="flex flex-wrap gap-2">
        <ScheduleCallbackDialog
          candidateId={candidate.id}
          candidateName={candidate.name}
          organizationId={candidate.organizationId}
          timeZone={callback.timeZone || candidate.timeZone}
          callback={callback}
          trigger={
            <Button variant="secondary" size="sm">
              <CalendarClock aria-hidden="true" className="h-4 w-4" />
              Reschedule
            </Button>
          }
        />
        <Button variant="ghost" size="sm" className="text-red-800 hover:bg-red-50" onClick={() => setCancelling(true)}>
          <X aria-hidden="true" className="h-4 w-4" />
          Cancel callback
        </Button>
      </div>
      <CancelCallbackDialog callback={callback} open={cancelling} onOpenChange={setCancelling} />
    </div>
  );
}

/** The candidate's open callback, if any, with reschedule and cancel. */
export function CandidateCallbackCard({ candidate }: { candidate: CandidateRef }) {
  const query = useCandidateCallbackQuery(candidate.id);
  let body;
  if (query.isPending) body = <Spinner label="Loading the callback" className="p-2" />;
  else if (query.isError) body = <ErrorCard title="Could not load the callback" error={query.error} onRetry={() => void query.refetch()} />;
  else if (!query.callback)
    body = <p className="text-sm text-slate-700">No callback is scheduled. Use “Schedule callback” to have the voice agent call at a set time.</p>;
  else body = <OpenCallback candidate={candidate} callback={query.callback} />;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Callback</CardTitle>
        <CardDescription>
          A call the voice agent places at a set time.{' '}
          <Link to="/admin/callbacks" className="text-blue-800 underline underline-offset-4">
            All callbacks
          </Link>
        </CardDescription>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
