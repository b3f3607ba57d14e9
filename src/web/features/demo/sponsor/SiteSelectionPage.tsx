import { ArrowDown, ArrowUp } from 'lucide-react';
import { useId, useState } from 'react';
import type { SponsorSite } from '../../../../contract/sponsor-demo';
import { ErrorCard } from '../../../components/ErrorCard';
import { Spinner } from '../../../components/Spinner';
import { Badge, Button, Card, CardContent, CardDescription, CardHeader, CardTitle, EmptyState, Label, Select, Td, Th } from '../../../components/ui';
import { cn } from '../../../lib/utils';
import { SponsorDemoStep, type SponsorFlow } from '../SponsorDemoStep';
import { ScrollTable } from './ScrollTable';
import { count, decimal, percent, siteWhere } from './format';
import { useSponsorSites, useSponsorTrials } from './queries';

type SortKey = 'rank' | 'name' | 'pool' | 'speed' | 'rate' | 'diversity';
const COLUMNS: Array<{ key: SortKey; label: string; numeric: boolean }> = [
  { key: 'rank', label: 'Rank', numeric: true },
  { key: 'name', label: 'Site', numeric: false },
  { key: 'pool', label: 'Matching pool', numeric: true },
  { key: 'speed', label: 'Median days to booking', numeric: true },
  { key: 'rate', label: 'Enrollments / month', numeric: true },
  { key: 'diversity', label: 'Under-represented', numeric: true },
];
/** The natural direction of each column: best first. */
const BEST_FIRST: Record<SortKey, 'asc' | 'desc'> = { rank: 'asc', name: 'asc', pool: 'desc', speed: 'asc', rate: 'desc', diversity: 'desc' };

function sortValue(site: SponsorSite, key: SortKey): number | string | null {
  switch (key) {
    case 'rank':
      return site.rank;
    case 'name':
      return site.name.toLowerCase();
    case 'pool':
      return site.funnel.pool;
    case 'speed':
      return site.medianDaysToBooking;
    case 'rate':
      return site.enrollmentsPerMonth;
    case 'diversity':
      return site.diversityShare;
  }
}

function sortSites(sites: SponsorSite[], key: SortKey, direction: 'asc' | 'desc'): SponsorSite[] {
  return [...sites].sort((left, right) => {
    const a = sortValue(left, key);
    const b = sortValue(right, key);
    // Unknown values last, whatever the direction.
    if (a === null || b === null) return a === b ? left.rank - right.rank : a === null ? 1 : -1;
    const order = a < b ? -1 : a > b ? 1 : 0;
    return (direction === 'asc' ? order : -order) || left.rank - right.rank;
  });
}

