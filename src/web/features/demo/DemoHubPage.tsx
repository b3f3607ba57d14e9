import { Link } from '@tanstack/react-router';
import { Database, RotateCcw } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { DemoCounts, DemoStatus } from '../../../contract/demo';
import { ConfirmDialog } from '../../components/dialogs';
import { ErrorCard } from '../../components/ErrorCard';
import { FormError } from '../../components/FormError';
import { Spinner } from '../../components/Spinner';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, PageHeader } from '../../components/ui';
import { ApiRequestError } from '../../lib/api';
import { invalidateOrg } from '../../lib/query';
import { errorMessage, formatDateTime } from '../../lib/utils';
import { useDemoStatusQuery, useResetDemo } from './queries';

const DEMOS = [
  {
    to: '/admin/demo/sponsors/intro',
    title: 'Sponsor demo',
    text: 'What a sponsor sees: site selection, connection, the recruitment dashboard and forecast, step by step.',
  },
  { to: '/admin/demo/chat', title: 'Chat demo', text: 'The demo organization’s public chat page: a visitor prescreens themselves for a trial.' },
  { to: '/admin/demo/voice', title: 'Voice demo', text: 'A simulated prescreen call: the live transcript, the answers and the AI recommendation.' },
  { to: '/admin/demo/prescreen', title: 'Prescreen demo', text: 'From a form’s answers to the AI recommendation and a reviewer’s decision, in four steps.' },
] as const;

const COUNT_LABELS: Array<[keyof DemoCounts, string]> = [
  ['trials', 'Trials'],
  ['sites', 'Sites'],
  ['candidates', 'Candidates'],
  ['prescreenResults', 'Prescreen results'],
  ['bookings', 'Visits booked'],
  ['calls', 'Calls'],
  ['smsMessages', 'SMS'],
  ['chatConversations', 'Chats'],
  ['activityEvents', 'Activity events'],
];

/** The processed runs of the demo organization (global lists leave it out unless named), resets among them. */
function ResetRunsLink({ organizationId }: { organizationId: string }) {
  return (
    <Link to="/admin/processed-runs" search={{ orgs: [organizationId] }} className="font-medium text-blue-800 underline">
      Processed runs
    </Link>
  );
}

const resetGoing = (status: DemoStatus) => status.reset?.status === 'pending' || status.reset?.status === 'running';

/** The reset run going: what it does, since when, and where the run is listed. */
function ResetProgress({ run }: { run: NonNullable<DemoStatus['reset']> }) {
  const people = typeof run.options.candidates === 'number' ? ` (${run.options.candidates.toLocaleString('en-US')} people)` : '';
  return (
    <div className="grid gap-1 rounded-md border border-blue-200 bg-blue-50 p-3" data-testid="demo-reset-progress">
      <Spinner label={`Resetting the demo data${people}: this takes a few seconds`} />
      <p className="text-sm text-slate-700">
        Started {formatDateTime(run.startedAt ?? run.createdAt)}. The old data stays until the new data is written. The run is also listed on{' '}
        <ResetRunsLink organizationId={run.organizationId} />.
      </p>
    </div>
  );
}

