import { Link, useNavigate } from '@tanstack/react-router';
import { ArrowLeft, ClipboardCheck, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import type { CallDetail } from '../../../contract/voice';
import { ConfirmDialog } from '../../components/dialogs';
import { ErrorCard, RecordLoadError } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Transcript, type TranscriptTurn } from '../../components/Transcript';
import { Button, buttonClass, Card, CardContent, CardHeader, CardTitle } from '../../components/ui';
import { formatDateTime } from '../../lib/utils';
import { LANGUAGE_LABELS } from '../chat/format';
import { CallStatusBadge, CandidateLink, OutcomeText } from './components';
import { AGENT_TYPE_LABELS, formatCost, formatDuration } from './format';
import { callFailureReason, callRefreshMs, isFinal, useCallLogsQuery, useCallQuery, useDeleteCall, useVoiceAgentsQuery, type CallLogs } from './queries';
import { humanSummary } from '../../lib/words';

function CallTranscript({ call }: { call: CallDetail }) {
  if (call.transcript.length === 0) {
    return <p className="text-sm text-slate-700">{isFinal(call.status) ? 'No transcript was recorded.' : 'The transcript appears as the call goes on.'}</p>;
  }
  const turns = call.transcript.map((turn, index): TranscriptTurn => {
    const person = turn.role === 'user' || turn.role === 'customer';
    return {
      key: index,
      side: person ? 'end' : 'start',
      speaker: person ? 'Candidate' : turn.role === 'assistant' || turn.role === 'bot' ? 'Agent' : turn.role,
      at: turn.at,
      text: turn.text,
    };
  });
  return (
    <div role="log" aria-label="Transcript" data-testid="call-transcript">
      <Transcript turns={turns} />
    </div>
  );
}

const pretty = (value: unknown) => (value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value, null, 2));

function ToolCall({ toolCall }: { toolCall: NonNullable<CallLogs['entries'][number]['toolCalls']>[number] }) {
  return (
    <li className="rounded-md border border-slate-200 bg-slate-50 p-2.5">
      <p className="text-sm">
        <span className="text-slate-700">Tool </span>
        <span className="font-mono text-slate-900">{toolCall.name}</span>
      </p>
      <div className="mt-1.5 grid gap-2 sm:grid-cols-2">
        <div className="grid gap-0.5">
          <span className="text-xs font-medium uppercase tracking-wide text-slate-700">Arguments</span>
          <pre className="max-h-48 overflow-auto whitespace-pre-wrap break-words rounded bg-white p-2 text-xs text-slate-800">{pretty(toolCall.arguments)}</pre>
        </div>
        <div className="grid gap-0.5">
          <span className="text-xs font-medium uppercase tracking-wide text-slate-700">Result</span>
          <pre className="max-h-48 overflow-auto whitespace-pre-wrap break-words rounded bg-white p-2 text-xs text-slate-800">
            {toolCall.result === undefined || toolCall.result === null ? 'No result yet' : pretty(toolCall.result)}
          </pre>
        </div>
      </div>
    </li>
  );
}

/** What the provider sent about the call, oldest first: messages with their times, tool calls with arguments and results. */
function CallLogsCard({ call }: { call: CallDetail }) {
  const final = isFinal(call.status);
  const query = useCallLogsQuery(call.id, { live: !final });
  // The call just ended: read the log once more for its last messages.
  const wasFinal = useRef(final);
  const { refetch } = query;
  useEffect(() => {
    if (final && !wasFinal.current) void refetch();
    wasFinal.current = final;
  }, [final, refetch]);

  let body;
  if (query.isPending) body = <Spinner label="Loading the call log" className="p-2" />;
  else if (query.isError) body = <ErrorCard title="Could not load the call log" error={query.error} onRetry={() => void query.refetch()} />;
  else if (query.data.entries.length === 0)
    body = (
      <p className="text-sm text-slate-700">
        {final ? 'The provider sent nothing about this call.' : 'Messages from the provider appear here as the call goes on.'}
      </p>
    );
  else {
    body = (
      <ol className="relative grid gap-2 border-l border-slate-200 pl-4" aria-label="Call log" data-testid="call-logs">
        {query.data.entries.map((entry, index) => (
          <li key={`${entry.at}-${index}`} className="relative grid gap-1.5">
            <span aria-hidden="true" className="absolute -left-[1.3rem] top-1.5 h-2 w-2 rounded-full bg-blue-700" />
            <div className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5 text-sm">
              <time dateTime={entry.at} className="whitespace-nowrap text-xs tabular-nums text-slate-700">
                {formatTime(entry.at)}
              </time>
              <span className="font-mono text-xs text-slate-800">{entry.type}</span>
              <span className="min-w-0 whitespace-pre-line break-words text-slate-900">{humanSummary(entry.summary)}</span>
            </div>
            {entry.toolCalls && entry.toolCalls.length > 0 && (
              <ul className="grid gap-2" aria-label={`Tool calls at ${formatTime(entry.at)}`}>
                {entry.toolCalls.map((toolCall) => (
                  <ToolCall key={toolCall.id} toolCall={toolCall} />
                ))}
              </ul>
            )}
          </li>
        ))}
      </ol>
    );
  }
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle>Logs</CardTitle>
        {!final && <span className="text-xs text-slate-700">Refreshing while the call goes on</span>}
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}

