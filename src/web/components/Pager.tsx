import { ChevronLeft, ChevronRight } from 'lucide-react';
import { countWords as count } from '../lib/counts';
import { Button } from './ui';

/** "Showing 51–100 of 12,345" with Previous and Next, for any paged list (offset, page or cursor). */
export function Pager({
  first,
  last,
  total,
  totalAtLeast = false,
  canPrevious,
  canNext,
  onPrevious,
  onNext,
  busy = false,
}: {
  first: number;
  last: number;
  total: number;
  /** `total` is a floor (the server stopped counting there): shown as "10,000+". */
  totalAtLeast?: boolean;
  canPrevious: boolean;
  canNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
  busy?: boolean;
}) {
  return (
    <nav aria-label="Pages" className="flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-slate-700" aria-live="polite" data-testid="paging-summary">
        Showing {count(first)}–{count(last)} of {count(total)}
        {totalAtLeast ? '+' : ''}
      </p>
      <div className="flex gap-2">
        <Button variant="secondary" size="sm" onClick={onPrevious} disabled={!canPrevious || busy}>
          <ChevronLeft aria-hidden="true" className="h-4 w-4" />
          Previous
        </Button>
        <Button variant="secondary" size="sm" onClick={onNext} disabled={!canNext || busy}>
          Next
          <ChevronRight aria-hidden="true" className="h-4 w-4" />
        </Button>
      </div>
    </nav>
  );
}

/** The Pager of an offset-paged list: `shown` rows from `offset` of `total`, moving a page of `pageSize` at a time. */
export function OffsetPager({
  offset,
  shown,
  total,
  pageSize,
  onOffset,
  busy = false,
}: {
  offset: number;
  shown: number;
  total: number;
  pageSize: number;
  onOffset: (offset: number) => void;
  busy?: boolean;
}) {
  return (
    <Pager
      first={offset + 1}
      last={offset + shown}
      total={total}
      canPrevious={offset > 0}
      canNext={offset + shown < total}
      onPrevious={() => onOffset(Math.max(0, offset - pageSize))}
      onNext={() => onOffset(offset + pageSize)}
      busy={busy}
    />
  );
}
