import { Link, useNavigate } from '@tanstack/react-router';
import { RefreshCw, Search } from 'lucide-react';
import { lazy, Suspense, useMemo, useState } from 'react';
import { toast } from 'sonner';
import type { MatchClass, TrialMatchOverview } from '../../../contract/matching';
import { RecordLoadError } from '../../components/ErrorCard';
import { ListState } from '../../components/ListState';
import { OffsetPager } from '../../components/Pager';
import { useOffsetPaging } from '../../lib/paging';
import { SearchBox } from '../../components/SearchBox';
import { Spinner } from '../../components/Spinner';
import { Button, buttonClass, Card, CardContent, EmptyState, FilterSelect } from '../../components/ui';
import { formatDateTime } from '../../lib/utils';
import { StatusBadge } from '../trials/components';
import { EvidenceDialog } from './EvidenceDialog';
import { MatchSelectionActions } from './MatchSelectionActions';
import { RankedCandidatesTable } from './RankedCandidatesTable';
import { NoteRereadPanel } from './NoteRereadPanel';
import { CLASS_HINTS, CLASS_LABELS } from './format';
import { MATCH_PAGE_SIZE, useMatches, useMatchOverview, useStartMatch } from './queries';

// Recharts is only needed once someone opens the gap analysis.
const GapAnalysisView = lazy(() => import('./GapAnalysisView'));

export interface TrialMatcherSearch {
  'gap-analysis'?: string;
  class?: MatchClass;
  criterion?: string;
  q?: string;
  page?: number;
  candidate?: string;
}

const CLASSES: MatchClass[] = ['likely', 'possible', 'excluded'];

function RunStatus({ overview, trialId }: { overview: TrialMatchOverview; trialId: string }) {
  const start = useStartMatch(trialId);
  const run = overview.latestRun;
  const going = run?.status === 'pending' || run?.status === 'running';
  const begin = () => start.mutate(undefined, { onSuccess: () => toast.success('Matching started') });
  if (going && run) {
    const percentDone = Math.round(run.progress * 100);
    return (
      <Card>
        <CardContent className="grid gap-2 pt-5">
          <p className="text-sm font-medium text-slate-900" id="match-progress-label">
            Matching {run.total.toLocaleString('en-US')} candidates… {run.processed.toLocaleString('en-US')} done
          </p>
          <div
            role="progressbar"
            aria-labelledby="match-progress-label"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percentDone}
            className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
          >
            <div className="h-full bg-blue-700 transition-all" style={{ width: `${percentDone}%` }} />
          </div>
        </CardContent>
      </Card>
    );
  }
  if (!overview.resultsRun) {
    return (
      <EmptyState title="No matches yet">
        <p>Match every candidate of the organization against this trial’s criteria: who likely fits, who might, and what excludes the rest.</p>
        {run?.status === 'failed' && <p className="mt-2 text-amber-900">The last run stopped: {run.error ?? 'unknown error'}.</p>}
        <Button className="mt-4" onClick={begin} disabled={start.isPending}>
          <Search aria-hidden="true" className="h-4 w-4" />
          {start.isPending ? 'Starting…' : 'Find matching candidates'}
        </Button>
      </EmptyState>
    );
  }
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 bg-white px-4 py-3">
      <p className="text-sm text-slate-800">
        Matched {overview.resultsRun.finishedAt ? formatDateTime(overview.resultsRun.finishedAt) : ''}
        {overview.stale && <span className="ml-2 font-medium text-amber-900">Criteria or candidates changed since: match again to update.</span>}
      </p>
      <Button variant={overview.stale ? 'primary' : 'secondary'} size="sm" onClick={begin} disabled={start.isPending}>
        <RefreshCw aria-hidden="true" className="h-4 w-4" />
        {start.isPending ? 'Starting…' : 'Match again'}
      </Button>
    </div>
  );
}

