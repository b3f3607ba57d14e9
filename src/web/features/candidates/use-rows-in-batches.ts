import { useEffect, useState } from 'react';

/** Rows drawn before the first paint: a phone's screenful under the header and filters, a laptop's first view. */
export const FIRST_ROWS = 12;
/** Rows added per idle moment: small enough that each addition stays a short task on a slow phone. */
export const ROWS_PER_BATCH = 10;

const whenIdle = (work: () => void): (() => void) => {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(work, { timeout: 200 });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(work, 0);
  return () => clearTimeout(handle);
};

/**
 * How many of a list's rows to draw: on the list's first showing, the first screenful at once and the rest in
 * batches when the browser is idle, so a 50-row page is not one long task on a phone (issue 32: blocking time).
 * Every row is there a moment later, in the same order, so keyboard order and what a screen reader reads are
 * unchanged; once complete, later pages (other data) are drawn whole.
 */
export function useRowsInBatches(total: number): number {
  const [shown, setShown] = useState(FIRST_ROWS);
  const complete = shown >= total;
  useEffect(() => {
    if (shown >= total) return;
    return whenIdle(() => setShown(shown + ROWS_PER_BATCH));
  }, [shown, total]);
  // Once every row of a page has been drawn, a longer page later on is drawn whole rather than in batches again.
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    if (complete && total > 0) setSettled(true);
  }, [complete, total]);
  return settled ? total : Math.min(shown, total);
}
