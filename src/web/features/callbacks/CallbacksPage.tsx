import { FilterBar } from '../../components/filters';
import { ViewSwitch } from '../../components/TabList';
import { Link } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { CALLBACK_STATUSES, type Callback, type CallbackStatus } from '../../../contract/callbacks';
import { CALL_FILTERS } from '../../../contract/voice';
import { EmptyWithAction, ListState } from '../../components/ListState';
import { OffsetPager } from '../../components/Pager';
import { EmptyState, FilterSelect, PageHeader } from '../../components/ui';
import { useActiveOrganization } from '../../lib/active-organization';
import { useOffsetPaging } from '../../lib/paging';
import { OrganizationFilter } from '../trials/OrganizationFilter';
import { useIsGlobal } from '../trials/hooks';
import { CancelCallbackDialog } from './components';
import { CallbacksTable } from './CallbacksTable';
import { ScheduleCallbackDialog } from './dialogs';
import { CALLBACK_FILTER_LABELS, CALLBACK_STATUS_LABELS, isOpenCallback } from './format';
import { CALLBACKS_REFRESH_MS, useCallbacksQuery, type CallbackFilter } from './queries';

// The reschedule form (react-hook-form, zod) loads when a coordinator opens it, not with the list.

export const CALLBACKS_PAGE_SIZE = 50;

export interface CallbacksSearch {
  filter: CallbackFilter;
  page: number;
  status?: CallbackStatus;
  orgs?: string[];
}

const FILTER_HINTS: Record<CallbackFilter, string> = {
  all: 'Every callback',
  failedPrescreen: 'Prescreen callbacks that failed or follow a missed call',
  failedScheduling: 'Scheduling callbacks that failed or follow a missed call',
};

/**
 * /admin/callbacks: calls owed to candidates. The tab (`filter`), status, organizations and page live in the
 * URL; the list refreshes every 15 s while a callback is waiting or being placed.
 */
export function CallbacksPage({ search, onChange }: { search: CallbacksSearch; onChange: (patch: Partial<CallbacksSearch>) => void }) {
  const isGlobal = useIsGlobal();
  const { organizations } = useActiveOrganization();
  const names = useMemo(() => new Map(organizations.map((org) => [org.id, org.name])), [organizations]);
  const orgs = isGlobal ? search.orgs : undefined;
  const { filter, page, status } = search;
  const paging = useOffsetPaging(CALLBACKS_PAGE_SIZE, { page, onPage: (next) => onChange({ page: next }) });
  const query = useCallbacksQuery({ filter, status, orgs, limit: paging.pageSize, offset: paging.offset });
  const rows = query.data?.callbacks ?? [];
  const total = query.data?.total ?? 0;
  const counts = query.data?.counts;
  const refreshing = Boolean(counts && counts.pending + counts.calling > 0) || rows.some((row) => isOpenCallback(row.status));
  const [rescheduling, setRescheduling] = useState<Callback | null>(null);
  const [cancelling, setCancelling] = useState<Callback | null>(null);

  const body = (
    <ListState
      query={query}
      rowCount={rows.length}
      loadingLabel="Loading callbacks"
      errorTitle="Could not load callbacks"
      emptyPage={page > 1 && total > 0 && { title: 'No callbacks on this page', onFirstPage: () => onChange({ page: 1 }) }}
      filtered={filter !== 'all' || Boolean(status)}
      empty={
        <EmptyState title="No callbacks yet">
          <p>
            Schedule one from a candidate’s page. A missed call, a candidate asking to be called later, or a bulk prescreen outside calling hours also adds one.
          </p>
          <Link to="/candidates" className="mt-3 inline-block text-sm font-medium text-blue-800 underline underline-offset-4">
            Go to candidates
          </Link>
        </EmptyState>
      }
      noMatch={
        <EmptyWithAction title="No callbacks match" actionLabel="Show all callbacks" onAction={() => onChange({ filter: 'all', status: undefined, page: 1 })}>
          <p>
            {status ? `No ${CALLBACK_STATUS_LABELS[status].toLowerCase()} callbacks` : 'No callbacks'}
            {filter === 'all' ? '' : ` among ${CALLBACK_FILTER_LABELS[filter].toLowerCase()}`}.
          </p>
        </EmptyWithAction>
      }
      pager={<OffsetPager {...paging} shown={rows.length} total={total} busy={query.isFetching} />}
    >
      <CallbacksTable rows={rows} isGlobal={isGlobal} organizationNames={names} onReschedule={setRescheduling} onCancel={setCancelling} />
    </ListState>
  );

  return (
    <div>
      <PageHeader
        title="Callbacks"
        description="Calls owed to candidates: placed by the voice agent at the scheduled time, within calling hours, up to three attempts each."
      />
      <ViewSwitch
        label="Callback kinds"
        views={CALL_FILTERS}
        labels={CALLBACK_FILTER_LABELS}
        hints={FILTER_HINTS}
        current={filter}
        onSelect={(next) => onChange({ filter: next, page: 1 })}
      />
      <FilterBar label="Filter callbacks">
        <FilterSelect
          id="callbacks-status"
          label="Status"
          anyLabel="Any status"
          className="w-52"
          value={status}
          options={CALLBACK_STATUSES.map((value) => ({
            value,
            label: `${CALLBACK_STATUS_LABELS[value]}${counts ? ` (${(counts[value] ?? 0).toLocaleString('en-US')})` : ''}`,
          }))}
          onChange={(next) => onChange({ status: next, page: 1 })}
        />
        {isGlobal && <OrganizationFilter organizations={organizations} selected={search.orgs} onChange={(next) => onChange({ orgs: next, page: 1 })} />}
        {refreshing && <p className="pb-2 text-sm text-slate-700">Refreshing every {CALLBACKS_REFRESH_MS / 1000} seconds while callbacks are waiting.</p>}
      </FilterBar>
      {body}
      {rescheduling && (
        <ScheduleCallbackDialog
          key={rescheduling.id}
          open
          onOpenChange={(open) => !open && setRescheduling(null)}
          candidateId={rescheduling.candidateId}
          candidateName={rescheduling.candidateName}
          organizationId={rescheduling.organizationId}
          timeZone={rescheduling.timeZone}
          callback={rescheduling}
          defaultType={rescheduling.type}
        />
      )}
      {cancelling && <CancelCallbackDialog key={cancelling.id} callback={cancelling} open onOpenChange={(open) => !open && setCancelling(null)} />}
    </div>
  );
}
