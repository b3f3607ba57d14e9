import { shortTrialTitle } from '../../../../contract/trial-name';
import { Link } from '@tanstack/react-router';
import { ErrorCard } from '../../../components/ErrorCard';
import { Spinner } from '../../../components/Spinner';
import { buttonClass, Card, CardContent, CardHeader, CardTitle, EmptyState } from '../../../components/ui';
import { flowSearch, SponsorDemoStep, type SponsorFlow } from '../SponsorDemoStep';
import { count, DIMENSION_LABELS, formatDay, percent, siteWhere } from './format';
import { useSponsorDashboard } from './queries';

const NEXT_STEPS = [
  'Share the protocol and the site list with Cohortly to connect the real sites.',
  'Agree the diversity goals and the enrollment date the forecast should be held to.',
  'Review the dashboard weekly with the sites: the funnel, each site’s speed and the projected date.',
];

/** Step 5: what the sponsor saw (chosen sites, projected date, gaps) and the next steps. */
export function CompletePage({ flow }: { flow: SponsorFlow }) {
  const query = useSponsorDashboard(flow.trial, flow.sites ?? [], undefined);
  let body;
  if (!flow.trial) {
    body = (
      <EmptyState title="Nothing chosen yet">
        <p>
          <Link to="/admin/demo/sponsors/site-selection" search={flowSearch(flow)} className="font-medium text-blue-800 underline">
            Choose a trial and sites
          </Link>{' '}
          to see a summary here.
        </p>
      </EmptyState>
    );
  } else if (query.isPending) body = <Spinner label="Loading the summary" />;
  else if (query.isError) body = <ErrorCard title="Could not load the summary" error={query.error} onRetry={() => void query.refetch()} />;
  else {
    const data = query.data;
    const { forecast } = data;
    const gaps = data.demographics.flatMap((dimension) =>
      dimension.rows.filter((row) => row.goal !== null && row.share < row.goal).map((row) => ({ dimension: DIMENSION_LABELS[dimension.dimension], ...row })),
    );
    body = (
      <div className="grid gap-5 md:grid-cols-2" data-testid="sponsor-summary">
        <Card>
          <CardHeader>
            <CardTitle>{shortTrialTitle(data.trial)}</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-2 text-sm text-slate-800">
            <p>
              {data.sites.length} {data.sites.length === 1 ? 'site' : 'sites'} chosen:
            </p>
            <ul className="list-disc pl-5">
              {data.sites.map((site) => (
                <li key={site.id}>
                  {site.name} ({siteWhere(site)}), rank {site.rank}
                </li>
              ))}
            </ul>
            <p>
              Pool of {count(data.totals.pool)}; {count(data.totals.enrolled)} enrolled
              {data.trial.targetEnrollment ? ` of ${count(data.trial.targetEnrollment)}` : ''}.
            </p>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Projected date and gaps</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-2 text-sm text-slate-800">
            {forecast.expectedDate && forecast.status === 'ok' ? (
              <p>
                Target expected on <strong>{formatDay(forecast.expectedDate)}</strong> (80% between {formatDay(forecast.band80.low)} and{' '}
                {forecast.band80.high ? formatDay(forecast.band80.high) : 'after 5 years'}).
              </p>
            ) : (
              <p>{forecast.status === 'target-met' ? 'The target is already met.' : 'No projected date yet at the current pace.'}</p>
            )}
            {gaps.length === 0 ? (
              <p>The pool meets every diversity goal.</p>
            ) : (
              <>
                <p>Below the diversity goals:</p>
                <ul className="list-disc pl-5">
                  {gaps.map((gap) => (
                    <li key={`${gap.dimension}-${gap.value}`}>
                      {gap.dimension}: {gap.value} {percent(gap.share)} (goal {percent(gap.goal)})
                    </li>
                  ))}
                </ul>
              </>
            )}
          </CardContent>
        </Card>
        <Card className="md:col-span-2">
          <CardHeader>
            <CardTitle>Next steps</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-3">
            <ol className="list-decimal pl-5 text-sm text-slate-800">
              {NEXT_STEPS.map((step) => (
                <li key={step}>{step}</li>
              ))}
            </ol>
            <div className="flex flex-wrap gap-2">
              <Link to="/admin/demo/sponsors/intro" className={buttonClass('secondary')}>
                Start over
              </Link>
            </div>
          </CardContent>
        </Card>
      </div>
    );
  }
  return (
    <SponsorDemoStep step="/admin/demo/sponsors/complete" title="Demo complete" description="What we looked at, and where to go from here." flow={flow}>
      {body}
    </SponsorDemoStep>
  );
}
