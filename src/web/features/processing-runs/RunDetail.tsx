import { useState } from 'react';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui';
import { FormError } from '../../components/FormError';
import { ApiRequestError } from '../../lib/api';
import { formatDateTime } from '../../lib/utils';
import { KIND_LABELS, RunCounts, RunItemsTable, RunProgressBar, RunStatusBadge, countsSummary } from './components';
import { isRunActive, useRunQuery, type ItemOutcome } from './queries';

const ROWS_PER_PAGE = 50;

/**
 * One run: status, a progress bar, counts and per-row outcomes (paged, filterable). Polls every second until
 * the run is completed or failed. `headingLevel` keeps the page's heading order.
 */
export function RunDetail({ runId, headingLevel = 'h2', initialOutcome }: { runId: string; headingLevel?: 'h2' | 'h3'; initialOutcome?: ItemOutcome }) {
  const [outcome, setOutcome] = useState<ItemOutcome | undefined>(initialOutcome);
  const [offset, setOffset] = useState(0);
  const query = useRunQuery(runId, { limit: ROWS_PER_PAGE, offset, outcome });

  if (query.isPending) return <Spinner label="Loading the run" />;
  if (query.isError) {
    const notFound = query.error instanceof ApiRequestError && query.error.status === 404;
    return (
      <ErrorCard
        title={notFound ? 'Processing run not found' : 'Could not load the run'}
        error={query.error}
        onRetry={notFound ? undefined : () => void query.refetch()}
      />
    );
  }
  const { run } = query.data;
  const active = isRunActive(run);
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader className="flex-row flex-wrap items-start justify-between gap-2">
          <div className="grid gap-1">
            <CardTitle as={headingLevel}>{run.label}</CardTitle>
            <p className="text-sm text-slate-700">
              {KIND_LABELS[run.kind] ?? run.kind} · started {formatDateTime(run.startedAt ?? run.createdAt)}
              {run.finishedAt && ` · finished ${formatDateTime(run.finishedAt)}`}
            </p>
          </div>
          <div aria-live="polite" data-testid="run-status">
            <RunStatusBadge status={run.status} />
          </div>
        </CardHeader>
        <CardContent className="grid gap-4">
          <RunProgressBar run={run} label={`Progress of ${run.label}`} />
          <p className="sr-only" aria-live="polite">
            {active ? '' : `Run ${run.status}: ${countsSummary(run)}.`}
          </p>
          <RunCounts run={run} />
          <FormError>{run.error}</FormError>
        </CardContent>
      </Card>
      <section aria-labelledby={`run-${run.id}-rows`} className="grid gap-3">
        {headingLevel === 'h2' ? (
          <h3 id={`run-${run.id}-rows`} className="text-lg font-semibold text-slate-900">
            Row outcomes
          </h3>
        ) : (
          <h4 id={`run-${run.id}-rows`} className="text-lg font-semibold text-slate-900">
            Row outcomes
          </h4>
        )}
        <RunItemsTable
          idPrefix={`run-${run.id}`}
          items={query.data.items}
          total={query.data.itemTotal}
          offset={offset}
          limit={ROWS_PER_PAGE}
          outcome={outcome}
          outcomes={query.data.outcomes}
          onOutcomeChange={(next) => {
            setOutcome(next);
            setOffset(0);
          }}
          onOffsetChange={setOffset}
        />
      </section>
    </div>
  );
}