/** "14:03:27": log lines of one call are close together, so seconds matter; the date shows when not today. */
function formatTime(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const today = date.toDateString() === new Date().toDateString();
  return date.toLocaleString(undefined, today ? { hour: '2-digit', minute: '2-digit', second: '2-digit' } : { dateStyle: 'medium', timeStyle: 'medium' });
}

const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

function ExtractedData({ call }: { call: CallDetail }) {
  const { answers, ...rest } = call.structuredData as {
    answers?: unknown;
  } & Record<string, unknown>;
  const answerEntries = answers && typeof answers === 'object' ? Object.entries(answers as Record<string, unknown>) : [];
  const restEntries = Object.entries(rest);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Extracted answers</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        {answerEntries.length === 0 ? (
          <p className="text-slate-700">No answers were extracted{isFinal(call.status) ? '.' : ' yet.'}</p>
        ) : (
          <dl className="grid gap-2" data-testid="call-answers">
            {answerEntries.map(([question, answer]) => (
              <div key={question} className="grid gap-0.5">
                <dt className="font-mono text-xs text-slate-700">{question}</dt>
                <dd className="text-slate-900">{show(answer)}</dd>
              </div>
            ))}
          </dl>
        )}
        {restEntries.length > 0 && (
          <details className="rounded-md border border-slate-200 p-3">
            <summary className="cursor-pointer font-medium text-slate-900">Other structured data</summary>
            <pre className="mt-2 max-h-72 overflow-auto whitespace-pre-wrap break-words text-xs text-slate-800">{JSON.stringify(rest, null, 2)}</pre>
          </details>
        )}
      </CardContent>
    </Card>
  );
}

