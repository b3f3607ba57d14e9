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
import { CallStatusBadge } from './components';
import { CallDetails, CallEvents } from './CallFacts';
import { AGENT_TYPE_LABELS, callAgentName, callEventWords, callLogSummaryWords, toolWords, transcriptOffsetWords } from './format';
import { callFailureReason, callRefreshMs, isFinal, useCallLogsQuery, useCallQuery, useDeleteCall, useVoiceAgentsQuery, type CallLogs } from './queries';
import { humanSummary } from '../../lib/words';
import { answerInWords } from '../prescreen/format';

/** "0:45 into the call" from the call's start; nothing when either time is unknown. */
function CallTranscript({ call }: { call: CallDetail }) {
  if (call.transcript.length === 0) {
    return <p className="text-sm text-slate-700">{isFinal(call.status) ? 'No transcript was recorded.' : 'The transcript appears as the call goes on.'}</p>;
  }
  const turns = call.transcript.map((turn, index): TranscriptTurn => {
    const person = turn.role === 'user' || turn.role === 'customer';
    const speaker = person ? 'Person' : turn.role === 'assistant' || turn.role === 'bot' ? 'Agent' : 'System';
    const when = transcriptOffsetWords(turn.at, call.startedAt);
    // The time in words beside the speaker ("Agent · 0:45 into the call"), or the speaker alone: never a dash.
    return { key: index, side: person ? 'end' : 'start', speaker: when ? `${speaker} · ${when}` : speaker, at: null, text: turn.text };
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
        <span className="font-medium text-slate-900">{toolWords(toolCall.name)}</span>
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
              <span className="text-xs font-medium text-slate-800">{callEventWords(entry.type)}</span>
              <span className="min-w-0 whitespace-pre-line break-words text-slate-900">
                {callLogSummaryWords(entry.type, entry.summary) ?? humanSummary(entry.summary)}
              </span>
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
  // The provider's messages are for whoever looks into a call that went wrong: folded away, so the page reads as
  // the call's story (details, answers, transcript, events) first.
  const count = query.data?.entries.length ?? 0;
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle>Logs</CardTitle>
        {!final && <span className="text-xs text-slate-700">Refreshing while the call goes on</span>}
      </CardHeader>
      <CardContent>
        <details className="group">
          <summary className="cursor-pointer text-sm font-medium text-blue-800 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700">
            {count > 0 ? `Show the provider's messages (${count.toLocaleString('en-US')})` : "Show the provider's messages"}
          </summary>
          <div className="mt-3">{body}</div>
        </details>
      </CardContent>
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

/** The call's answers as the review lists them: the question, the answer in words, where it came from. */
function ExtractedData({ call }: { call: CallDetail }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Extracted answers</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        {call.answers.length === 0 ? (
          <p className="text-slate-700">{isFinal(call.status) ? 'No answers were given on this call.' : 'Answers appear here as the call goes on.'}</p>
        ) : (
          <ol className="grid gap-2" data-testid="call-answers" aria-label="Extracted answers">
            {call.answers.map((answer) => (
              <li key={answer.questionId} className="grid gap-0.5 rounded-md border border-slate-200 px-3 py-2">
                <p className="text-slate-800">{answer.question}</p>
                <p className="font-semibold text-slate-900">{answerInWords(answer)}</p>
                {answer.evidence && <p className="text-xs text-slate-700">{answer.evidence}</p>}
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}

/** /admin/calls/$callId: one call, refreshed every 2 s until it ends. */
export function CallDetailPage({ callId }: { callId: string }) {
  const query = useCallQuery(callId);
  const agentsQuery = useVoiceAgentsQuery(undefined, query.data ? [query.data.organizationId] : undefined);
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
  const agentName = callAgentName(call.voiceAgentId, agentsQuery);
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
          <CallDetails call={call} agentName={agentName} />
          <CallEvents call={call} />
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