function ClassTiles({
  overview,
  selected,
  onSelect,
}: {
  overview: TrialMatchOverview;
  selected: MatchClass | undefined;
  onSelect: (value: MatchClass | undefined) => void;
}) {
  const target = overview.trial.targetEnrollment;
  return (
    <div className="grid gap-3 sm:grid-cols-3" role="group" aria-label="Filter by match">
      {CLASSES.map((matchClass) => (
        <button
          key={matchClass}
          type="button"
          aria-pressed={selected === matchClass}
          onClick={() => onSelect(selected === matchClass ? undefined : matchClass)}
          className={`rounded-lg border bg-white p-4 text-left focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 ${selected === matchClass ? 'border-blue-700 ring-1 ring-blue-700' : 'border-slate-200 hover:border-slate-400'}`}
        >
          <span className="block text-sm font-medium text-slate-800">{CLASS_LABELS[matchClass]}</span>
          <span className="block text-2xl font-semibold text-slate-900">{overview.counts[matchClass].toLocaleString('en-US')}</span>
          <span className="block text-xs text-slate-700">{CLASS_HINTS[matchClass]}</span>
          {matchClass === 'likely' && target ? (
            <span className="mt-1 block text-xs text-slate-700">Target enrollment: {target.toLocaleString('en-US')}</span>
          ) : null}
        </button>
      ))}
    </div>
  );
}

function MatchTable({
  trialId,
  overview,
  search,
  setSearch,
}: {
  trialId: string;
  overview: TrialMatchOverview;
  search: TrialMatcherSearch;
  setSearch: (next: Partial<TrialMatcherSearch>) => void;
}) {
  const paging = useOffsetPaging(MATCH_PAGE_SIZE, { page: search.page ?? 1, onPage: (page) => setSearch({ page }) });
  const { offset } = paging;
  const query = useMatches(trialId, { matchClass: search.class, criterionId: search.criterion, q: search.q, offset });
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const criteriaById = useMemo(() => new Map(overview.criteria.map((criterion) => [criterion.id, criterion])), [overview.criteria]);
  const rows = query.data?.matches ?? [];
  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  return (
    <section aria-labelledby="matches-heading" className="grid gap-3">
      <h2 id="matches-heading" className="sr-only">
        Ranked candidates
      </h2>
      <div className="flex flex-wrap items-end gap-3">
        <div className="grid gap-1.5">
          <label htmlFor="match-search" className="text-sm font-medium text-slate-900">
            Search by name
          </label>
          <SearchBox id="match-search" value={search.q} onChange={(q) => setSearch({ q, page: undefined })} placeholder="Name" />
        </div>
        <FilterSelect
          id="match-criterion"
          label="Criterion"
          anyLabel="Any criterion"
          value={search.criterion}
          className="max-w-md"
          options={overview.criteria.map((criterion) => ({
            value: criterion.id,
            label: `${criterion.kind === 'inclusion' ? 'Inclusion' : 'Exclusion'}: ${criterion.text.slice(0, 90)}`,
          }))}
          onChange={(criterion) => setSearch({ criterion, page: undefined })}
        />
        {(search.q || search.criterion || search.class) && (
          <Button variant="ghost" onClick={() => setSearch({ q: undefined, criterion: undefined, class: undefined, page: undefined })}>
            Clear filters
          </Button>
        )}
      </div>
      <MatchSelectionActions trialId={trialId} organizationId={overview.trial.organizationId} selected={selected} onClear={() => setSelected(new Set())} />
      <ListState
        query={query}
        rowCount={rows.length}
        loadingLabel="Loading matches"
        errorTitle="Could not load the matches"
        emptyPage={offset > 0 && (query.data?.total ?? 0) > 0 && { title: 'No candidates on this page', onFirstPage: () => setSearch({ page: undefined }) }}
        filtered={Boolean(search.q || search.criterion || search.class)}
        empty={<EmptyState title="No candidates here">The organization has no candidates yet.</EmptyState>}
        noMatch={<EmptyState title="No candidates here">Nobody matches these filters. Clear them to see everyone.</EmptyState>}
        pager={<OffsetPager {...paging} shown={rows.length} total={query.data?.total ?? 0} busy={query.isFetching} />}
      >
        <RankedCandidatesTable rows={rows} criteriaById={criteriaById} selected={selected} toggle={toggle} onOpen={(candidate) => setSearch({ candidate })} />
      </ListState>
    </section>
  );
}

