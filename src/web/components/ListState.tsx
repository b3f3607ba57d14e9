import type { ReactNode } from 'react';
import { ErrorCard } from './ErrorCard';
import { Spinner } from './Spinner';
import { Button, EmptyState, Th } from './ui';

/** What ListState reads of the list's query (a TanStack Query result has all of it). */
export interface ListQuery {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  isFetching: boolean;
  isPlaceholderData: boolean;
  refetch: () => unknown;
}

/**
 * The states of a paged list page, in order: loading; failed (with Try Again); a later page that came back
 * empty (`emptyPage`: back to the first); nothing at all (`empty`); nothing for the filters (`noMatch`, when
 * `filtered`); else `above` (bulk actions), the rows (`children`, dimmed while another page loads) and the pager.
 */
export function ListState({
  query,
  rowCount,
  loadingLabel,
  errorTitle,
  emptyPage,
  filtered,
  empty,
  noMatch,
  above,
  pager,
  children,
}: {
  query: ListQuery;
  rowCount: number;
  loadingLabel: string;
  errorTitle: string;
  emptyPage?: { title: string; onFirstPage: () => void } | false;
  filtered?: boolean;
  empty: ReactNode;
  noMatch?: ReactNode;
  above?: ReactNode;
  pager: ReactNode;
  children: ReactNode;
}) {
  if (query.isPending) return <Spinner label={loadingLabel} />;
  if (query.isError) return <ErrorCard title={errorTitle} error={query.error} onRetry={() => void query.refetch()} />;
  if (rowCount === 0) {
    if (emptyPage) return <EmptyWithAction title={emptyPage.title} actionLabel="Go to the first page" onAction={emptyPage.onFirstPage} />;
    return filtered ? noMatch : empty;
  }
  return (
    <div className="grid grid-cols-1 gap-3">
      {above}
      <div className={query.isPlaceholderData ? 'opacity-60 transition-opacity' : undefined} aria-busy={query.isFetching}>
        {children}
      </div>
      {pager}
    </div>
  );
}

/** An empty list's message with one way out: clear the filters, show everything, go to the first page. */
export function EmptyWithAction({
  title,
  actionLabel,
  onAction,
  children,
}: {
  title: string;
  actionLabel: string;
  onAction: () => void;
  children?: ReactNode;
}) {
  return (
    <EmptyState title={title}>
      {children}
      <div className="mt-4">
        <Button variant="secondary" onClick={onAction}>
          {actionLabel}
        </Button>
      </div>
    </EmptyState>
  );
}

/** No row matches the filters (or the search): say so, and offer to clear them. */
export function NoMatch({ title, onClear }: { title: string; onClear: () => void }) {
  return (
    <EmptyWithAction title={title} actionLabel="Clear filters" onAction={onClear}>
      <p>Try another search, or clear the filters.</p>
    </EmptyWithAction>
  );
}

/** The header of a table's row-actions column: named for screen readers, blank on screen. */
export function ActionsTh({ className }: { className?: string }) {
  return (
    <Th className={className}>
      <span className="sr-only">Actions</span>
    </Th>
  );
}
