import { createContext, useContext, useState, type ReactNode } from 'react';
import { ErrorCard } from '../../components/ErrorCard';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, EmptyState, Td, Th } from '../../components/ui';
import { countWords } from '../../lib/counts';
import { calendarDateInWords } from '../../lib/date-words';
import { cn } from '../../lib/utils';

/** Shared pieces of the dashboard's tabs: KPI cards, a chart with its table, skeletons, states. No recharts here. */

// A whole number without locale data (countWords: the same text, decision 233); fractions still through Intl.
export const number = (value: number | null | undefined, digits = 0) =>
  value === null || value === undefined
    ? '—'
    : Number.isSafeInteger(value)
      ? countWords(value)
      : value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
export const usd = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : value.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
export const pct = (value: number | null | undefined) => (value === null || value === undefined ? '—' : `${number(value, 1)}%`);
export const ratioPct = (value: number | null | undefined) => (value === null || value === undefined ? '—' : pct(Math.round(value * 1000) / 10));

export const CHART_COLORS = ['#1d4ed8', '#0f766e', '#b45309', '#7c3aed', '#be123c', '#15803d', '#475569'];

export function KpiCards({ items }: { items: Array<{ label: string; value: string; hint?: string }> }) {
  return (
    <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" data-testid="kpis">
      {items.map((item) => (
        <Card key={item.label} className="p-4">
          <dt className="text-sm text-slate-700">{item.label}</dt>
          <dd className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">{item.value}</dd>
          {item.hint && <dd className="mt-0.5 text-xs text-slate-700">{item.hint}</dd>}
        </Card>
      ))}
    </dl>
  );
}

export interface Column<Row> {
  label: string;
  value: (row: Row) => ReactNode;
  numeric?: boolean;
}

/** Whether the table is the visually hidden twin of a chart (then it needs no scrolling region). */
const TableHidden = createContext(false);

/**
 * A table of numbers. Visible, it scrolls sideways in a focusable region (wide tables stay keyboard
 * reachable); as a chart's hidden twin it is plain.
 */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
}: {
  caption: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row, index: number) => string;
}) {
  const hidden = useContext(TableHidden);
  const table = (
    <table className="w-full border-collapse text-left text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <Th key={column.label} className={column.numeric ? 'text-right' : undefined}>
              {column.label}
            </Th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, index) => (
          <tr key={rowKey(row, index)}>
            {columns.map((column) => (
              <Td key={column.label} className={column.numeric ? 'text-right tabular-nums' : undefined}>
                {column.value(row)}
              </Td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
  if (hidden) return table;
  return (
    <div
      role="region"
      aria-label={caption}
      tabIndex={0}
      className="overflow-x-auto rounded-lg border border-slate-200 bg-white focus-visible:outline-2 focus-visible:outline-blue-700"
    >
      {table}
    </div>
  );
}

/**
 * A section with a chart and the same numbers as a table. The chart is hidden from assistive technology; the
 * table is always in the page (visually hidden while the chart shows) and "Show as table" brings it into view.
 */
export function ChartSection({
  title,
  description,
  chart,
  table,
  empty,
  fitChart = false,
}: {
  title: string;
  description?: ReactNode;
  chart?: ReactNode;
  /** The chart takes the height of its content (a BarList) instead of recharts' fixed 16rem box. */
  fitChart?: boolean;
  table: ReactNode;
  empty?: ReactNode;
}) {
  const [asTable, setAsTable] = useState(false);
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-2">
        <div className="grid gap-1">
          {/* h2: the page has its h1 and no level between (axe heading-order, Lighthouse). */}
          <CardTitle as="h2">{title}</CardTitle>
          {description && <CardDescription>{description}</CardDescription>}
        </div>
        {chart && !empty && (
          <Button variant="ghost" size="sm" aria-pressed={asTable} onClick={() => setAsTable((value) => !value)}>
            {asTable ? 'Show as chart' : 'Show as table'}
          </Button>
        )}
      </CardHeader>
      <CardContent className="grid gap-3">
        {empty ?? (
          <>
            {chart && !asTable && (
              <div className={cn('w-full', !fitChart && 'h-64')} aria-hidden="true">
                {chart}
              </div>
            )}
            {chart && !asTable ? (
              <div className="sr-only">
                <TableHidden.Provider value={true}>{table}</TableHidden.Provider>
              </div>
            ) : (
              table
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}

export function TabSkeleton() {
  return (
    <div role="status" aria-label="Loading the dashboard" className="grid gap-4" data-testid="dashboard-skeleton">
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {[0, 1, 2, 3].map((index) => (
          <div key={index} className="h-20 animate-pulse rounded-lg bg-slate-200" />
        ))}
      </div>
      <div className="h-72 animate-pulse rounded-lg bg-slate-200" />
    </div>
  );
}

export function TabError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return <ErrorCard title="Could not load this tab" error={error} onRetry={onRetry} />;
}

export function NoActivity({ title = 'No activity in this range', children }: { title?: string; children?: ReactNode }) {
  return <EmptyState title={title}>{children ?? <p>Import candidates or start a sequence: activity appears here. Or widen the date range.</p>}</EmptyState>;
}

/** A tab's frame: loading skeleton, error card, or the content (dimmed while new filters load). */
export function TabFrame<T extends { filters: { from: string | null; to: string; organizationIds: string[] } }>({
  query,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; data: T | undefined; isPlaceholderData: boolean; isFetching: boolean; refetch: () => unknown };
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <TabSkeleton />;
  if (query.isError || query.data === undefined) return <TabError error={query.error} onRetry={() => void query.refetch()} />;
  const { from, to, organizationIds } = query.data.filters;
  const day = (value: string) => calendarDateInWords(value) ?? value;
  return (
    <div className={cn('grid gap-5', query.isPlaceholderData && 'opacity-60')} aria-busy={query.isFetching}>
      <p className="text-sm text-slate-700" data-testid="dashboard-range">
        {from ? `${day(from)} to ${day(to)}` : `Everything up to ${day(to)}`} (UTC) ·{' '}
        {organizationIds.length === 1 ? '1 organization' : `${organizationIds.length} organizations`}
      </p>
      {children(query.data)}
    </div>
  );
}
