import type { ReactNode } from 'react';

/**
 * A table that may be wider than the page: it scrolls sideways in a region a keyboard can reach (focusable,
 * named by the caption), as axe's scrollable-region-focusable asks.
 */
export function ScrollTable({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    <div
      role="region"
      aria-label={caption}
      tabIndex={0}
      className="overflow-x-auto rounded-lg border border-slate-200 bg-white focus-visible:outline-2 focus-visible:outline-blue-700"
    >
      <table className="w-full border-collapse text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        {children}
      </table>
    </div>
  );
}
