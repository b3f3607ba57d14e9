import { OrganizationOptions } from '../../components/OrganizationOptions';
import { ChoiceFilter, FilterBar, optionsOf } from '../../components/filters';
import { EmptyWithAction, ListState } from '../../components/ListState';
import { OffsetPager } from '../../components/Pager';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { PhoneOutgoing } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import type { ProcessingRun } from '../../../contract/processing-runs';
import { CALL_FILTERS } from '../../../contract/voice';
import { ConfirmDialog } from '../../components/dialogs';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Button, buttonClass, Card, CardContent, CardHeader, CardTitle, EmptyState, Field, PageHeader, Select, Table, Td, Th } from '../../components/ui';
import { FormError } from '../../components/FormError';
import { useActiveOrganization } from '../../lib/active-organization';
import { useOffsetPaging } from '../../lib/paging';
import { invalidateOrg } from '../../lib/query';
import { formatDateTime } from '../../lib/utils';
import { RunProgressBar, RunStatusBadge } from '../processing-runs/components';
import { isRunActive, useRunQuery } from '../processing-runs/queries';
import { useCreateTargets, useIsGlobal } from '../trials/hooks';
import { CallStatusBadge, CandidateLink, OutcomeText } from './components';
import { AGENT_TYPE_LABELS, CALL_FILTER_LABELS, callAgentName, formatCost, formatDuration } from './format';
import { useCallsQuery, useLatestPrescreenRunQuery, usePrescreenCallsConfirmation, useVoiceAgentsQuery } from './queries';

function maxConcurrentOf(run: ProcessingRun | undefined): number | undefined {
  const options = run?.options ?? {};
  const value = options.maxConcurrentCalls;
  return typeof value === 'number' && value > 0 ? value : undefined;
}

/** "Prescreen all" and its confirmation: explains what happens, then starts the bulk run (409: the server's reason). */
function PrescreenAllButton({ disabled, onStarted }: { disabled: boolean; onStarted: (run: ProcessingRun) => void }) {
  const confirmation = usePrescreenCallsConfirmation();
  const isGlobal = useIsGlobal();
  const targets = useCreateTargets();
  const { activeOrganizationId } = useActiveOrganization();
  const [target, setTarget] = useState('');
  const organizationId = isGlobal ? target : (activeOrganizationId ?? '');
  return (
    <ConfirmDialog
      open={confirmation.open}
      onOpenChange={confirmation.onOpenChange}
      trigger={
        <Button disabled={disabled}>
          <PhoneOutgoing aria-hidden="true" className="h-4 w-4" />
          {disabled ? 'Prescreen running…' : 'Prescreen all'}
        </Button>
      }
      title="Call every candidate due a prescreen?"
      description={
        <>
          The active prescreen voice agent calls every candidate due a prescreen call: new or contacted, with a phone, no prescreen result yet and no call or
          callback already open. Call consent and do-not-contact are respected; a candidate outside calling hours in their time zone gets a callback at the next
          opening instead. Only a few calls are open at once (3 unless an administrator raised the limit), so a long list takes a while: the progress shows
          here.
        </>
      }
      confirmLabel="Start calling"
      confirmDisabled={!organizationId}
      pending={confirmation.pending}
      onConfirm={() =>
        confirmation.confirm({ organizationId }, (run) => {
          toast.success('Prescreen calls started');
          onStarted(run);
        })
      }
    >
      {isGlobal && targets && (
        <Field label="Organization" hint="Whose candidates to call.">
          <Select id="prescreen-all-organization" value={target} onChange={(event) => setTarget(event.target.value)}>
            <option value="">Choose an organization</option>
            <OrganizationOptions organizations={targets} />
          </Select>
        </Field>
      )}
      <FormError>{confirmation.problem}</FormError>
    </ConfirmDialog>
  );
}

