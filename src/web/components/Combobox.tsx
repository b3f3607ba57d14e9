import { Popover } from 'radix-ui';
import { ChevronsUpDown } from 'lucide-react';
import { forwardRef, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { cn } from '../lib/utils';
import { closedButtonText, type ComboboxOption, type Entry, entriesMatching, entriesOf, SHOWN } from './combobox-search';
import { ComboboxList, ComboboxSearchBox } from './ComboboxPanel';

export type { ComboboxOption } from './combobox-search';

export interface ComboboxProps {
  options: readonly ComboboxOption[];
  /** The chosen option's value; '' (or undefined) is nothing chosen, or the `noneLabel` choice when given. */
  value: string | undefined;
  onChange: (value: string) => void;
  id?: string;
  invalid?: boolean;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
  /** The closed button's text while nothing is chosen. */
  placeholder?: string;
  /** The accessible name of the search box, e.g. "Search trials by title or NCT id". */
  searchLabel: string;
  searchPlaceholder?: string;
  /** The accessible name of the list of options, e.g. "Trials". */
  listLabel: string;
  /** A "none" choice listed first, answered as ''. */
  noneLabel?: string;
  /** What the options are, in the plural, for the count under the list ("trials"). */
  noun?: string;
  disabled?: boolean;
  /** The options are still loading: the button says "Loading {noun}…" and waits. */
  loading?: boolean;
  /** With it, no options leave the button disabled, saying this ("No trials yet"). */
  emptyText?: string;
  /** A smaller button for toolbars. */
  compact?: boolean;
  className?: string;
  'data-testid'?: string;
}

/**
 * The design system's searchable choice for long lists (sites, trials, time zones): a button showing the chosen
 * option opens a popover with a search box and the options, each with an optional second line and badge.
 * Arrow keys, Home and End move, Enter chooses, Escape closes; the filter keeps options that contain every
 * typed word (in the label or the keywords), and only the first 50 matches are listed.
 * Works inside `Field`: its id, aria-invalid and aria-describedby land on the button, which the label names.
 */
export const Combobox = forwardRef<HTMLButtonElement, ComboboxProps>(function Combobox(
  {
    options,
    value,
    onChange,
    id,
    invalid,
    'aria-invalid': ariaInvalid,
    'aria-describedby': describedBy,
    placeholder: placeholderProp = 'Choose…',
    searchLabel,
    searchPlaceholder,
    listLabel,
    noneLabel,
    noun = 'choices',
    disabled: disabledProp,
    loading,
    emptyText,
    compact,
    className,
    'data-testid': testId,
  },
  ref,
) {
  const empty = emptyText !== undefined && options.length === 0;
  const disabled = disabledProp || loading || empty;
  const placeholder = loading ? `Loading ${noun}…` : empty ? emptyText : placeholderProp;
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const listRef = useRef<HTMLUListElement>(null);
  const entries = useMemo(() => entriesOf(options, noneLabel), [options, noneLabel]);
  const found = entriesMatching(entries, text);
  const shown = found.slice(0, SHOWN);
  const matching = found.filter((entry) => !entry.none).length;
  const { buttonText, showsPlaceholder } = closedButtonText(options, value, noneLabel, placeholder);

  const choose = (entry: Entry | undefined) => {
    if (!entry || entry.option.disabledReason) return;
    onChange(entry.option.value);
    setOpen(false);
  };
  const move = (next: number) => {
    const index = Math.max(0, Math.min(shown.length - 1, next));
    setActive(index);
    listRef.current?.querySelector(`[data-index="${index}"]`)?.scrollIntoView({ block: 'nearest' });
  };
  const openWith = (typed: string) => {
    setText(typed);
    const index = typed ? -1 : entries.slice(0, SHOWN).findIndex((entry) => entry.option.value === (value ?? ''));
    setActive(Math.max(index, 0));
    setOpen(true);
  };
  const onSearchKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') move(active + 1);
    else if (event.key === 'ArrowUp') move(active - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(shown.length - 1);
    else if (event.key === 'Enter') choose(shown[active]);
    else return;
    event.preventDefault();
  };
  /** Like a native select: arrows open the list, and typing a letter opens it searching for that letter. */
  const onTriggerKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (open || disabled) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') openWith('');
    else if (event.key.length === 1 && event.key !== ' ' && !event.ctrlKey && !event.metaKey && !event.altKey) openWith(event.key);
    else return;
    event.preventDefault();
  };

  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        if (next) openWith('');
        else setOpen(false);
      }}
    >
      <Popover.Trigger asChild>
        <button
          ref={ref}
          id={id}
          type="button"
          role="combobox"
          aria-expanded={open}
          aria-haspopup="listbox"
          aria-controls={open ? listId : undefined}
          aria-invalid={invalid || ariaInvalid || undefined}
          aria-describedby={describedBy}
          disabled={disabled}
          onKeyDown={onTriggerKeyDown}
          className={cn(
            'flex w-full min-w-0 items-center justify-between gap-2 rounded-md border border-slate-400 bg-white text-left text-sm text-slate-900 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-700',
            'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 aria-[invalid=true]:border-red-700',
            compact ? 'h-8 px-2.5' : 'min-h-10 px-3 py-2',
            className,
          )}
          data-testid={testId}
        >
          <span className={cn('min-w-0 truncate', showsPlaceholder && 'text-slate-700')}>{buttonText}</span>
          <ChevronsUpDown aria-hidden="true" className="h-4 w-4 shrink-0 text-slate-700" />
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={4}
          collisionPadding={8}
          // Radix gives the popover role="dialog", which needs a name.
          aria-label={listLabel}
          className="z-50 grid w-[min(36rem,calc(100vw-2rem))] gap-2 rounded-md border border-slate-300 bg-white p-2 shadow-lg"
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            (event.currentTarget as HTMLElement).querySelector('input')?.focus();
          }}
        >
          <ComboboxSearchBox
            listId={listId}
            activeId={shown[active] ? `${listId}-${active}` : undefined}
            searchLabel={searchLabel}
            searchPlaceholder={searchPlaceholder}
            text={text}
            onText={(typed) => {
              setText(typed);
              setActive(0);
            }}
            onKeyDown={onSearchKeyDown}
          />
          <ComboboxList
            listId={listId}
            listRef={listRef}
            listLabel={listLabel}
            shown={shown}
            found={found}
            total={options.length}
            matching={matching}
            noun={noun}
            text={text}
            value={value}
            active={active}
            onActive={setActive}
            onChoose={choose}
          />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
});
