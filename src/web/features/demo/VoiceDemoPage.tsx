import { Link } from '@tanstack/react-router';
import { Phone } from 'lucide-react';
import { useState } from 'react';
import type { CallDetail } from '../../../contract/voice';
import { ErrorCard } from '../../components/ErrorCard';
import { FormError } from '../../components/FormError';
import { Spinner } from '../../components/Spinner';
import { Transcript, type TranscriptTurn } from '../../components/Transcript';
import { Card, CardContent, CardDescription, CardHeader, CardTitle, EmptyState, Label, PageHeader, Select, SubmitButton } from '../../components/ui';
import { useActiveOrganization } from '../../lib/active-organization';
import { errorMessage } from '../../lib/utils';
import { CallStatusBadge, OutcomeText } from '../voice/components';
import { formatCost, formatDuration, transcriptOffsetWords } from '../voice/format';
import { callFailureReason, isFinal, useCallQuery } from '../voice/queries';
import { useDemoResultQuery, useDemoSamplesQuery, useStartDemoCall } from './queries';
import { RecommendationCard } from './RecommendationCard';
import { demoSamplesState } from './DemoSamplesState';

const SAMPLE = 'sample';

function turnsOf(call: CallDetail): TranscriptTurn[] {
  return call.transcript.map((turn, index) => {
    const person = turn.role === 'user' || turn.role === 'customer';
    const speaker = person ? 'Candidate' : 'Agent';
    // The simulator gives offsets ("4s"), not times of day: said in words, never "Agent · —".
    const when = transcriptOffsetWords(turn.at, call.startedAt);
    return { key: index, side: person ? 'end' : 'start', speaker: when ? `${speaker} · ${when}` : speaker, at: null, text: turn.text };
  });
}

/** The call as it happens: status, live transcript, then the recommendation the answers led to. */
function LiveCall({ callId, organizationId }: { callId: string; organizationId: string }) {
  const query = useCallQuery(callId);
  const call = query.data;
  const ended = call ? isFinal(call.status) : false;
  const result = useDemoResultQuery(call?.candidateId ?? null, organizationId, { enabled: Boolean(call?.prescreenResultId), poll: true });
  const { activeOrganizationId, setActiveOrganization } = useActiveOrganization();
  if (query.isPending) return <Spinner label="Placing the call" />;
  if (query.isError) return <ErrorCard title="Could not load the call" error={query.error} onRetry={() => void query.refetch()} />;
  const data = query.data;
  const recorded =
    data.structuredData.answers && typeof data.structuredData.answers === 'object' ? Object.keys(data.structuredData.answers as object).length : 0;
  return (
    <div className="grid gap-4">
      <Card>
        <CardHeader>
          <CardTitle className="flex flex-wrap items-center gap-2">
            The call <CallStatusBadge status={data.status} />
          </CardTitle>
          <CardDescription>
            {ended ? (
              <>
                Ended: <OutcomeText outcome={data.outcome} /> · {formatDuration(data.durationSeconds)} · {formatCost(data.costUsd)}
              </>
            ) : (
              'The agent asks the trial’s prescreen questions; the transcript updates every two seconds.'
            )}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3">
          {data.status === 'failed' && <FormError>{callFailureReason(data.structuredData.error)}</FormError>}
          {data.transcript.length === 0 ? (
            <p className="text-sm text-slate-700">{ended ? 'No transcript was recorded.' : 'Waiting for the candidate to answer…'}</p>
          ) : (
            <div
              role="log"
              aria-label="Transcript"
              aria-live="polite"
              tabIndex={0}
              data-testid="demo-transcript"
              className="max-h-[28rem] overflow-y-auto focus-visible:outline-2 focus-visible:outline-blue-700"
            >
              <Transcript turns={turnsOf(data)} />
            </div>
          )}
          {!ended && recorded > 0 && <p className="text-sm text-slate-700">{recorded} answers recorded so far.</p>}
          {/* The call is the demo organization's: opened there, it is listed under Calls with its agent (issue 32). */}
          <p className="text-sm text-slate-700">
            <Link
              to="/admin/calls/$callId"
              params={{ callId: data.id }}
              onClick={() => activeOrganizationId !== organizationId && setActiveOrganization(organizationId)}
              className="font-medium text-blue-800 hover:underline"
            >
              Open the full call record
            </Link>{' '}
            (in the demo organization, where it is listed under Calls)
          </p>
        </CardContent>
      </Card>
      {ended && data.status === 'ended' && !data.prescreenResultId && <p className="text-sm text-slate-700">The call ended without a prescreen result.</p>}
      {data.prescreenResultId &&
        (result.isError ? (
          <ErrorCard title="Could not load the recommendation" error={result.error} onRetry={() => void result.refetch()} />
        ) : result.data ? (
          <RecommendationCard
            result={result.data}
            description="What the prescreen engine made of the answers given on the call. A coordinator reviews it next."
          />
        ) : (
          <Spinner label="Reading the recommendation" />
        ))}
    </div>
  );
}

