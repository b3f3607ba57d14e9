import type { ReactNode } from 'react';
import { cn } from '../lib/utils';
import { Label, Select } from './ui';

// Only list pages import this module, so it stays out of the sign-in page's JavaScript (FilterSelect, which
// the dashboard and the matcher use too, stays in ui.tsx).

/** A select's `<option>`s, each a value with its label. */
export function Options({ options }: { options: ReadonlyArray<{ value: string; label: string }> }) {
  return options.map((option) => (
    <option key={option.value} value={option.value}>
      {option.label}
    </option>
  ));
}

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
        <Options options={options} />
      </Select>
    </div>
  );
}

/** `labels`' keys in their order, as ChoiceFilter options. */
export function optionsOf<T extends string>(values: readonly T[], labels: Record<T, string>) {
  return values.map((value) => ({ value, label: labels[value] }));
}
