import { FilterBar, optionsOf } from '../../components/filters';
import { Link } from '@tanstack/react-router';
import { History, Pause, Play, Square } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import type { Enrollment, EnrollmentStatus, TimelineEntry } from '../../../contract/sequences';
import { ConfirmDialog, Dialog } from '../../components/dialogs';
import { ErrorCard } from '../../components/ErrorCard';
import { FormError } from '../../components/FormError';
import { ActionsTh, EmptyWithAction, ListState } from '../../components/ListState';
import { OffsetPager } from '../../components/Pager';
import { SearchBox } from '../../components/SearchBox';
import { Spinner } from '../../components/Spinner';
import { Badge, Button, EmptyState, FilterSelect, Table, Td, Th } from '../../components/ui';
import { useOffsetPaging } from '../../lib/paging';
import { cn, formatDateTime } from '../../lib/utils';
import { apiProblem } from '../../lib/form-errors';
import {
  ENROLLMENT_STATUS_LABELS,
  ENROLLMENT_STATUS_LIST,
  ENROLLMENT_STATUS_TONES,
  EXIT_REASON_LABELS,
  formatNextSend,
  refusalWords,
  SOURCE_LABELS,
  STEP_TYPE_LABELS,
  stepSummary,
  TIMELINE_KIND_LABELS,
} from './format';
import { ENROLLMENTS_REFRESH_MS, useEnrollmentAction, useEnrollmentQuery, useEnrollmentsQuery } from './queries';

export const ENROLLMENTS_PAGE_SIZE = 25;

export function EnrollmentStatusBadge({ enrollment }: { enrollment: Pick<Enrollment, 'status' | 'exitReason'> }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5" data-testid="enrollment-status">
      <Badge tone={ENROLLMENT_STATUS_TONES[enrollment.status]}>{ENROLLMENT_STATUS_LABELS[enrollment.status]}</Badge>
      {enrollment.exitReason && <span className="text-xs text-slate-700">{EXIT_REASON_LABELS[enrollment.exitReason] ?? enrollment.exitReason}</span>}
    </span>
  );
}

/** "Step 2: Wait", or how it ended. */
export function currentStepText(enrollment: Pick<Enrollment, 'currentStep' | 'currentStepType' | 'status'>): string {
  if (enrollment.currentStep !== null && enrollment.currentStepType)
    return `Step ${enrollment.currentStep + 1}: ${STEP_TYPE_LABELS[enrollment.currentStepType]}`;
  return enrollment.status === 'completed' ? 'Finished' : '—';
}

const isLive = (status: EnrollmentStatus) => status === 'active' || status === 'paused';

