import { cn } from '../lib/utils';

/**
 * A row of button tabs (WAI-ARIA tabs pattern): only the selected tab is in the tab order, Left and Right move
 * to the previous or next tab, and each tab controls the panel `${idOf(tab)}-panel` the page renders.
 */
export function TabList<T extends string>({
  tabs,
  selected,
  labels,
  label,
  idOf,
  onSelect,
}: {
  tabs: readonly T[];
  selected: T;
  labels: Record<T, string>;
  /** The list's accessible name. */
  label: string;
  idOf: (tab: T) => string;
  onSelect: (tab: T) => void;
}) {
  return (
    <div role="tablist" aria-label={label} className="flex flex-wrap gap-1 border-b border-slate-200">
      {tabs.map((value, at) => (
        <button
          key={value}
          id={idOf(value)}
          role="tab"
          type="button"
          aria-selected={selected === value}
          aria-controls={`${idOf(value)}-panel`}
          tabIndex={selected === value ? 0 : -1}
          onKeyDown={(event) => {
            const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
            if (!step) return;
            event.preventDefault();
            const next = tabs[(at + step + tabs.length) % tabs.length];
            onSelect(next);
            requestAnimationFrame(() => document.getElementById(idOf(next))?.focus());
          }}
          className={cn(
            '-mb-px border-b-2 px-4 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-blue-700',
            selected === value ? 'border-blue-700 text-blue-900' : 'border-transparent text-slate-700 hover:text-slate-900',
          )}
          onClick={() => onSelect(value)}
        >
          {labels[value]}
        </button>
      ))}
    </div>
  );
}
