import type { CallDetail } from '../../../contract/voice';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui';
import { formatDateTime } from '../../lib/utils';
import { LANGUAGE_LABELS } from '../chat/format';
import { CandidateLink, OutcomeText } from './components';
import { callEventWords, formatCost, formatDuration } from './format';

/** A call's facts beside its transcript: outcome, candidate, agent, direction, language, times, cost, provider. */
export function CallDetails({ call, agentName }: { call: CallDetail; agentName: string }) {
  return (
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
  );
}

/** Consecutive events of one kind (a transcript arrives in many pieces) read as one line with a count. */
function runsOfEvents(events: CallDetail['events']): Array<{ first: CallDetail['events'][number]; count: number }> {
  const runs: Array<{ first: CallDetail['events'][number]; count: number }> = [];
  for (const event of events) {
    const last = runs[runs.length - 1];
    if (last && last.first.type === event.type) last.count += 1;
    else runs.push({ first: event, count: 1 });
  }
  return runs;
}

/** What the provider reported about the call, in words, with when it arrived. */
export function CallEvents({ call }: { call: CallDetail }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Events</CardTitle>
      </CardHeader>
      <CardContent>
        {call.events.length === 0 ? (
          <p className="text-sm text-slate-700">No events yet.</p>
        ) : (
          <ol className="grid gap-1.5 text-sm" aria-label="Call events">
            {runsOfEvents(call.events).map((run) => (
              <li key={run.first.id} className="flex justify-between gap-3">
                <span className="text-xs text-slate-900">
                  {callEventWords(run.first.type)}
                  {run.count > 1 && <span className="text-slate-700"> ({run.count.toLocaleString('en-US')} times)</span>}
                </span>
                <span className="whitespace-nowrap text-xs text-slate-700">{formatDateTime(run.first.receivedAt)}</span>
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