/** Pause or resume, and stop (after a confirmation) one enrollment. Refusals show in a toast or the dialog. */
export function EnrollmentActions({
  enrollment,
  sequenceName,
  className,
}: {
  enrollment: Pick<Enrollment, 'id' | 'status' | 'candidateName'>;
  sequenceName?: string;
  className?: string;
}) {
  const action = useEnrollmentAction();
  const [stopping, setStopping] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  if (!isLive(enrollment.status)) return null;
  const who = enrollment.candidateName || 'the candidate';
  const run = (kind: 'pause' | 'resume') =>
    action.mutate(
      { enrollmentId: enrollment.id, action: kind },
      {
        onSuccess: () => toast.success(kind === 'pause' ? `Paused for ${who}` : `Resumed for ${who}`),
        onError: (error) => toast.error(apiProblem(error).message),
      },
    );
  return (
    <div className={cn('flex flex-wrap justify-end gap-1.5', className)}>
      {enrollment.status === 'active' ? (
        <Button
          variant="secondary"
          size="sm"
          disabled={action.isPending}
          onClick={() => run('pause')}
          aria-label={`Pause ${sequenceName ? `${sequenceName} ` : ''}for ${who}`}
        >
          <Pause aria-hidden="true" className="h-4 w-4" />
          Pause
        </Button>
      ) : (
        <Button
          variant="secondary"
          size="sm"
          disabled={action.isPending}
          onClick={() => run('resume')}
          aria-label={`Resume ${sequenceName ? `${sequenceName} ` : ''}for ${who}`}
        >
          <Play aria-hidden="true" className="h-4 w-4" />
          Resume
        </Button>
      )}
      <ConfirmDialog
        open={stopping}
        onOpenChange={(next) => {
          setStopping(next);
          if (next) setProblem(null);
        }}
        trigger={
          <Button
            variant="ghost"
            size="sm"
            className="text-red-800 hover:bg-red-50"
            aria-label={`Stop ${sequenceName ? `${sequenceName} ` : 'the sequence '}for ${who}`}
          >
            <Square aria-hidden="true" className="h-4 w-4" />
            Stop
          </Button>
        }
        title={`Stop ${sequenceName ? `“${sequenceName}”` : 'the sequence'} for ${who}?`}
        description="Nothing more is sent to them by this sequence. Their history is kept; you can enroll them again later."
        confirmLabel="Stop"
        pending={action.isPending}
        onConfirm={() =>
          action.mutate(
            { enrollmentId: enrollment.id, action: 'stop' },
            {
              onSuccess: () => {
                toast.success(`Stopped for ${who}`);
                setStopping(false);
              },
              onError: (error) => setProblem(apiProblem(error).message),
            },
          )
        }
      >
        <FormError>{problem}</FormError>
      </ConfirmDialog>
    </div>
  );
}

/** The details of a timeline entry worth a coordinator's eye: why, and where it was moved to. Never a message body (the server sends none). */
function EntryDetails({ entry, timeZone }: { entry: TimelineEntry; timeZone: string }) {
  const details = entry.details ?? {};
  const parts: ReactNode[] = [];
  if (typeof details.reason === 'string') parts.push(<span key="reason">Reason: {refusalWords(details.reason)}</span>);
  if (Array.isArray(details.missing) && details.missing.length)
    parts.push(<span key="missing">No value for {details.missing.map((name) => `{${String(name)}}`).join(', ')}</span>);
  if (typeof details.movedTo === 'string') parts.push(<span key="moved">To {formatNextSend(details.movedTo, timeZone)}</span>);
  if (typeof details.callId === 'string')
    parts.push(
      <Link key="call" to="/admin/calls/$callId" params={{ callId: details.callId }} className="text-blue-800 underline underline-offset-4">
        Open the call
      </Link>,
    );
  if (parts.length === 0) return null;
  return <div className="flex flex-wrap gap-x-3 text-xs text-slate-700">{parts}</div>;
}