/** Step 2: pick one of the demo organization's recruiting trials, see its sites ranked, choose some. */
export function SiteSelectionPage({ flow, onChange }: { flow: SponsorFlow; onChange: (flow: SponsorFlow) => void }) {
  const trials = useSponsorTrials();
  const sites = useSponsorSites(flow.trial);
  const trialSelectId = useId();
  const chosen = new Set(flow.sites ?? []);
  const [sort, setSort] = useState<{ key: SortKey; direction: 'asc' | 'desc' }>({ key: 'rank', direction: 'asc' });

  let trialPicker;
  if (trials.isPending) trialPicker = <Spinner label="Loading the demo trials" />;
  else if (trials.isError) trialPicker = <ErrorCard title="Could not load the demo trials" error={trials.error} onRetry={() => void trials.refetch()} />;
  else if (trials.data.trials.length === 0) {
    trialPicker = (
      <EmptyState title="The demo organization has no recruiting trial">
        <p>Seed the demo data (npm run seed) and come back.</p>
      </EmptyState>
    );
  } else {
    trialPicker = (
      <div className="grid max-w-xl gap-1.5">
        <Label htmlFor={trialSelectId}>Trial</Label>
        <Select id={trialSelectId} value={flow.trial ?? ''} onChange={(event) => onChange({ trial: event.target.value || undefined, sites: undefined })}>
          <option value="">Choose a trial…</option>
          {trials.data.trials.map((trial) => (
            <option key={trial.id} value={trial.id}>
              {trial.title}
              {trial.nctId ? ` (${trial.nctId})` : ''}
            </option>
          ))}
        </Select>
      </div>
    );
  }

  let table = null;
  if (flow.trial) {
    if (sites.isPending) table = <Spinner label="Ranking the sites" />;
    else if (sites.isError) table = <ErrorCard title="Could not rank the sites" error={sites.error} onRetry={() => void sites.refetch()} />;
    else if (sites.data.sites.length === 0) table = <EmptyState title="This trial has no sites yet" />;
    else {
      const { ranking } = sites.data;
      const rows = sortSites(sites.data.sites, sort.key, sort.direction);
      const toggle = (id: string) => {
        const next = new Set(chosen);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        // Keep the ranking's order in the URL, whatever order they were ticked in.
        onChange({ trial: flow.trial, sites: sites.data.sites.filter((site) => next.has(site.id)).map((site) => site.id) });
      };
      table = (
        <Card>
          <CardHeader>
            <CardTitle>Candidate sites</CardTitle>
            <CardDescription>
              Ranked by a score of 100: the matching pool ({percent(ranking.pool)}: candidates near the site linked to the trial and not screened out or opted
              out), speed to a booked visit ({percent(ranking.speed)}), enrollments a month ({percent(ranking.enrollmentRate)}) and the pool's diversity (
              {percent(ranking.diversity)}: the share from under-represented groups against {percent(ranking.censusDiversityShare)} in the US census). Each is
              scored against the best site. Click a column to sort.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-3">
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <span aria-live="polite" data-testid="chosen-count">
                {chosen.size === 0 ? 'No site chosen yet' : `${chosen.size} of ${sites.data.sites.length} sites chosen`}
              </span>
              <Button
                variant="secondary"
                size="sm"
                onClick={() => onChange({ trial: flow.trial, sites: sites.data.sites.filter((site) => site.rank <= 3 && site.started).map((site) => site.id) })}
              >
                Choose the top 3
              </Button>
            </div>
            <ScrollTable caption="Candidate sites of the trial, ranked">
              <thead>
                <tr>
                  <Th>
                    <span className="sr-only">Chosen</span>
                  </Th>
                  {COLUMNS.map((column) => {
                    const active = sort.key === column.key;
                    return (
                      <th
                        key={column.key}
                        scope="col"
                        aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
                        className={cn('border-b border-slate-200 bg-slate-50 px-4 py-2.5 font-semibold text-slate-800', column.numeric && 'text-right')}
                      >
                        <button
                          type="button"
                          className="inline-flex items-center gap-1 font-semibold hover:underline focus-visible:outline-2 focus-visible:outline-blue-700"
                          onClick={() =>
                            setSort(
                              active
                                ? { key: column.key, direction: sort.direction === 'asc' ? 'desc' : 'asc' }
                                : { key: column.key, direction: BEST_FIRST[column.key] },
                            )
                          }
                        >
                          {column.label}
                          {active &&
                            (sort.direction === 'asc' ? (
                              <ArrowUp aria-hidden="true" className="h-3.5 w-3.5" />
                            ) : (
                              <ArrowDown aria-hidden="true" className="h-3.5 w-3.5" />
                            ))}
                          {active && <span className="sr-only">{sort.direction === 'asc' ? '(sorted ascending)' : '(sorted descending)'}</span>}
                        </button>
                      </th>
                    );
                  })}
                  <Th className="text-right">Score</Th>
                </tr>
              </thead>
              <tbody>
                {rows.map((site) => {
                  const checkboxId = `choose-${site.id}`;
                  return (
                    <tr key={site.id} data-testid="site-row">
                      <Td>
                        <input
                          id={checkboxId}
                          type="checkbox"
                          className="h-4 w-4 accent-blue-700"
                          checked={chosen.has(site.id)}
                          onChange={() => toggle(site.id)}
                          aria-describedby={`${checkboxId}-why`}
                        />
                      </Td>
                      <Td className="text-right tabular-nums">{site.rank}</Td>
                      <Td>
                        <label htmlFor={checkboxId} className="font-medium text-slate-900">
                          {site.name}
                        </label>
                        <div className="flex flex-wrap items-center gap-1 text-xs text-slate-700">
                          {siteWhere(site)}
                          {site.isOwnSite && <Badge tone="blue">Demo organization's site</Badge>}
                          {!site.started && <Badge tone="amber">Not started</Badge>}
                        </div>
                        <p id={`${checkboxId}-why`} className="mt-1 text-xs text-slate-700">
                          {site.reasons.join(' · ')}
                        </p>
                      </Td>
                      <Td className="text-right tabular-nums">{count(site.funnel.pool)}</Td>
                      <Td className="text-right tabular-nums">{decimal(site.medianDaysToBooking)}</Td>
                      <Td className="text-right tabular-nums">{decimal(site.enrollmentsPerMonth, 2)}</Td>
                      <Td className="text-right tabular-nums">{percent(site.diversityShare)}</Td>
                      <Td className="text-right font-semibold tabular-nums">{decimal(site.score)}</Td>
                    </tr>
                  );
                })}
              </tbody>
            </ScrollTable>
          </CardContent>
        </Card>
      );
    }
  }

  return (
    <SponsorDemoStep
      step="/admin/demo/sponsors/site-selection"
      title="Site selection"
      description="Pick a trial, compare its candidate sites, and choose the ones to connect."
      flow={flow}
      nextReady={Boolean(flow.trial && chosen.size > 0)}
    >
      <Card>
        <CardContent className="pt-5">{trialPicker}</CardContent>
      </Card>
      {table}
    </SponsorDemoStep>
  );
}
