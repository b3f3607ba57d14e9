import { Pager } from '../../components/Pager';
import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import { CALL_FILTERS } from '../../../contract/voice';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Button, EmptyState, Label, PageHeader, Select, Table, Td, Th } from '../../components/ui';
import { formatDateTime } from '../../lib/utils';
import { CallStatusBadge, CandidateLink, OutcomeText } from './components';
import { AGENT_TYPE_LABELS, CALL_FILTER_LABELS, formatCost, formatDuration } from './format';
import { useCallsQuery, useVoiceAgentsQuery } from './queries';

export const CALLS_PAGE_SIZE = 25;
export type CallFilter = (typeof CALL_FILTERS)[number];

/** /admin/calls: the organization's calls, newest first, filtered and paged by the URL (`filter`, `page` >= 1). */
export function CallsPage({ filter, page, onChange }: { filter: CallFilter; page: number; onChange: (patch: { filter?: CallFilter; page?: number }) => void }) {
  const offset = (page - 1) * CALLS_PAGE_SIZE;
  const query = useCallsQuery({ filter, limit: CALLS_PAGE_SIZE, offset });
  const agentsQuery = useVoiceAgentsQuery();
  const agentNames = useMemo(() => new Map((agentsQuery.data?.voiceAgents ?? []).map((agent) => [agent.id, agent.name])), [agentsQuery.data]);
  const rows = query.data?.calls ?? [];
  const total = query.data?.total ?? 0;

  let body;
  if (query.isPending) body = <Spinner label="Loading calls" />;
  else if (query.isError) body = <ErrorCard title="Could not load calls" error={query.error} onRetry={() => void query.refetch()} />;
  else if (rows.length === 0 && page > 1 && total > 0) {
    body = (
      <EmptyState title="No calls on this page">
        <div className="mt-3">
          <Button variant="secondary" onClick={() => onChange({ page: 1 })}>
            Go to the first page
          </Button>
        </div>
      </EmptyState>
    );
  } else if (rows.length === 0) {
    body = (
      <EmptyState title={filter === 'all' ? 'No calls yet' : 'No calls match'}>
        <p>{filter === 'all' ? 'Use “Call now” on a candidate’s page to phone them with your prescreen voice agent.' : 'No call of this kind failed.'}</p>
        {filter !== 'all' && (
          <div className="mt-3">
            <Button variant="secondary" onClick={() => onChange({ filter: 'all', page: 1 })}>
              Show all calls
            </Button>
          </div>
        )}
      </EmptyState>
    );
  } else {
    body = (
      <div className="grid grid-cols-1 gap-3">
        <div className={query.isPlaceholderData ? 'opacity-60 transition-opacity' : undefined} aria-busy={query.isFetching}>
          <Table caption="Calls">
            <thead>
              <tr>
                <Th>Created</Th>
                <Th>Status</Th>
                <Th>Outcome</Th>
                <Th>Candidate</Th>
                <Th>Agent</Th>
                <Th>Type</Th>
                <Th className="text-right">Duration</Th>
                <Th className="text-right">Cost</Th>
              </tr>
            </thead>
            <tbody>
              {rows.map((call) => (
                <tr key={call.id}>
                  <Td className="whitespace-nowrap">
                    <Link to="/admin/calls/$callId" params={{ callId: call.id }} className="font-medium text-blue-800 underline-offset-4 hover:underline">
                      {formatDateTime(call.createdAt)}
                      <span className="sr-only"> (open the call)</span>
                    </Link>
                  </Td>
                  <Td>
                    <CallStatusBadge status={call.status} />
                  </Td>
                  <Td>
                    <OutcomeText outcome={call.outcome} />
                  </Td>
                  <Td className="whitespace-nowrap">
                    <CandidateLink candidateId={call.candidateId} />
                  </Td>
                  <Td>{call.voiceAgentId ? (agentNames.get(call.voiceAgentId) ?? 'Deleted agent') : '—'}</Td>
                  <Td>{AGENT_TYPE_LABELS[call.type]}</Td>
                  <Td className="text-right tabular-nums">{formatDuration(call.durationSeconds)}</Td>
                  <Td className="text-right tabular-nums">{formatCost(call.costUsd)}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
        <Pager
          first={offset + 1}
          last={offset + rows.length}
          total={total}
          canPrevious={page > 1}
          canNext={offset + rows.length < total}
          onPrevious={() => onChange({ page: page - 1 })}
          onNext={() => onChange({ page: page + 1 })}
          busy={query.isFetching}
        />
      </div>
    );
  }

  return (
    <div>
      <PageHeader title="Calls" description="Phone calls with candidates: open one for its recording, transcript and extracted answers." />
      <div className="mb-4 flex flex-wrap items-end gap-3" role="search" aria-label="Filter calls">
        <div className="grid gap-1.5">
          <Label htmlFor="calls-filter">Show</Label>
          <Select id="calls-filter" className="w-52" value={filter} onChange={(event) => onChange({ filter: event.target.value as CallFilter, page: 1 })}>
            {CALL_FILTERS.map((value) => (
              <option key={value} value={value}>
                {CALL_FILTER_LABELS[value]}
              </option>
            ))}
          </Select>
        </div>
      </div>
      {body}
    </div>
  );
}
