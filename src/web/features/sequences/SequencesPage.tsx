import { ChoiceFilter, FilterBar, optionsOf } from '../../components/filters';
import { Link } from '@tanstack/react-router';
import { Plus } from 'lucide-react';
import { useMemo } from 'react';
import { EmptyWithAction } from '../../components/ListState';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Badge, buttonClass, EmptyState, PageHeader, Table, Td, Th } from '../../components/ui';
import { useActiveOrganization } from '../../lib/active-organization';
import { OrganizationFilter } from '../trials/OrganizationFilter';
import { useIsGlobal } from '../trials/hooks';
import { percent, SEQUENCE_STATUS_LABELS } from './format';
import { useSequencesQuery } from './queries';

export type SequenceListFilter = 'active' | 'archived' | 'all';

export interface SequencesSearch {
  status: SequenceListFilter;
  orgs?: string[];
}

const FILTER_LABELS: Record<SequenceListFilter, string> = { active: 'Active', archived: 'Archived', all: 'All' };

function NewSequenceLink({ variant = 'primary' }: { variant?: 'primary' | 'secondary' }) {
  return (
    <Link to="/admin/sequences/new" className={buttonClass(variant)}>
      <Plus aria-hidden="true" className="h-4 w-4" />
      New sequence
    </Link>
  );
}

/**
 * /admin/sequences: the organization's outreach sequences (active by default, or archived, or all), with
 * their trial, steps, how many people are in them now and how many of them answered or booked.
 */
export function SequencesPage({ search, onChange }: { search: SequencesSearch; onChange: (patch: Partial<SequencesSearch>) => void }) {
  const isGlobal = useIsGlobal();
  const { organizations } = useActiveOrganization();
  const names = useMemo(() => new Map(organizations.map((org) => [org.id, org.name])), [organizations]);
  const orgs = isGlobal ? search.orgs : undefined;
  const query = useSequencesQuery({ status: search.status, orgs });
  const rows = query.data?.sequences ?? [];

  let body;
  if (query.isPending) body = <Spinner label="Loading sequences" />;
  else if (query.isError) body = <ErrorCard title="Could not load sequences" error={query.error} onRetry={() => void query.refetch()} />;
  else if (rows.length === 0 && search.status === 'active')
    body = (
      <EmptyState title="No active sequences">
        <p>A sequence texts, emails or calls each candidate you put in it, step by step, until they answer. Start with a text and a reminder a day later.</p>
        <div className="mt-4 flex justify-center">
          <NewSequenceLink />
        </div>
      </EmptyState>
    );
  else if (rows.length === 0)
    body = (
      <EmptyWithAction
        title={search.status === 'archived' ? 'No archived sequences' : 'No sequences yet'}
        actionLabel="Show active sequences"
        onAction={() => onChange({ status: 'active' })}
      >
        <p>{search.status === 'archived' ? 'Archived sequences are kept here with their history.' : 'Create one to start reaching candidates.'}</p>
      </EmptyWithAction>
    );
  else
    body = (
      <div className={query.isPlaceholderData ? 'opacity-60 transition-opacity' : undefined} aria-busy={query.isFetching}>
        <Table caption="Sequences">
          <thead>
            <tr>
              <Th>Name</Th>
              <Th>Trial</Th>
              <Th>Status</Th>
              <Th className="text-right">Steps</Th>
              <Th className="text-right">Active enrollments</Th>
              <Th className="text-right">Conversion</Th>
              {isGlobal && <Th>Organization</Th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((sequence) => (
              <tr key={sequence.id} data-testid="sequence-row">
                <Td>
                  <Link
                    to="/admin/sequences/$id"
                    params={{ id: sequence.id }}
                    className="font-medium text-blue-800 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-blue-700"
                  >
                    {sequence.name}
                  </Link>
                  {sequence.description && <p className="line-clamp-1 max-w-md text-xs text-slate-700">{sequence.description}</p>}
                </Td>
                <Td className="max-w-xs">{sequence.trialTitle ?? <span className="text-slate-700">Any trial</span>}</Td>
                <Td>
                  <Badge tone={sequence.status === 'active' ? 'green' : 'slate'}>{SEQUENCE_STATUS_LABELS[sequence.status]}</Badge>
                </Td>
                <Td className="text-right tabular-nums">{sequence.steps.length}</Td>
                <Td className="text-right tabular-nums">{sequence.activeEnrollments.toLocaleString('en-US')}</Td>
                <Td className="text-right tabular-nums">
                  <span title={`${sequence.totalEnrollments.toLocaleString('en-US')} enrolled in all`}>{percent(sequence.conversion)}</span>
                </Td>
                {isGlobal && <Td>{names.get(sequence.organizationId) ?? '—'}</Td>}
              </tr>
            ))}
          </tbody>
        </Table>
        <p className="mt-2 text-xs text-slate-700">Conversion: enrollments that ended with a reply or a booked visit, out of everyone ever enrolled.</p>
      </div>
    );

  const hasAny = query.isSuccess && (rows.length > 0 || search.status !== 'active');
  return (
    <div>
      <PageHeader
        title="Sequences"
        description="Timed outreach: text messages, emails and calls that go out step by step, within each candidate’s contact hours, until they reply or book."
        actions={hasAny || query.isError ? <NewSequenceLink /> : undefined}
      />
      <FilterBar label="Filter sequences">
        <ChoiceFilter
          id="sequences-status"
          label="Show"
          className="w-44"
          value={search.status}
          options={optionsOf(Object.keys(FILTER_LABELS) as SequenceListFilter[], FILTER_LABELS)}
          onChange={(status) => onChange({ status })}
        />
        {isGlobal && <OrganizationFilter organizations={organizations} selected={search.orgs} onChange={(next) => onChange({ orgs: next })} />}
      </FilterBar>
      {body}
    </div>
  );
}
