import type { ReactNode } from 'react';
import { cn } from '../lib/utils';
import { Input, Label, Select } from './ui';

// Only list pages import this module, so it stays out of the sign-in page's JavaScript (FilterSelect, which
// the dashboard and the matcher use too, stays in ui.tsx).

/** A list page's filters: a search landmark named `label` ("Filter calls"), its fields in a wrapping row. */
export function FilterBar({ label, className = 'mb-4', children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div className={cn(className, 'flex flex-wrap items-end gap-3')} role="search" aria-label={label}>
      {children}
    </div>
  );
}

/** A labelled choice among fixed `options` that always has a value ("Show", "Sort by"): no "Any ..." entry. */
export function ChoiceFilter<T extends string>({
  id,
  label,
  className,
  value,
  options,
  onChange,
}: {
  id: string;
  label: string;
  className: string;
  value: T;
  options: ReadonlyArray<{ value: T; label: string }>;
  onChange: (value: T) => void;
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Select id={id} className={className} value={value} onChange={(event) => onChange(event.target.value as T)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Select>
    </div>
  );
}

/** `labels`' keys in their order, as ChoiceFilter options. */
export function optionsOf<T extends string>(values: readonly T[], labels: Record<T, string>) {
  return values.map((value) => ({ value, label: labels[value] }));
}

/** A labelled day (YYYY-MM-DD) of a date range filter; cleared, it reports undefined. */
export function DateFilter({
  id,
  label,
  value,
  min,
  max,
  onChange,
}: {
  id: string;
  label: string;
  value: string | undefined;
  min?: string;
  max?: string;
  onChange: (value: string | undefined) => void;
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} type="date" className="w-40" value={value ?? ''} min={min} max={max} onChange={(event) => onChange(event.target.value || undefined)} />
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