/** One enrollment: where the candidate is in the steps, what happened when, and pause / resume / stop. Refreshes while it moves. */
export function EnrollmentTimelineDialog({ enrollmentId, onClose }: { enrollmentId: string | undefined; onClose: () => void }) {
  const query = useEnrollmentQuery(enrollmentId);
  const data = query.data;
  let body;
  if (query.isPending) body = <Spinner label="Loading the timeline" />;
  else if (query.isError) body = <ErrorCard title="Could not load this enrollment" error={query.error} onRetry={() => void query.refetch()} />;
  else if (data) {
    const { enrollment, steps, timeline } = data;
    body = (
      <div className="grid gap-4" data-testid="enrollment-timeline">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <EnrollmentStatusBadge enrollment={enrollment} />
          <EnrollmentActions enrollment={enrollment} />
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-slate-700">Candidate</dt>
          <dd>
            <Link to="/candidates/$id" params={{ id: enrollment.candidateId }} className="font-medium text-blue-800 underline-offset-4 hover:underline">
              {enrollment.candidateName}
            </Link>
          </dd>
          <dt className="text-slate-700">Version</dt>
          <dd>{enrollment.sequenceVersion}</dd>
          <dt className="text-slate-700">Source</dt>
          <dd>{SOURCE_LABELS[enrollment.source] ?? enrollment.source}</dd>
          <dt className="text-slate-700">Enrolled</dt>
          <dd>{formatDateTime(enrollment.enrolledAt)}</dd>
          {enrollment.nextRunAt && isLive(enrollment.status) && (
            <>
              <dt className="text-slate-700">Next step</dt>
              <dd data-testid="timeline-next">{formatNextSend(enrollment.nextRunAt, enrollment.timeZone)}</dd>
            </>
          )}
          {enrollment.endedAt && (
            <>
              <dt className="text-slate-700">Ended</dt>
              <dd>{formatDateTime(enrollment.endedAt)}</dd>
            </>
          )}
        </dl>
        <section aria-labelledby="timeline-steps" className="grid gap-2">
          <h3 id="timeline-steps" className="text-sm font-semibold text-slate-900">
            Steps (version {enrollment.sequenceVersion})
          </h3>
          <ol className="grid gap-1">
            {steps.map((step, index) => {
              const current = enrollment.currentStep === index && isLive(enrollment.status);
              const done = enrollment.status === 'completed' || (enrollment.currentStep !== null && index < enrollment.currentStep);
              return (
                <li
                  key={`${index}-${step.key}`}
                  aria-current={current ? 'step' : undefined}
                  className={cn(
                    'flex gap-2 rounded px-2 py-1 text-sm',
                    current ? 'bg-blue-50 font-medium text-blue-950' : done ? 'text-slate-700' : 'text-slate-900',
                  )}
                >
                  <span className="w-5 shrink-0 tabular-nums">{index + 1}.</span>
                  <span className="min-w-0 break-words">{stepSummary(step, steps)}</span>
                  {current && <span className="ml-auto shrink-0 text-xs">Now</span>}
                </li>
              );
            })}
          </ol>
        </section>
        <section aria-labelledby="timeline-events" className="grid gap-2">
          <h3 id="timeline-events" className="text-sm font-semibold text-slate-900">
            What happened
          </h3>
          {timeline.length === 0 ? (
            <p className="text-sm text-slate-700">Nothing yet.</p>
          ) : (
            <ol className="grid gap-2" aria-label="Timeline">
              {timeline.map((entry) => (
                <li key={entry.id} className="grid gap-0.5 border-l-2 border-slate-200 pl-3" data-testid="timeline-entry" data-kind={entry.kind}>
                  <div className="flex flex-wrap items-center gap-2 text-xs text-slate-700">
                    <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
                    <Badge tone={entry.kind === 'blocked' || entry.kind === 'failed' ? 'amber' : entry.kind === 'completed' ? 'green' : 'slate'}>
                      {TIMELINE_KIND_LABELS[entry.kind] ?? entry.kind}
                    </Badge>
                    {entry.stepIndex !== null && <span>Step {entry.stepIndex + 1}</span>}
                  </div>
                  <p className="text-sm text-slate-900">{entry.summary}</p>
                  <EntryDetails entry={entry} timeZone={enrollment.timeZone} />
                </li>
              ))}
            </ol>
          )}
          {enrollment.status === 'active' && <p className="text-xs text-slate-700">Refreshing every {ENROLLMENTS_REFRESH_MS / 1000} seconds.</p>}
        </section>
      </div>
    );
  }
  return (
    <Dialog
      open={Boolean(enrollmentId)}
      onOpenChange={(open) => !open && onClose()}
      title={data ? `${data.enrollment.candidateName}: timeline` : 'Enrollment timeline'}
      description="Every step taken, moved, blocked or skipped for this candidate, oldest first."
    >
      {body}
    </Dialog>
  );
}

export interface EnrollmentsSearch {
  status?: EnrollmentStatus;
  q?: string;
  page: number;
}

