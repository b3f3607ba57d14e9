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

/** The views of one list (agent types, kinds of callback), kept in the URL: a row of buttons, the current one marked as the page. */
export function ViewSwitch<T extends string>({
  label,
  views,
  labels,
  hints,
  current,
  onSelect,
}: {
  label: string;
  views: readonly T[];
  labels: Record<T, string>;
  hints?: Record<T, string>;
  current: T;
  onSelect: (view: T) => void;
}) {
  return (
    <nav aria-label={label} className="mb-4 flex flex-wrap gap-1 border-b border-slate-200">
      {views.map((value) => (
        <button
          key={value}
          type="button"
          aria-current={value === current ? 'page' : undefined}
          title={hints?.[value]}
          onClick={() => onSelect(value)}
          className={cn(
            '-mb-px border-b-2 px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-blue-700',
            value === current ? 'border-blue-700 text-blue-800' : 'border-transparent text-slate-700 hover:text-slate-900',
          )}
        >
          {labels[value]}
        </button>
      ))}
    </nav>
  );
}
