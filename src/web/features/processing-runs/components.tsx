import { Link } from '@tanstack/react-router';
import type { ImportField } from '../../../contract/candidates';
import type { ProcessingRun } from '../../../contract/processing-runs';
import { Badge, Button, FilterSelect, Table, Td, Th } from '../../components/ui';
import { cn } from '../../lib/utils';
import { IMPORT_FIELD_LABELS } from '../candidates/import-fields';
import type { ItemOutcome, RunItem } from './queries';

export const RUN_STATUS_LABELS: Record<ProcessingRun['status'], string> = {
  pending: 'Pending',
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
};
const RUN_STATUS_TONES: Record<ProcessingRun['status'], 'slate' | 'blue' | 'green' | 'amber'> = {
  pending: 'slate',
  running: 'blue',
  completed: 'green',
  failed: 'amber',
  cancelled: 'slate',
};
export const OUTCOME_LABELS: Record<ItemOutcome, string> = {
  pending: 'Pending',
  created: 'Created',
  merged: 'Merged',
  skipped: 'Skipped',
  invalid: 'Invalid',
  failed: 'Failed',
  called: 'Called',
  deferred: 'Callback scheduled',
};
const OUTCOME_TONES: Record<ItemOutcome, 'slate' | 'blue' | 'green' | 'amber'> = {
  pending: 'slate',
  created: 'green',
  merged: 'blue',
  skipped: 'slate',
  invalid: 'amber',
  failed: 'amber',
  called: 'green',
  deferred: 'blue',
};
export const KIND_LABELS: Record<string, string> = {
  candidate_import: 'Candidate import',
  prescreen_calls: 'Prescreen calls',
  trial_match: 'Trial matching',
  sequence_enrollment: 'Sequence enrollment',
  note_reread: 'Re-reading clinical notes',
  demo_reset: 'Demo data reset',
};

type Counter = 'succeeded' | 'merged' | 'skipped' | 'failed';
/** What each counter means for a kind of run: imports create and merge candidates; bulk calls call and defer. */
const COUNTER_LABELS: Record<string, Record<Counter, string>> = {
  candidate_import: { succeeded: 'Created', merged: 'Merged', skipped: 'Skipped', failed: 'Invalid' },
  prescreen_calls: { succeeded: 'Called', merged: 'Callbacks scheduled', skipped: 'Skipped', failed: 'Failed' },
  sequence_enrollment: { succeeded: 'Enrolled', merged: 'Merged', skipped: 'Already enrolled or gone', failed: 'Refused' },
  note_reread: { succeeded: 'Notes read', merged: 'Merged', skipped: 'Skipped', failed: 'Failed' },
  demo_reset: { succeeded: 'Done', merged: 'Merged', skipped: 'Skipped', failed: 'Failed' },
};
export const counterLabels = (kind: string) => COUNTER_LABELS[kind] ?? COUNTER_LABELS.candidate_import;

/** "3 created, 1 merged, 0 skipped, 2 invalid" in the run kind's own words. */
export const countsSummary = (run: ProcessingRun) => {
  const labels = counterLabels(run.kind);
  return (['succeeded', 'merged', 'skipped', 'failed'] as const).map((key) => `${run[key].toLocaleString('en-US')} ${labels[key].toLowerCase()}`).join(', ');
};

export function RunStatusBadge({ status }: { status: ProcessingRun['status'] }) {
  return <Badge tone={RUN_STATUS_TONES[status]}>{RUN_STATUS_LABELS[status]}</Badge>;
}
export function OutcomeBadge({ outcome }: { outcome: ItemOutcome }) {
  return <Badge tone={OUTCOME_TONES[outcome]}>{OUTCOME_LABELS[outcome]}</Badge>;
}

/** A labelled progress bar: processed of total rows. */
export function RunProgressBar({ run, label, size = 'md' }: { run: ProcessingRun; label: string; size?: 'sm' | 'md' }) {
  const total = Math.max(run.total, 0);
  const processed = Math.min(run.processed, total);
  const percent = total === 0 ? (run.status === 'completed' ? 100 : 0) : Math.round((processed / total) * 100);
  return (
    <div className={cn('flex items-center gap-2', size === 'sm' ? 'min-w-[9rem]' : 'w-full')}>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={processed}
        aria-valuetext={`${processed.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} rows (${percent}%)`}
        className={cn('shrink-0 overflow-hidden rounded-full bg-slate-200', size === 'sm' ? 'h-2 w-20' : 'h-3 flex-1')}
      >
        <div
          className={cn(
            'h-full rounded-full transition-[width] duration-500',
            run.status === 'failed' ? 'bg-red-700' : run.status === 'completed' ? 'bg-green-700' : 'bg-blue-700',
          )}
          style={{ width: `${percent}%` }}
        />
      </div>
      <span className="whitespace-nowrap text-sm tabular-nums text-slate-800">
        {size === 'sm' ? `${percent}%` : `${processed.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} (${percent}%)`}
      </span>
    </div>
  );
}

