import { shortTrialTitle } from '../../../../contract/trial-name';
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

type Sort = { key: SortKey; direction: 'asc' | 'desc' };

/** The demo organization's recruiting trials to choose from (choosing another clears the chosen sites). */
function TrialPicker({ flow, onChange }: { flow: SponsorFlow; onChange: (flow: SponsorFlow) => void }) {
  const trials = useSponsorTrials();
  const trialSelectId = useId();
  if (trials.isPending) return <Spinner label="Loading the demo trials" />;
  if (trials.isError) return <ErrorCard title="Could not load the demo trials" error={trials.error} onRetry={() => void trials.refetch()} />;
  if (trials.data.trials.length === 0) {
    return (
      <EmptyState title="The demo organization has no recruiting trial">
        <p>Create the demo data on the Demos page and come back.</p>
      </EmptyState>
    );
  }
  return (
    <div className="grid max-w-xl gap-1.5">
      <Label htmlFor={trialSelectId}>Trial</Label>
      <Select id={trialSelectId} value={flow.trial ?? ''} onChange={(event) => onChange({ trial: event.target.value || undefined, sites: undefined })}>
        <option value="">Choose a trial…</option>
        {trials.data.trials.map((trial) => (
          <option key={trial.id} value={trial.id}>
            {shortTrialTitle(trial)}
            {trial.nctId ? ` (${trial.nctId})` : ''}
          </option>
        ))}
      </Select>
    </div>
  );
}

/** A column header that sorts by its column: best first on the first click, the other way on the next. */
function SortHeader({ column, sort, onSort }: { column: (typeof COLUMNS)[number]; sort: Sort; onSort: (sort: Sort) => void }) {
  const active = sort.key === column.key;
  return (
    <th
      scope="col"
      aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
      className={cn('border-b border-slate-200 bg-slate-50 px-4 py-2.5 font-semibold text-slate-800', column.numeric && 'text-right')}
    >
      <button
        type="button"
        className="inline-flex items-center gap-1 font-semibold hover:underline focus-visible:outline-2 focus-visible:outline-blue-700"
        onClick={() =>
          onSort(active ? { key: column.key, direction: sort.direction === 'asc' ? 'desc' : 'asc' } : { key: column.key, direction: BEST_FIRST[column.key] })
        }
      >
        {column.label}
        {active &&
          (sort.direction === 'asc' ? <ArrowUp aria-hidden="true" className="h-3.5 w-3.5" /> : <ArrowDown aria-hidden="true" className="h-3.5 w-3.5" />)}
        {active && <span className="sr-only">{sort.direction === 'asc' ? '(sorted ascending)' : '(sorted descending)'}</span>}
      </button>
    </th>
  );
}

/** One ranked site: its box to choose it, where it is, why it ranks where it does, and its figures. */
function SiteRow({ site, chosen, onToggle }: { site: SponsorSite; chosen: boolean; onToggle: () => void }) {
  const checkboxId = `choose-${site.id}`;
  return (
    <tr data-testid="site-row">
      <Td>
        <input
          id={checkboxId}
          type="checkbox"
          className="h-4 w-4 accent-blue-700"
          checked={chosen}
          onChange={onToggle}
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
}

/** The trial's sites ranked, sortable by any column, with the chosen ones ticked. */
function RankedSites({ trialId, chosen, onChange }: { trialId: string; chosen: Set<string>; onChange: (flow: SponsorFlow) => void }) {
  const sites = useSponsorSites(trialId);
  const [sort, setSort] = useState<Sort>({ key: 'rank', direction: 'asc' });
  if (sites.isPending) return <Spinner label="Ranking the sites" />;
  if (sites.isError) return <ErrorCard title="Could not rank the sites" error={sites.error} onRetry={() => void sites.refetch()} />;
  if (sites.data.sites.length === 0) return <EmptyState title="This trial has no sites yet" />;
  const { ranking } = sites.data;
  const all = sites.data.sites;
  // Keep the ranking's order in the URL, whatever order they were ticked in.
  const choose = (ids: Set<string>) => onChange({ trial: trialId, sites: all.filter((site) => ids.has(site.id)).map((site) => site.id) });
  const toggle = (id: string) => {
    const next = new Set(chosen);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    choose(next);
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Candidate sites</CardTitle>
        <CardDescription>
          Ranked by a score of 100: the matching pool ({percent(ranking.pool)}: candidates near the site linked to the trial and not screened out or opted out),
          speed to a booked visit ({percent(ranking.speed)}), enrollments a month ({percent(ranking.enrollmentRate)}) and the pool's diversity (
          {percent(ranking.diversity)}: the share from under-represented groups against {percent(ranking.censusDiversityShare)} in the US census). Each is
          scored against the best site. Click a column to sort.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span aria-live="polite" data-testid="chosen-count">
            {chosen.size === 0 ? 'No site chosen yet' : `${chosen.size} of ${all.length} sites chosen`}
          </span>
          <Button variant="secondary" size="sm" onClick={() => choose(new Set(all.filter((site) => site.rank <= 3 && site.started).map((site) => site.id)))}>
            Choose the top 3
          </Button>
        </div>
        <ScrollTable caption="Candidate sites of the trial, ranked">
          <thead>
            <tr>
              <Th>
                <span className="sr-only">Chosen</span>
              </Th>
              {COLUMNS.map((column) => (
                <SortHeader key={column.key} column={column} sort={sort} onSort={setSort} />
              ))}
              <Th className="text-right">Score</Th>
            </tr>
          </thead>
          <tbody>
            {sortSites(all, sort.key, sort.direction).map((site) => (
              <SiteRow key={site.id} site={site} chosen={chosen.has(site.id)} onToggle={() => toggle(site.id)} />
            ))}
          </tbody>
        </ScrollTable>
      </CardContent>
    </Card>
  );
}

/** Step 2: pick one of the demo organization's recruiting trials, see its sites ranked, choose some. */
export function SiteSelectionPage({ flow, onChange }: { flow: SponsorFlow; onChange: (flow: SponsorFlow) => void }) {
  const chosen = new Set(flow.sites ?? []);
  return (
    <SponsorDemoStep
      step="/admin/demo/sponsors/site-selection"
      title="Site selection"
      description="Pick a trial, compare its candidate sites, and choose the ones to connect."
      flow={flow}
      nextReady={Boolean(flow.trial && chosen.size > 0)}
    >
      <Card>
        <CardContent className="pt-5">
          <TrialPicker flow={flow} onChange={onChange} />
        </CardContent>
      </Card>
      {flow.trial && <RankedSites trialId={flow.trial} chosen={chosen} onChange={onChange} />}
    </SponsorDemoStep>
  );
}
