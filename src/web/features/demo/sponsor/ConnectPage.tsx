import { shortTrialTitle } from '../../../../contract/trial-name';
import { Link } from '@tanstack/react-router';
import { CheckCircle2, Circle, Loader2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { ErrorCard } from '../../../components/ErrorCard';
import { Spinner } from '../../../components/Spinner';
import { buttonClass, Card, CardContent, CardDescription, CardHeader, CardTitle, EmptyState } from '../../../components/ui';
import { ChooseSitesFirst, flowSearch, SponsorDemoStep, type SponsorFlow } from '../SponsorDemoStep';
import { siteWhere } from './format';
import { useSponsorSites } from './queries';
import { preloadDashboardTabs } from './tab-chunks';

export const CONNECT_STEPS = ['Protocol shared', 'Pre-screener generated from the criteria', 'Outreach agents configured', 'Ready'] as const;
/** A simulated pace: every site moves one step this often (sites a little apart, as real connections would be). */
const STEP_MS = 450;

/**
 * Step 3: the sponsor's trial "connects" to the chosen sites. Simulated: a short progress sequence per site, with
 * no request and no change anywhere.
 */
export function ConnectPage({ flow }: { flow: SponsorFlow }) {
  const sites = useSponsorSites(flow.trial);
  // The dashboard is next: its tabs' code loads while the sites connect, once they show, so the charts' code does not
  // evaluate while the sites arrive (decision 186).
  const sitesShown = sites.isSuccess;
  useEffect(() => {
    if (sitesShown) preloadDashboardTabs();
  }, [sitesShown]);
  const chosenIds = flow.sites ?? [];
  const [tick, setTick] = useState(0);
  const total = CONNECT_STEPS.length + chosenIds.length;
  const done = chosenIds.length > 0 && tick >= total;
  useEffect(() => {
    if (!flow.trial || chosenIds.length === 0 || tick >= total) return;
    const timer = window.setTimeout(() => setTick((value) => value + 1), STEP_MS);
    return () => window.clearTimeout(timer);
  }, [tick, total, flow.trial, chosenIds.length]);

  let body;
  if (!flow.trial || chosenIds.length === 0) {
    body = <ChooseSitesFirst title="No sites chosen yet" flow={flow} />;
  } else if (sites.isPending) body = <Spinner label="Loading the chosen sites" />;
  else if (sites.isError) body = <ErrorCard title="Could not load the chosen sites" error={sites.error} onRetry={() => void sites.refetch()} />;
  else {
    const chosen = sites.data.sites.filter((site) => chosenIds.includes(site.id));
    body =
      chosen.length === 0 ? (
        <EmptyState title="The chosen sites are not sites of this trial">
          <p>
            <Link to="/admin/demo/sponsors/site-selection" search={{ trial: flow.trial }} className="font-medium text-blue-800 underline">
              Choose the sites again
            </Link>
          </p>
        </EmptyState>
      ) : (
        <Card>
          <CardHeader>
            <CardTitle>Connecting {shortTrialTitle(sites.data.trial)}</CardTitle>
            <CardDescription>A simulation for the demo: nothing is sent to the sites.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            <ul className="grid gap-3 md:grid-cols-2">
              {chosen.map((site, index) => {
                // Site n starts n ticks after the first.
                const reached = Math.max(0, Math.min(CONNECT_STEPS.length, tick - index));
                const ready = reached >= CONNECT_STEPS.length;
                return (
                  <li key={site.id} className="rounded-lg border border-slate-200 p-4" data-testid="connect-site">
                    <p className="font-medium text-slate-900">{site.name}</p>
                    <p className="mb-2 text-xs text-slate-700">{siteWhere(site)}</p>
                    <ol className="grid gap-1 text-sm">
                      {CONNECT_STEPS.map((label, step) => {
                        const state = step < reached ? 'done' : step === reached && !ready ? 'running' : 'waiting';
                        return (
                          <li key={label} className="flex items-center gap-2">
                            {state === 'done' ? (
                              <CheckCircle2 aria-hidden="true" className="h-4 w-4 text-green-700" />
                            ) : state === 'running' ? (
                              <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin text-blue-700" />
                            ) : (
                              <Circle aria-hidden="true" className="h-4 w-4 text-slate-400" />
                            )}
                            <span className={state === 'waiting' ? 'text-slate-700' : 'text-slate-900'}>{label}</span>
                            <span className="sr-only">{state === 'done' ? '(done)' : state === 'running' ? '(in progress)' : '(waiting)'}</span>
                          </li>
                        );
                      })}
                    </ol>
                  </li>
                );
              })}
            </ul>
            <p role="status" className="text-sm font-medium text-slate-900" data-testid="connect-status">
              {done ? `All ${chosen.length} sites are connected and ready.` : 'Connecting…'}
            </p>
            {done && (
              <div>
                <Link to="/admin/demo/sponsors/dashboard" search={flowSearch(flow)} className={buttonClass('primary')}>
                  Open the dashboard
                </Link>
              </div>
            )}
          </CardContent>
        </Card>
      );
  }

  return (
    <SponsorDemoStep
      step="/admin/demo/sponsors/connect"
      title="Connect"
      description="Cohortly connects the trial to each chosen site: the protocol, a pre-screener built from the criteria, and the outreach agents."
      flow={flow}
      nextReady={done}
    >
      {body}
    </SponsorDemoStep>
  );
}