/** The sequence's enrollments: paged, filtered by status or name; a row's timeline opens in a dialog. */
export function EnrollmentsTab({
  sequenceId,
  search,
  onChange,
  onOpen,
}: {
  sequenceId: string;
  search: EnrollmentsSearch;
  onChange: (patch: Partial<EnrollmentsSearch>) => void;
  onOpen: (enrollmentId: string) => void;
}) {
  const paging = useOffsetPaging(ENROLLMENTS_PAGE_SIZE, { page: search.page, onPage: (page) => onChange({ page }) });
  const query = useEnrollmentsQuery(sequenceId, { status: search.status, q: search.q, limit: paging.pageSize, offset: paging.offset });
  const rows = query.data?.enrollments ?? [];
  const total = query.data?.total ?? 0;
  const filtered = Boolean(search.status || search.q);
  return (
    <div className="grid gap-3">
      <FilterBar label="Filter enrollments" className="">
        <SearchBox id="enrollment-search" placeholder="Candidate name" value={search.q} onChange={(q) => onChange({ q, page: 1 })} />
        <FilterSelect
          id="enrollment-status"
          label="Status"
          anyLabel="Any status"
          className="w-44"
          value={search.status}
          options={optionsOf(ENROLLMENT_STATUS_LIST, ENROLLMENT_STATUS_LABELS)}
          onChange={(status) => onChange({ status, page: 1 })}
        />
      </FilterBar>
      <ListState
        query={query}
        rowCount={rows.length}
        loadingLabel="Loading enrollments"
        errorTitle="Could not load enrollments"
        emptyPage={search.page > 1 && total > 0 && { title: 'No enrollments on this page', onFirstPage: () => onChange({ page: 1 }) }}
        filtered={filtered}
        empty={
          <EmptyState title="Nobody is enrolled yet">
            <p>Use “Enroll candidates” above, “Add to sequence” on the candidates list or the trial matcher, or a trigger of the sequence.</p>
          </EmptyState>
        }
        noMatch={
          <EmptyWithAction title="No enrollments match" actionLabel="Clear filters" onAction={() => onChange({ status: undefined, q: undefined, page: 1 })}>
            <p>Try another name or status.</p>
          </EmptyWithAction>
        }
        pager={<OffsetPager {...paging} shown={rows.length} total={total} busy={query.isFetching} />}
      >
        <Table caption="Enrollments">
          <thead>
            <tr>
              <Th>Candidate</Th>
              <Th>Status</Th>
              <Th>Current step</Th>
              <Th>Next send (candidate’s time)</Th>
              <Th>Source</Th>
              <Th>Enrolled</Th>
              <ActionsTh />
            </tr>
          </thead>
          <tbody>
            {rows.map((enrollment) => (
              <tr key={enrollment.id} data-testid="enrollment-row" className="hover:bg-slate-50">
                <Td className="whitespace-nowrap">
                  <Link to="/candidates/$id" params={{ id: enrollment.candidateId }} className="font-medium text-blue-800 underline-offset-4 hover:underline">
                    {enrollment.candidateName}
                  </Link>
                </Td>
                <Td>
                  <EnrollmentStatusBadge enrollment={enrollment} />
                </Td>
                <Td className="whitespace-nowrap">{currentStepText(enrollment)}</Td>
                <Td className="whitespace-nowrap">
                  <span data-testid="next-send">{isLive(enrollment.status) ? formatNextSend(enrollment.nextRunAt, enrollment.timeZone) : '—'}</span>
                </Td>
                <Td>{SOURCE_LABELS[enrollment.source] ?? enrollment.source}</Td>
                <Td className="whitespace-nowrap">{formatDateTime(enrollment.enrolledAt)}</Td>
                <Td className="whitespace-nowrap">
                  <div className="flex justify-end gap-1.5">
                    <Button variant="secondary" size="sm" onClick={() => onOpen(enrollment.id)} aria-label={`Timeline of ${enrollment.candidateName}`}>
                      <History aria-hidden="true" className="h-4 w-4" />
                      Timeline
                    </Button>
                    <EnrollmentActions enrollment={enrollment} className="flex-nowrap" />
                  </div>
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      </ListState>
    </div>
  );
}