/** The run's four counters, named for its kind. */
export function RunCounts({ run }: { run: ProcessingRun }) {
  const labels = counterLabels(run.kind);
  const counts = (['succeeded', 'merged', 'skipped', 'failed'] as const).map((key) => ({ key, label: labels[key], value: run[key] }));
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="run-counts">
      {counts.map((count) => (
        <div key={count.key} className="rounded-md border border-slate-200 bg-white px-3 py-2">
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-700">{count.label}</dt>
          <dd className="text-xl font-semibold tabular-nums text-slate-900" data-testid={`count-${count.label.toLowerCase().replace(/\s+/g, '-')}`}>
            {count.value.toLocaleString('en-US')}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Per-row outcomes: row number, outcome, errors; with an outcome filter and offset paging. */
export function RunItemsTable({
  items,
  total,
  offset,
  limit,
  outcome,
  outcomes,
  onOutcomeChange,
  onOffsetChange,
  idPrefix,
}: {
  items: RunItem[];
  total: number;
  offset: number;
  limit: number;
  outcome: ItemOutcome | undefined;
  outcomes: Record<string, number>;
  onOutcomeChange: (outcome: ItemOutcome | undefined) => void;
  onOffsetChange: (offset: number) => void;
  idPrefix: string;
}) {
  const filterId = `${idPrefix}-outcome-filter`;
  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-end gap-3">
        <FilterSelect
          id={filterId}
          label="Show rows"
          anyLabel="All outcomes"
          className="w-48"
          value={outcome}
          options={(Object.keys(OUTCOME_LABELS) as ItemOutcome[]).map((value) => ({
            value,
            label: `${OUTCOME_LABELS[value]} (${(outcomes[value] ?? 0).toLocaleString('en-US')})`,
          }))}
          onChange={onOutcomeChange}
        />
      </div>
      {items.length === 0 ? (
        <p className="text-sm text-slate-700">No rows{outcome ? ` with outcome ${OUTCOME_LABELS[outcome].toLowerCase()}` : ''}.</p>
      ) : (
        <Table caption="Row outcomes">
          <thead>
            <tr>
              <Th className="w-24">Row</Th>
              <Th className="w-32">Outcome</Th>
              <Th>Details</Th>
              <Th className="w-40">Candidate</Th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.rowNumber} data-testid={`row-outcome-${item.rowNumber}`}>
                <Td className="tabular-nums">{item.rowNumber}</Td>
                <Td>
                  <OutcomeBadge outcome={item.outcome} />
                </Td>
                <Td className={item.outcome === 'invalid' || item.outcome === 'failed' ? 'text-red-800' : undefined}>
                  {item.errors.length === 0 ? (
                    <span className="text-slate-700">—</span>
                  ) : (
                    <ul className="grid gap-0.5">
                      {item.errors.map((error, index) => (
                        <li key={index} className="text-sm">
                          <span className="font-medium">{IMPORT_FIELD_LABELS[error.field as ImportField] ?? error.field}</span>: {error.message}
                        </li>
                      ))}
                    </ul>
                  )}
                </Td>
                <Td>
                  {item.candidateId ? (
                    <Link to="/candidates/$id" params={{ id: item.candidateId }} className="text-blue-800 underline-offset-4 hover:underline">
                      {item.candidateName ?? 'Open'}
                      <span className="sr-only"> (candidate of row {item.rowNumber})</span>
                    </Link>
                  ) : (
                    '—'
                  )}
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {total > limit && (
        <nav aria-label="Row pages" className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm text-slate-700">
            Rows {(offset + 1).toLocaleString('en-US')}–{Math.min(offset + limit, total).toLocaleString('en-US')} of {total.toLocaleString('en-US')}
          </p>
          <div className="flex gap-2">
            <Button size="sm" variant="secondary" disabled={offset === 0} onClick={() => onOffsetChange(Math.max(0, offset - limit))}>
              Previous
            </Button>
            <Button size="sm" variant="secondary" disabled={offset + limit >= total} onClick={() => onOffsetChange(offset + limit)}>
              Next
            </Button>
          </div>
        </nav>
      )}
    </div>
  );
}