function StatusCard({ status }: { status: DemoStatus }) {
  const reset = useResetDemo();
  const [open, setOpen] = useState(false);
  const going = resetGoing(status);
  const busy = reset.isPending || going;
  const label = status.exists ? 'Reset demo data' : 'Create demo data';
  const outcome = useResetOutcome(status);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Demo data</CardTitle>
        <CardDescription>
          {status.exists && status.organization
            ? `“${status.organization.name}”: trials with sites across the US, candidates at them and eight months of recruitment activity.`
            : 'There is no demo organization yet. Create it to give every demo its trials, candidates and activity.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {status.exists && status.counts && (
          <>
            <p className="text-sm text-slate-700" data-testid="demo-last-reset">
              Last reset: {status.lastResetAt ? formatDateTime(status.lastResetAt) : 'not recorded'}
              {status.organization && (
                <>
                  {' '}
                  (every reset is listed on <ResetRunsLink organizationId={status.organization.id} />)
                </>
              )}
            </p>
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3" aria-label="What the demo organization holds">
              {COUNT_LABELS.map(([key, text]) => (
                <div key={key} className="rounded-md border border-slate-200 p-2.5">
                  <dt className="text-xs font-medium uppercase tracking-wide text-slate-700">{text}</dt>
                  <dd className="text-lg font-semibold tabular-nums text-slate-900" data-testid={`demo-count-${key}`}>
                    {status.counts![key].toLocaleString('en-US')}
                  </dd>
                </div>
              ))}
            </dl>
          </>
        )}
        {reset.isError && (
          <FormError>
            <p className="font-semibold">The demo data was not reset</p>
            <p>{errorMessage(reset.error)}</p>
          </FormError>
        )}
        {status.reset?.status === 'failed' && !going && (
          <FormError>
            <p className="font-semibold">The last reset did not finish</p>
            <p>{status.reset.error ?? 'It stopped on an unexpected error; the old demo data is kept.'}</p>
          </FormError>
        )}
        {outcome && !busy && (
          <p role="status" className="rounded-md bg-green-50 p-3 text-sm font-medium text-green-900">
            {outcome}
          </p>
        )}
        {going && status.reset ? <ResetProgress run={status.reset} /> : reset.isPending && <Spinner label="Starting the reset" />}
        <div>
          <ConfirmDialog
            open={open}
            onOpenChange={(next) => !reset.isPending && setOpen(next)}
            trigger={
              <Button variant={status.exists ? 'secondary' : 'primary'} disabled={busy}>
                {status.exists ? <RotateCcw aria-hidden="true" className="h-4 w-4" /> : <Database aria-hidden="true" className="h-4 w-4" />}
                {busy ? 'Resetting…' : label}
              </Button>
            }
            title={status.exists ? 'Reset the demo data?' : 'Create the demo data?'}
            description={
              status.exists
                ? 'Every trial, candidate, call, message and result of the demo organization is deleted and made again. Its id, members and public chat link stay.'
                : 'Creates the demo organization with its trials, sites, candidates and activity.'
            }
            confirmLabel={label}
            pending={reset.isPending}
            onConfirm={() => reset.mutate(undefined, { onSettled: () => setOpen(false) })}
          />
        </div>
      </CardContent>
    </Card>
  );
}

/**
 * The words for a reset this page saw end ("Demo data reset: 3,000 candidates across 24 sites."); when it ends,
 * every organization query is refetched (the demo's rows all changed).
 */
function useResetOutcome(status: DemoStatus): string | null {
  const queryClient = useQueryClient();
  const [watched, setWatched] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  const run = status.reset;
  useEffect(() => {
    if (!run) return;
    if (run.status === 'pending' || run.status === 'running') {
      if (watched !== run.id) {
        setWatched(run.id);
        setOutcome(null);
      }
      return;
    }
    if (watched !== run.id) return;
    setWatched(null);
    void invalidateOrg(queryClient, undefined);
    void queryClient.invalidateQueries({ queryKey: ['organizations'] });
    if (run.status === 'completed' && status.counts)
      setOutcome(
        `Demo data ${run.options.seeding ? 'created' : 'reset'}: ${status.counts.candidates.toLocaleString('en-US')} candidates across ${status.counts.sites} sites.`,
      );
  }, [run, watched, status.counts, queryClient]);
  return outcome;
}

/** /admin/demo: the demos an internal admin can show a sponsor or a site, and the demo organization's data. */
export function DemoHubPage() {
  const query = useDemoStatusQuery();
  let status;
  if (query.isPending) status = <Spinner label="Loading the demo organization" />;
  else if (query.isError) {
    const refused = query.error instanceof ApiRequestError && query.error.status === 403;
    status = (
      <ErrorCard
        title={refused ? 'The demo area needs the Cohortly organization' : 'Could not load the demo organization'}
        message={refused ? 'Switch to the Cohortly organization (or the demo organization) to see and reset the demo data.' : errorMessage(query.error)}
        onRetry={refused ? undefined : () => void query.refetch()}
      />
    );
  } else status = <StatusCard status={query.data} />;

  return (
    <div className="grid gap-6">
      <PageHeader title="Demos" description="Show Cohortly to a sponsor or a site with the demo organization’s data." />
      <ul className="grid gap-3 sm:grid-cols-2" aria-label="Demos">
        {DEMOS.map((demo) => (
          <li key={demo.to}>
            <Card className="h-full">
              <CardContent className="grid gap-1 pt-5">
                <Link to={demo.to} className="font-semibold text-blue-800 hover:underline">
                  {demo.title}
                </Link>
                <p className="text-sm text-slate-700">{demo.text}</p>
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
      {status}
    </div>
  );
}