/** /admin/demo/voice: a simulated prescreen call with the demo trial's voice agent. */
export function VoiceDemoPage() {
  const samples = useDemoSamplesQuery();
  const start = useStartDemoCall();
  const [who, setWho] = useState(SAMPLE);
  const [language, setLanguage] = useState<'en' | 'es'>('en');
  const [callId, setCallId] = useState<string | null>(null);

  let body;
  const waiting = demoSamplesState(samples);
  if (waiting || !samples.data) body = waiting;
  else {
    const trial = samples.data.trials.find((item) => item.voiceAgent?.active);
    const people = samples.data.candidates.filter((person) => person.trialId === trial?.id);
    body = !trial?.voiceAgent ? (
      <EmptyState title="The demo organization has no active prescreen voice agent">
        <p>Reset the demo data to make it again.</p>
      </EmptyState>
    ) : (
      <div className="grid gap-4">
        <Card>
          <CardHeader>
            <CardTitle>Start a call</CardTitle>
            <CardDescription>
              The voice agent “{trial.voiceAgent.name}” places the calls for “{trial.title}”. Calls run on the voice simulator: nobody’s phone rings.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <form
              className="grid gap-4 sm:grid-cols-[2fr_1fr_auto] sm:items-end"
              onSubmit={(event) => {
                event.preventDefault();
                setCallId(null);
                start.mutate({ ...(who === SAMPLE ? { language } : { candidateId: who }) }, { onSuccess: (call) => setCallId(call.id) });
              }}
            >
              <div className="grid gap-1.5">
                <Label htmlFor="demo-callee">Who to call</Label>
                <Select id="demo-callee" value={who} onChange={(event) => setWho(event.target.value)}>
                  <option value={SAMPLE}>A sample person (callable at any hour)</option>
                  {people.map((person) => (
                    <option key={person.id} value={person.id}>
                      {person.name} · {person.city ?? 'no city'} · {person.preferredLanguage === 'es' ? 'Spanish' : 'English'}
                    </option>
                  ))}
                </Select>
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor="demo-language">Language</Label>
                <Select
                  id="demo-language"
                  value={language}
                  disabled={who !== SAMPLE}
                  onChange={(event) => setLanguage(event.target.value === 'es' ? 'es' : 'en')}
                >
                  <option value="en">English</option>
                  <option value="es">Spanish</option>
                </Select>
              </div>
              <SubmitButton pending={start.isPending} pendingLabel="Calling…" icon={<Phone aria-hidden="true" className="h-4 w-4" />}>
                Start demo call
              </SubmitButton>
            </form>
            {start.isError && (
              <FormError className="mt-4">
                <p className="font-semibold">The call was not placed</p>
                <p>{errorMessage(start.error)}</p>
                {who !== SAMPLE && <p>A demo candidate can only be called in their calling hours: the sample person can be called at any time.</p>}
              </FormError>
            )}
          </CardContent>
        </Card>
        {callId && <LiveCall key={callId} callId={callId} organizationId={samples.data.organizationId} />}
      </div>
    );
  }

  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <PageHeader
        title="Voice demo"
        description="A prescreen call with the demo trial’s voice agent: watch the transcript, the answers and the AI recommendation appear."
      />
      {body}
    </div>
  );
}