/** /admin/calls/$callId: one call, refreshed every 2 s until it ends. */
export function CallDetailPage({ callId }: { callId: string }) {
  const query = useCallQuery(callId);
  const agentsQuery = useVoiceAgentsQuery();
  const navigate = useNavigate();
  const remove = useDeleteCall();
  const [deleting, setDeleting] = useState(false);

  if (query.isPending) return <Spinner label="Loading the call" />;
  if (query.isError) {
    return (
      <RecordLoadError
        error={query.error}
        heading="Call"
        missing={{ heading: 'Call not found', title: 'This call does not exist or was deleted' }}
        missingMessage="Go back to the list to find another call."
        failed="Could not load this call"
        onRetry={() => void query.refetch()}
        back={
          <Link to="/admin/calls" className={buttonClass('secondary')}>
            Back to calls
          </Link>
        }
      />
    );
  }
  const call = query.data;
  const final = isFinal(call.status);
  const agentName = call.voiceAgentId ? (agentsQuery.data?.voiceAgents.find((agent) => agent.id === call.voiceAgentId)?.name ?? 'Deleted agent') : '—';
  const cancellable = call.status === 'queued' || call.status === 'ringing';

  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="grid gap-2">
          <Link to="/admin/calls" className="inline-flex items-center gap-1 text-sm text-blue-800 underline-offset-4 hover:underline">
            <ArrowLeft aria-hidden="true" className="h-4 w-4" />
            All calls
          </Link>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{AGENT_TYPE_LABELS[call.type]} call</h1>
          <div className="flex flex-wrap items-center gap-2 text-sm text-slate-700" aria-live="polite" data-testid="call-status">
            <CallStatusBadge status={call.status} />
            {!final && (
              <span>{callRefreshMs(call) === 2000 ? 'Refreshing every 2 seconds…' : 'Still waiting for the voice provider; checking every 15 seconds…'}</span>
            )}
          </div>
          {call.status === 'failed' && (
            <p className="text-sm text-red-800" data-testid="call-failure-reason">
              {callFailureReason((call.structuredData as { error?: unknown }).error)}
            </p>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          {call.candidateId && (
            <Link to="/prescreen/results" search={{ candidateId: call.candidateId }} className={buttonClass('secondary')}>
              <ClipboardCheck aria-hidden="true" className="h-4 w-4" />
              {call.prescreenResultId ? 'Prescreen result' : 'Review prescreen'}
            </Link>
          )}
          {(final || cancellable) && (
            <Button variant="danger" onClick={() => setDeleting(true)}>
              <Trash2 aria-hidden="true" className="h-4 w-4" />
              {cancellable ? 'Cancel call' : 'Delete call'}
            </Button>
          )}
        </div>
      </div>
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="grid content-start gap-6 lg:col-span-2">
          {call.recordingUrl && (
            <Card>
              <CardHeader>
                <CardTitle>Recording</CardTitle>
              </CardHeader>
              <CardContent>
                <audio controls src={call.recordingUrl} className="w-full" aria-label="Call recording">
                  <a href={call.recordingUrl}>Download the recording</a>
                </audio>
              </CardContent>
            </Card>
          )}
          <Card>
            <CardHeader>
              <CardTitle>Transcript</CardTitle>
            </CardHeader>
            <CardContent>
              <CallTranscript call={call} />
            </CardContent>
          </Card>
          <ExtractedData call={call} />
          <CallLogsCard call={call} />
        </div>
        <div className="grid content-start gap-6">
          <Card>
            <CardHeader>
              <CardTitle>Details</CardTitle>
            </CardHeader>
            <CardContent>
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
                <dt className="text-slate-700">Outcome</dt>
                <dd data-testid="call-outcome">
                  <OutcomeText outcome={call.outcome} />
                </dd>
                <dt className="text-slate-700">Candidate</dt>
                <dd>
                  <CandidateLink candidateId={call.candidateId} />
                </dd>
                <dt className="text-slate-700">Agent</dt>
                <dd>{agentName}</dd>
                <dt className="text-slate-700">Direction</dt>
                <dd>{call.direction === 'outbound' ? 'Outbound' : 'Inbound'}</dd>
                <dt className="text-slate-700">Language</dt>
                <dd>{LANGUAGE_LABELS[call.language] ?? call.language}</dd>
                <dt className="text-slate-700">Duration</dt>
                <dd className="tabular-nums">{formatDuration(call.durationSeconds)}</dd>
                <dt className="text-slate-700">Cost</dt>
                <dd className="tabular-nums">{formatCost(call.costUsd)}</dd>
                <dt className="text-slate-700">Created</dt>
                <dd>{formatDateTime(call.createdAt)}</dd>
                <dt className="text-slate-700">Started</dt>
                <dd>{call.startedAt ? formatDateTime(call.startedAt) : '—'}</dd>
                <dt className="text-slate-700">Ended</dt>
                <dd>{call.endedAt ? formatDateTime(call.endedAt) : '—'}</dd>
                <dt className="text-slate-700">Provider</dt>
                <dd>{call.provider === 'simulator' ? 'Simulator' : 'Vapi'}</dd>
              </dl>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Events</CardTitle>
            </CardHeader>
            <CardContent>
              {call.events.length === 0 ? (
                <p className="text-sm text-slate-700">No events yet.</p>
              ) : (
                <ol className="grid gap-1.5 text-sm" aria-label="Call events">
                  {call.events.map((event) => (
                    <li key={event.id} className="flex justify-between gap-3">
                      <span className="font-mono text-xs text-slate-900">{event.type}</span>
                      <span className="whitespace-nowrap text-xs text-slate-700">{formatDateTime(event.receivedAt)}</span>
                    </li>
                  ))}
                </ol>
              )}
            </CardContent>
          </Card>
        </div>
      </div>
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={cancellable ? 'Cancel this call?' : 'Delete this call?'}
        description={
          cancellable
            ? 'The call is hung up before the candidate answers.'
            : 'The call, its transcript and events are deleted. A prescreen result it recorded stays.'
        }
        confirmLabel={cancellable ? 'Cancel call' : 'Delete call'}
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(call.id, {
            onSuccess: (answer) => {
              setDeleting(false);
              if (answer.action === 'cancelled') toast.success('Call cancelled');
              else {
                toast.success('Call deleted');
                void navigate({ to: '/admin/calls' });
              }
            },
          })
        }
      />
    </div>
  );
}
