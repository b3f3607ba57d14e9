import { Check, ChevronDown } from 'lucide-react';
import { Select as SelectPrimitive } from 'radix-ui';
import { forwardRef } from 'react';
import { cn } from '../lib/utils';

/** Radix items cannot have an empty value: this one stands for "none" and is answered as ''. */
const NONE = '__none__';

export interface ChoiceOption {
  value: string;
  label: string;
  /** A second, quieter line (e.g. a label beside a number). */
  hint?: string;
  disabled?: boolean;
}

/**
 * The design system's Radix-based select: a button that opens a listbox (keyboard: arrows, type-ahead,
 * Enter, Escape). `value` '' is the `noneLabel` choice when one is given. Works inside Field (id,
 * aria-invalid and aria-describedby land on the trigger, which the label names).
 */
export const ChoiceSelect = forwardRef<
  HTMLButtonElement,
  {
    id?: string;
    value: string;
    onValueChange: (value: string) => void;
    options: readonly ChoiceOption[];
    placeholder?: string;
    noneLabel?: string;
    disabled?: boolean;
    className?: string;
    'aria-invalid'?: boolean;
    'aria-describedby'?: string;
  }
>(function ChoiceSelect({ id, value, onValueChange, options, placeholder, noneLabel, disabled, className, ...aria }, ref) {
  const current = value === '' ? (noneLabel ? NONE : undefined) : value;
  return (
    <SelectPrimitive.Root value={current} onValueChange={(next) => onValueChange(next === NONE ? '' : next)} disabled={disabled}>
      <SelectPrimitive.Trigger
        ref={ref}
        id={id}
        {...aria}
        className={cn(
          'flex h-10 w-full items-center justify-between gap-2 rounded-md border border-slate-400 bg-white px-3 py-2 text-left text-sm text-slate-900 disabled:cursor-not-allowed disabled:bg-slate-100 data-[placeholder]:text-slate-700',
          'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700',
          className,
        )}
      >
        <SelectPrimitive.Value placeholder={placeholder} />
        <SelectPrimitive.Icon>
          <ChevronDown aria-hidden="true" className="h-4 w-4 text-slate-700" />
        </SelectPrimitive.Icon>
      </SelectPrimitive.Trigger>
      <SelectPrimitive.Portal>
        <SelectPrimitive.Content
          position="popper"
          sideOffset={4}
          className="z-50 max-h-72 min-w-[var(--radix-select-trigger-width)] overflow-hidden rounded-md border border-slate-200 bg-white shadow-lg"
        >
          <SelectPrimitive.Viewport className="p-1">
            {noneLabel && <Item value={NONE} label={noneLabel} />}
            {options.map((option) => (
              <Item key={option.value} {...option} />
            ))}
          </SelectPrimitive.Viewport>
        </SelectPrimitive.Content>
      </SelectPrimitive.Portal>
    </SelectPrimitive.Root>
  );
});

function Item({ value, label, hint, disabled }: ChoiceOption) {
  return (
    <SelectPrimitive.Item
      value={value}
      disabled={disabled}
      className="relative flex cursor-default select-none items-center rounded px-8 py-2 text-sm text-slate-900 outline-none data-[disabled]:text-slate-600 data-[highlighted]:bg-blue-50 data-[highlighted]:text-blue-900"
    >
      <SelectPrimitive.ItemIndicator className="absolute left-2 inline-flex items-center">
        <Check aria-hidden="true" className="h-4 w-4" />
      </SelectPrimitive.ItemIndicator>
      <SelectPrimitive.ItemText>{label}</SelectPrimitive.ItemText>
      {hint && <span className="ml-2 text-xs text-slate-700">{hint}</span>}
    </SelectPrimitive.Item>
  );
}
