import { Link } from '@tanstack/react-router';
import { Database, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import type { DemoCounts, DemoStatus } from '../../../contract/demo';
import { ConfirmDialog } from '../../components/dialogs';
import { ErrorCard } from '../../components/ErrorCard';
import { FormError } from '../../components/FormError';
import { Spinner } from '../../components/Spinner';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, PageHeader } from '../../components/ui';
import { ApiRequestError } from '../../lib/api';
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

function StatusCard({ status }: { status: DemoStatus }) {
  const reset = useResetDemo();
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const label = status.exists ? 'Reset demo data' : 'Create demo data';
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
        {done && !reset.isPending && (
          <p role="status" className="rounded-md bg-green-50 p-3 text-sm font-medium text-green-900">
            {done}
          </p>
        )}
        {reset.isPending && <Spinner label="Resetting the demo data: this takes a few seconds" />}
        <div>
          <ConfirmDialog
            open={open}
            onOpenChange={(next) => !reset.isPending && setOpen(next)}
            trigger={
              <Button variant={status.exists ? 'secondary' : 'primary'} disabled={reset.isPending}>
                {status.exists ? <RotateCcw aria-hidden="true" className="h-4 w-4" /> : <Database aria-hidden="true" className="h-4 w-4" />}
                {reset.isPending ? 'Resetting…' : label}
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
            onConfirm={() => {
              setDone(null);
              reset.mutate(undefined, {
                onSuccess: (next) => {
                  setOpen(false);
                  setDone(
                    `Demo data ${status.exists ? 'reset' : 'created'}: ${next.counts?.candidates.toLocaleString('en-US') ?? 0} candidates across ${next.counts?.sites ?? 0} sites.`,
                  );
                },
                onError: () => setOpen(false),
              });
            }}
          />
        </div>
      </CardContent>
    </Card>
  );
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
