import { FilterBar } from '../../components/filters';
import { Link } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { useMemo } from 'react';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { buttonClass, EmptyState, PageHeader, Table, Td, Th } from '../../components/ui';
import { SearchBox } from '../../components/SearchBox';
import { useActiveOrganization } from '../../lib/active-organization';
import { useAuth } from '../../lib/auth';
import { formatDateTime } from '../../lib/utils';
import { OrganizationFilter } from '../trials/OrganizationFilter';
import { useIsGlobal } from '../trials/hooks';
import { useUsersQuery } from '../users/api';
import { countsSummary, KIND_LABELS, RunProgressBar, RunStatusBadge } from './components';
import { useRunsQuery } from './queries';
import { RunDetail } from './RunDetail';

function useUserNames() {
  const { session } = useAuth();
  const users = useUsersQuery();
  return useMemo(() => {
    const names = new Map((users.data?.users ?? []).map((user) => [user.id, user.name]));
    return (userId: string | null) => {
      if (!userId) return 'System';
      if (userId === session?.user.id) return 'You';
      return names.get(userId) ?? 'Another user';
    };
  }, [users.data, session?.user.id]);
}

/**
 * Processing runs (imports, later bulk work) of the organizations in scope, newest first; with `id`, one run's
 * progress and per-row outcomes. Organization staff see their own organization's runs.
 */
export function ProcessedRunsPage({
  search,
  orgs,
  id,
  onSearchChange,
}: {
  search?: string;
  orgs?: string[];
  id?: string;
  onSearchChange: (patch: { search?: string; orgs?: string[] }) => void;
}) {
  const isGlobal = useIsGlobal();
  const { organizations } = useActiveOrganization();
  const organizationNames = useMemo(() => new Map(organizations.map((org) => [org.id, org.name])), [organizations]);
  const userName = useUserNames();
  const query = useRunsQuery({ search, orgs: isGlobal ? orgs : undefined }, { enabled: !id });

  if (id) {
    return (
      <div>
        <PageHeader
          title="Processing run"
          description="The run’s progress and what happened to each row."
          actions={
            <Link to="/admin/processed-runs" search={{ search, orgs }} className={buttonClass('secondary')}>
              <ArrowLeft aria-hidden="true" className="h-4 w-4" />
              All runs
            </Link>
          }
        />
        <RunDetail runId={id} key={id} />
      </div>
    );
  }

  let body;
  if (query.isPending) body = <Spinner label="Loading processing runs" />;
  else if (query.isError) body = <ErrorCard title="Could not load processing runs" error={query.error} onRetry={() => void query.refetch()} />;
  else if (query.data.runs.length === 0) {
    body = (
      <EmptyState title={search ? 'No runs match' : 'No processing runs yet'}>
        <p>{search ? 'Try another search.' : 'Imports of candidates show up here with their progress and per-row outcomes.'}</p>
        {!search && (
          <div className="mt-4">
            <Link to="/candidates/import" className={buttonClass('secondary')}>
              Import candidates
            </Link>
          </div>
        )}
      </EmptyState>
    );
  } else {
    const { summary } = query.data;
    body = (
      <div className="grid gap-3">
        <p className="text-sm text-slate-700">
          {summary.runs === 1 ? '1 run' : `${summary.runs} runs`} · {summary.byStatus.running + summary.byStatus.pending} in progress ·{' '}
          {summary.rows.processed.toLocaleString('en-US')} of {summary.rows.total.toLocaleString('en-US')} rows processed
        </p>
        <Table caption="Processing runs">
          <thead>
            <tr>
              <Th>Label</Th>
              <Th>Kind</Th>
              <Th>Status</Th>
              <Th>Progress</Th>
              <Th>Outcomes</Th>
              <Th>Started</Th>
              <Th>By</Th>
              {isGlobal && <Th>Organization</Th>}
            </tr>
          </thead>
          <tbody>
            {query.data.runs.map((run) => (
              <tr key={run.id}>
                <Td className="max-w-xs">
                  <Link
                    to="/admin/processed-runs"
                    search={{ search, orgs, id: run.id }}
                    className="font-medium text-blue-800 underline-offset-4 hover:underline"
                  >
                    {run.label}
                  </Link>
                </Td>
                <Td className="whitespace-nowrap">{KIND_LABELS[run.kind] ?? run.kind}</Td>
                <Td>
                  <RunStatusBadge status={run.status} />
                </Td>
                <Td>
                  <RunProgressBar run={run} label={`Progress of ${run.label}`} size="sm" />
                </Td>
                <Td className="text-sm tabular-nums">{countsSummary(run)}</Td>
                <Td className="whitespace-nowrap">{formatDateTime(run.createdAt)}</Td>
                <Td className="whitespace-nowrap">{userName(run.createdByUserId)}</Td>
                {isGlobal && <Td className="whitespace-nowrap">{organizationNames.get(run.organizationId) ?? '—'}</Td>}
              </tr>
            ))}
          </tbody>
        </Table>
      </div>
    );
  }

  return (
    <div>
      <PageHeader title="Processed runs" description="Imports and other batch work, with their progress and per-row outcomes." />
      <FilterBar label="Filter runs">
        <SearchBox id="run-search" label="Search runs" placeholder="Label or run id" value={search} onChange={(next) => onSearchChange({ search: next })} />
        {isGlobal && (
          <OrganizationFilter
            organizations={organizations.map((org) => ({ id: org.id, name: org.name }))}
            selected={orgs}
            onChange={(next) => onSearchChange({ orgs: next })}
          />
        )}
      </FilterBar>
      {body}
    </div>
  );
}