export function TrialMatcherPage({ trialId, search }: { trialId: string; search: TrialMatcherSearch }) {
  const navigate = useNavigate();
  const overview = useMatchOverview(trialId);
  const setSearch = (next: Partial<TrialMatcherSearch>) =>
    void navigate({ to: '/trial-matcher/$id', params: { id: trialId }, search: (previous: TrialMatcherSearch) => ({ ...previous, ...next }), replace: true });
  const showGaps = search['gap-analysis'] !== undefined;

  if (overview.isPending) return <Spinner label="Loading trial matching" />;
  if (overview.isError) {
    return (
      <RecordLoadError
        error={overview.error}
        heading="Trial matching"
        missing={{ heading: 'Trial not found', title: 'This trial does not exist' }}
        missingMessage="It may have been deleted, or it belongs to another organization."
        failed="Could not load trial matching"
        onRetry={() => void overview.refetch()}
        back={
          <Link to="/trials" className={buttonClass('secondary')}>
            Back to trials
          </Link>
        }
      />
    );
  }
  const data = overview.data;
  const ruleless = data.criteria.filter((criterion) => !criterion.hasRule).length;
  return (
    <div className="grid gap-5">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 max-w-3xl">
          <div className="mb-1">
            <StatusBadge status={data.trial.status as never} />
          </div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Trial matching: {data.trial.title}</h1>
          <p className="mt-1 text-sm text-slate-700">
            Every candidate of the organization against the trial’s {data.criteria.length} criteria.
            {ruleless > 0 && ` ${ruleless} ${ruleless === 1 ? 'has' : 'have'} no machine rule yet and ${ruleless === 1 ? 'is' : 'are'} left to the prescreen.`}
          </p>
        </div>
        <Link to="/trials/$trialId" params={{ trialId }} className={buttonClass('secondary')}>
          Back to the trial
        </Link>
      </div>
      <RunStatus overview={data} trialId={trialId} />
      <NoteRereadPanel />
      {data.resultsRun && (
        <>
          <ClassTiles
            overview={data}
            selected={search.class}
            onSelect={(matchClass) => setSearch({ class: matchClass, page: undefined, 'gap-analysis': undefined })}
          />
          <div role="tablist" aria-label="View" className="flex gap-1 border-b border-slate-200">
            <button role="tab" type="button" aria-selected={!showGaps} className={tabClass(!showGaps)} onClick={() => setSearch({ 'gap-analysis': undefined })}>
              Ranked candidates
            </button>
            <button role="tab" type="button" aria-selected={showGaps} className={tabClass(showGaps)} onClick={() => setSearch({ 'gap-analysis': trialId })}>
              Gap analysis
            </button>
          </div>
          {showGaps ? (
            <Suspense fallback={<Spinner label="Loading gap analysis" />}>
              <GapAnalysisView
                trialId={trialId}
                onShowCriterion={(criterion, matchClass) => setSearch({ 'gap-analysis': undefined, criterion, class: matchClass, page: undefined })}
              />
            </Suspense>
          ) : (
            <MatchTable trialId={trialId} overview={data} search={search} setSearch={setSearch} />
          )}
        </>
      )}
      <EvidenceDialog
        trialId={trialId}
        candidateId={search.candidate}
        llmJudge={overview.data?.llmJudge ?? false}
        onClose={() => setSearch({ candidate: undefined })}
      />
    </div>
  );
}

const tabClass = (active: boolean) =>
  `-mb-px border-b-2 px-4 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-blue-700 ${active ? 'border-blue-700 text-blue-900' : 'border-transparent text-slate-700 hover:text-slate-900'}`;
