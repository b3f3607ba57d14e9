import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Badge, buttonClass, EmptyState, PageHeader, Table, Td, Th } from '../../components/ui';
import { useActiveOrganization } from '../../lib/active-organization';
import { ApiRequestError } from '../../lib/api';
import { cn, errorMessage } from '../../lib/utils';
import { needsReviewCount, StatusBadge } from './components';
import { shortTrialTitle } from './format';
import { useTrialQuery, useTrialsQuery } from './queries';
import { useIsGlobal } from './hooks';
import { CriteriaEditor } from './CriteriaEditor';

function TrialPicker() {
  const isGlobal = useIsGlobal();
  const { organizations } = useActiveOrganization();
  const query = useTrialsQuery();
  const names = useMemo(() => new Map(organizations.map((org) => [org.id, org.name])), [organizations]);
  if (query.isPending) return <Spinner label="Loading trials" />;
  if (query.isError) return <ErrorCard title="Could not load trials" error={query.error} onRetry={() => void query.refetch()} />;
  if (query.data.trials.length === 0) {
    return (
      <EmptyState title="No trials yet">
        <p>Criteria belong to a trial. Create or import one first.</p>
        <Link to="/trials" className={cn(buttonClass('secondary'), 'mt-3')}>
          Go to trials
        </Link>
      </EmptyState>
    );
  }
  return (
    <Table caption="Choose a trial to edit its criteria">
      <thead>
        <tr>
          <Th>Trial</Th>
          <Th>Status</Th>
          <Th className="text-right">Criteria</Th>
          <Th>Needs review</Th>
          {isGlobal && <Th>Organization</Th>}
          <Th>
            <span className="sr-only">Actions</span>
          </Th>
        </tr>
      </thead>
      <tbody>
        {query.data.trials.map((trial) => {
          const review = needsReviewCount(trial.criteria);
          return (
            <tr key={trial.id}>
              <Td className="max-w-md font-medium text-slate-900" id={`picker-trial-${trial.id}`}>
                {shortTrialTitle(trial)}
                {trial.nctId && <span className="ml-2 font-mono text-xs font-normal text-slate-700">{trial.nctId}</span>}
              </Td>
              <Td>
                <StatusBadge status={trial.status} />
              </Td>
              <Td className="text-right tabular-nums">{trial.criteria.length}</Td>
              <Td>{review > 0 ? <Badge tone="amber">{review}</Badge> : <span className="text-slate-700">None</span>}</Td>
              {isGlobal && <Td>{names.get(trial.organizationId) ?? '—'}</Td>}
              <Td className="text-right">
                <Link
                  to="/admin/trial-criteria"
                  search={{ trialId: trial.id }}
                  aria-describedby={`picker-trial-${trial.id}`}
                  className={buttonClass('secondary', 'sm')}
                >
                  Edit criteria
                </Link>
              </Td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}

/** /admin/trial-criteria: a trial picker, or (with `trialId`) the criteria editor of that trial. */
export function TrialCriteriaPage({ trialId }: { trialId: string | undefined }) {
  const query = useTrialQuery(trialId);
  if (!trialId) {
    return (
      <div>
        <PageHeader title="Trial criteria" description="Choose a trial to edit, reorder, add or delete its eligibility criteria and their structured rules." />
        <TrialPicker />
      </div>
    );
  }
  let body;
  if (query.isPending) body = <Spinner label="Loading criteria" />;
  else if (query.isError) {
    const missing = query.error instanceof ApiRequestError && query.error.status === 404;
    body = (
      <div className="grid gap-3">
        <ErrorCard
          title={missing ? 'This trial does not exist' : 'Could not load this trial'}
          message={missing ? 'It may have been deleted, or it belongs to another organization.' : errorMessage(query.error)}
          onRetry={missing ? undefined : () => void query.refetch()}
        />
        <div>
          <Link to="/admin/trial-criteria" search={{}} className={buttonClass('secondary')}>
            Choose another trial
          </Link>
        </div>
      </div>
    );
  } else body = <CriteriaEditor key={query.data.id} trial={query.data} />;

  return (
    <div>
      <PageHeader
        title="Trial criteria"
        description={
          query.data ? (
            <>
              Eligibility of{' '}
              <Link to="/trials/$trialId" params={{ trialId: query.data.id }} className="font-medium text-blue-800 underline underline-offset-4">
                {shortTrialTitle(query.data)}
              </Link>
              . Save sends the whole ordered list.
            </>
          ) : undefined
        }
        actions={
          <Link to="/admin/trial-criteria" search={{}} className={buttonClass('secondary')}>
            Choose another trial
          </Link>
        }
      />
      {body}
    </div>
  );
}
