import { useBlocker } from '@tanstack/react-router';
import type { ReactNode, RefObject } from 'react';
import { ArrowDown, ArrowUp, Trash2 } from 'lucide-react';
import { Button } from './ui';

/**
 * Move up / Move down / Delete for an item of an ordered list (form blocks, criteria, sequence steps),
 * described by the item's legend so a screen reader says which item they act on. `leading` comes first
 * (e.g. a Preview button).
 */
export function ItemActions({
  describedBy,
  isFirst,
  isLast,
  onMove,
  onRemove,
  removeLabel = 'Delete',
  leading,
}: {
  describedBy: string;
  isFirst: boolean;
  isLast: boolean;
  onMove: (direction: -1 | 1) => void;
  onRemove: () => void;
  removeLabel?: string;
  leading?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap gap-1">
      {leading}
      <Button variant="ghost" size="sm" data-action="up" disabled={isFirst} aria-describedby={describedBy} onClick={() => onMove(-1)}>
        <ArrowUp aria-hidden="true" className="h-4 w-4" />
        Move up
      </Button>
      <Button variant="ghost" size="sm" data-action="down" disabled={isLast} aria-describedby={describedBy} onClick={() => onMove(1)}>
        <ArrowDown aria-hidden="true" className="h-4 w-4" />
        Move down
      </Button>
      <Button variant="ghost" size="sm" aria-describedby={describedBy} onClick={onRemove} className="text-red-800 hover:bg-red-50">
        <Trash2 aria-hidden="true" className="h-4 w-4" />
        {removeLabel}
      </Button>
    </div>
  );
}

/**
 * After an item moved, focus its move button again (`up` or `down`, inside `item`): keyboard users keep moving
 * it. At the end of the list that button is disabled, so the other one takes the focus.
 */
export function focusMoveButton(item: Element | null | undefined, action: 'up' | 'down') {
  const wanted = item?.querySelector(`[data-action="${action}"]`) as HTMLButtonElement | null;
  const other = item?.querySelector(`[data-action="${action === 'up' ? 'down' : 'up'}"]`) as HTMLButtonElement | null;
  (wanted && !wanted.disabled ? wanted : other)?.focus();
}

/**
 * Asks before a page with unsaved edits is left: in the app (a confirm with `message`) and on reload or closing
 * the tab (the browser's own prompt). `leaving`, once true, lets the page navigate away on purpose (e.g. to
 * the record it has just created).
 */
export function useUnsavedChangesGuard(dirty: boolean, message: string, leaving?: RefObject<boolean>) {
  useBlocker({
    shouldBlockFn: () => dirty && !leaving?.current && !window.confirm(message),
    enableBeforeUnload: () => dirty,
  });
}
