import { Popover } from 'radix-ui';
import { Check, ChevronsUpDown, Search } from 'lucide-react';
import { forwardRef, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { cn } from '../lib/utils';
import { Badge } from './ui';

/** How many matches the list shows at once; typing narrows the rest. */
const SHOWN = 50;

export interface ComboboxOption {
  value: string;
  /** The option's name: bold in the list, and on the closed button when chosen (unless `chosenLabel`). */
  label: string;
  /** A quieter second line (an NCT id and status, an address, a UTC offset). Not searched: repeat in `keywords` what should be. */
  description?: string;
  /** A short tag beside the label ("Ours"). */
  badge?: string;
  badgeTone?: 'slate' | 'blue' | 'green' | 'amber';
  /** Extra searchable text that is not shown (a postal code, a city, another title). */
  keywords?: string;
  /** The closed button's text when this option is chosen, when it should say more than `label`. */
  chosenLabel?: string;
  /** Why the option cannot be chosen here (shown under it); absent or null when it can. */
  disabledReason?: string | null;
}

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

interface Entry {
  option: ComboboxOption;
  /** Lower-cased label and keywords: what the filter reads. */
  haystack: string;
  none?: boolean;
}

/** The words typed, lower-cased; commas separate like spaces. */
const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/[\s,]+/)
    .filter(Boolean);

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
  const entries = useMemo<Entry[]>(() => {
    const list: Entry[] = options.map((option) => ({
      option,
      haystack: [option.label, option.chosenLabel, option.keywords].filter(Boolean).join(' ').toLowerCase(),
    }));
    return noneLabel ? [{ option: { value: '', label: noneLabel }, haystack: noneLabel.toLowerCase(), none: true }, ...list] : list;
  }, [options, noneLabel]);
  const words = wordsOf(text);
  const found = words.length ? entries.filter((entry) => words.every((word) => entry.haystack.includes(word))) : entries;
  const shown = found.slice(0, SHOWN);
  const matching = found.filter((entry) => !entry.none).length;
  const chosen = value ? options.find((option) => option.value === value) : undefined;
  // A value not among the options (still loading, say) shows the placeholder rather than a raw id.
  const showsPlaceholder = !chosen && !(noneLabel && !value);
  const buttonText = chosen ? (chosen.chosenLabel ?? chosen.label) : showsPlaceholder ? placeholder : noneLabel;

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
            'flex w-full items-center justify-between gap-2 rounded-md border border-slate-400 bg-white text-left text-sm text-slate-900 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-700',
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
          <div className="relative">
            <Search aria-hidden="true" className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-500" />
            <input
              type="search"
              role="combobox"
              aria-expanded="true"
              aria-controls={listId}
              aria-autocomplete="list"
              aria-activedescendant={shown[active] ? `${listId}-${active}` : undefined}
              aria-label={searchLabel}
              placeholder={searchPlaceholder}
              autoComplete="off"
              className="h-10 w-full rounded-md border border-slate-400 bg-white pl-9 pr-3 text-sm text-slate-900 placeholder:text-slate-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
              value={text}
              onChange={(event) => {
                setText(event.target.value);
                setActive(0);
              }}
              onKeyDown={onSearchKeyDown}
            />
          </div>
          <ul ref={listRef} id={listId} role="listbox" aria-label={listLabel} className="max-h-72 overflow-y-auto">
            {shown.map((entry, index) => {
              const { option } = entry;
              const why = option.disabledReason || null;
              const selected = entry.none ? !value : option.value === value;
              return (
                <li
                  key={entry.none ? '' : `=${option.value}`}
                  id={`${listId}-${index}`}
                  data-index={index}
                  role="option"
                  aria-selected={selected}
                  aria-disabled={why ? true : undefined}
                  className={cn(
                    'flex cursor-pointer items-start gap-2 rounded px-2 py-1.5 text-sm',
                    index === active && 'bg-blue-50 outline outline-1 outline-blue-300',
                    why && 'cursor-not-allowed opacity-70',
                  )}
                  onMouseMove={() => setActive(index)}
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => choose(entry)}
                >
                  <Check aria-hidden="true" className={cn('mt-0.5 h-4 w-4 shrink-0 text-blue-700', !selected && 'invisible')} />
                  <span className="min-w-0">
                    <span className={cn('flex flex-wrap items-center gap-1.5 text-slate-900', entry.none ? 'text-slate-800' : 'font-medium')}>
                      {option.label}
                      {option.badge && <Badge tone={option.badgeTone ?? 'slate'}>{option.badge}</Badge>}
                    </span>
                    {option.description && <span className="block text-xs text-slate-700">{option.description}</span>}
                    {why && <span className="block text-xs text-amber-900">{why}</span>}
                  </span>
                </li>
              );
            })}
          </ul>
          {shown.length === 0 && <p className="px-2 py-1.5 text-sm text-slate-700">Nothing matches “{text.trim()}”.</p>}
          <p className="px-1 text-xs text-slate-700" aria-live="polite">
            {found.length > shown.length
              ? `Showing ${shown.filter((entry) => !entry.none).length} of ${matching} matching ${noun}: type to narrow.`
              : `${matching} of ${options.length} ${noun}`}
          </p>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
});