/** The bulk run's progress: polled every second until it is completed or failed. */
function PrescreenRunPanel({ runId, onDismiss }: { runId: string; onDismiss: () => void }) {
  const query = useRunQuery(runId, { limit: 1, offset: 0 });
  let body;
  if (query.isPending) body = <Spinner label="Loading the prescreen run" className="p-2" />;
  else if (query.isError) body = <ErrorCard title="Could not load the prescreen run" error={query.error} onRetry={() => void query.refetch()} />;
  else {
    const { run } = query.data;
    const active = isRunActive(run);
    const limit = maxConcurrentOf(run);
    const counts = [
      { key: 'called', label: 'Called', value: run.succeeded },
      { key: 'callbacks', label: 'Callbacks scheduled', value: run.merged },
      { key: 'skipped', label: 'Skipped', value: run.skipped },
      { key: 'failed', label: 'Failed', value: run.failed },
    ];
    body = (
      <div className="grid gap-4">
        <div className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
          <span aria-live="polite" data-testid="prescreen-run-status">
            <RunStatusBadge status={run.status} />
          </span>
          <span>
            Started {formatDateTime(run.startedAt ?? run.createdAt)}
            {run.finishedAt && ` · finished ${formatDateTime(run.finishedAt)}`}
            {active && limit ? ` · at most ${limit} calls at once` : ''}
          </span>
        </div>
        <RunProgressBar run={run} label="Prescreen calls progress" />
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="prescreen-run-counts">
          {counts.map((count) => (
            <div key={count.key} className="rounded-md border border-slate-200 bg-white px-3 py-2">
              <dt className="text-xs font-medium uppercase tracking-wide text-slate-700">{count.label}</dt>
              <dd className="text-xl font-semibold tabular-nums text-slate-900" data-testid={`prescreen-count-${count.key}`}>
                {count.value.toLocaleString('en-US')}
              </dd>
            </div>
          ))}
        </dl>
        <p className="sr-only" aria-live="polite">
          {active
            ? ''
            : `Prescreen calls ${run.status}: ${run.succeeded} called, ${run.merged} callbacks scheduled, ${run.skipped} skipped, ${run.failed} failed.`}
        </p>
        <FormError>{run.error}</FormError>
        <div className="flex flex-wrap gap-2">
          <Link to="/admin/processed-runs" search={{ id: run.id }} className={buttonClass('secondary', 'sm')}>
            Open the run<span className="sr-only"> with each candidate’s outcome</span>
          </Link>
          {!active && (
            <Button variant="ghost" size="sm" onClick={onDismiss}>
              Dismiss
            </Button>
          )}
        </div>
      </div>
    );
  }
  return (
    <Card className="mb-4" data-testid="prescreen-run">
      <CardHeader>
        <CardTitle>Prescreen all</CardTitle>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}

export const CALLS_PAGE_SIZE = 25;
export type CallFilter = (typeof CALL_FILTERS)[number];

/** /admin/calls: the organization's calls, newest first, filtered and paged by the URL (`filter`, `page` >= 1). */
export function CallsPage({ filter, page, onChange }: { filter: CallFilter; page: number; onChange: (patch: { filter?: CallFilter; page?: number }) => void }) {
  const paging = useOffsetPaging(CALLS_PAGE_SIZE, { page, onPage: (next) => onChange({ page: next }) });
  const queryClient = useQueryClient();
  // The bulk run started here, or one still going from before (a reload, another tab).
  const [startedRunId, setStartedRunId] = useState<string | null>(null);
  const [dismissedRunId, setDismissedRunId] = useState<string | null>(null);
  const latestRun = useLatestPrescreenRunQuery({ enabled: startedRunId === null });
  const ongoingRun = latestRun.data && isRunActive(latestRun.data) ? latestRun.data.id : null;
  const runId = startedRunId ?? ongoingRun;
  const shownRunId = runId && runId !== dismissedRunId ? runId : null;
  const runQuery = useRunQuery(runId ?? undefined, { limit: 1, offset: 0 });
  const runActive = Boolean(runId) && (!runQuery.data || isRunActive(runQuery.data.run)) && !runQuery.isError;
  // When the run settles, the list and callbacks are read once more.
  const wasActive = useRef(false);
  useEffect(() => {
    if (wasActive.current && !runActive) void invalidateOrg(queryClient, undefined, 'calls', 'callbacks', 'prescreen-runs');
    wasActive.current = runActive;
  }, [runActive, queryClient]);
  const query = useCallsQuery({ filter, limit: paging.pageSize, offset: paging.offset }, { refreshMs: runActive ? 2000 : false });
  const rows = query.data?.calls ?? [];
  const agentsQuery = useVoiceAgentsQuery(
    undefined,
    rows.map((call) => call.organizationId),
  );
  const total = query.data?.total ?? 0;

  const body = (
    <ListState
      query={query}
      rowCount={rows.length}
      loadingLabel="Loading calls"
      errorTitle="Could not load calls"
      emptyPage={page > 1 && total > 0 && { title: 'No calls on this page', onFirstPage: () => onChange({ page: 1 }) }}
      filtered={filter !== 'all'}
      empty={
        <EmptyState title="No calls yet">
          <p>Use “Call now” on a candidate’s page, or “Prescreen all”, to phone candidates with your prescreen voice agent.</p>
        </EmptyState>
      }
      noMatch={
        <EmptyWithAction title="No calls match" actionLabel="Show all calls" onAction={() => onChange({ filter: 'all', page: 1 })}>
          <p>No call of this kind failed.</p>
        </EmptyWithAction>
      }
      pager={<OffsetPager {...paging} shown={rows.length} total={total} busy={query.isFetching} />}
    >
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
              <Td>{callAgentName(call.voiceAgentId, agentsQuery)}</Td>
              <Td>{AGENT_TYPE_LABELS[call.type]}</Td>
              <Td className="text-right tabular-nums">{formatDuration(call.durationSeconds)}</Td>
              <Td className="text-right tabular-nums">{formatCost(call.costUsd)}</Td>
            </tr>
          ))}
        </tbody>
      </Table>
    </ListState>
  );

  return (
    <div>
      <PageHeader
        title="Calls"
        description="Phone calls with candidates: open one for its recording, transcript and extracted answers."
        actions={
          <PrescreenAllButton
            disabled={runActive}
            onStarted={(run) => {
              setStartedRunId(run.id);
              setDismissedRunId(null);
            }}
          />
        }
      />
      {shownRunId && <PrescreenRunPanel runId={shownRunId} onDismiss={() => setDismissedRunId(shownRunId)} />}
      <FilterBar label="Filter calls">
        <ChoiceFilter
          id="calls-filter"
          label="Show"
          className="w-52"
          value={filter}
          options={optionsOf(CALL_FILTERS, CALL_FILTER_LABELS)}
          onChange={(next) => onChange({ filter: next, page: 1 })}
        />
      </FilterBar>
      {body}
    </div>
  );
}
