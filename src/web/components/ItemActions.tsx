import type { ReactNode } from 'react';
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
