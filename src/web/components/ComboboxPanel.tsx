import { Check, Search } from 'lucide-react';
import type { KeyboardEvent, RefObject } from 'react';
import { cn } from '../lib/utils';
import type { Entry } from './combobox-search';
import { Badge } from './ui';

interface ComboboxSearchBoxProps {
  listId: string;
  /** The id of the option the arrow keys are on. */
  activeId: string | undefined;
  searchLabel: string;
  searchPlaceholder: string | undefined;
  text: string;
  onText: (text: string) => void;
  onKeyDown: (event: KeyboardEvent<HTMLInputElement>) => void;
}

/** The open combobox's search box: typing filters the list, the arrow keys move in it. */
export function ComboboxSearchBox({ listId, activeId, searchLabel, searchPlaceholder, text, onText, onKeyDown }: ComboboxSearchBoxProps) {
  return (
    <div className="relative">
      <Search aria-hidden="true" className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-500" />
      <input
        type="search"
        role="combobox"
        aria-expanded="true"
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={activeId}
        aria-label={searchLabel}
        placeholder={searchPlaceholder}
        autoComplete="off"
        className="h-10 w-full rounded-md border border-slate-400 bg-white pl-9 pr-3 text-sm text-slate-900 placeholder:text-slate-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
        value={text}
        onChange={(event) => onText(event.target.value)}
        onKeyDown={onKeyDown}
      />
    </div>
  );
}

interface ComboboxListProps {
  listId: string;
  listRef: RefObject<HTMLUListElement | null>;
  listLabel: string;
  /** The matches listed (the first 50), and all of them. */
  shown: Entry[];
  found: Entry[];
  /** Options in all, and the matching ones without the "none" choice, for the count. */
  total: number;
  matching: number;
  noun: string;
  text: string;
  value: string | undefined;
  active: number;
  onActive: (index: number) => void;
  onChoose: (entry: Entry) => void;
}

/** The combobox's open list: each option with its second line, badge and why it cannot be chosen, then the count. */
export function ComboboxList({ listId, listRef, listLabel, shown, found, total, matching, noun, text, value, active, onActive, onChoose }: ComboboxListProps) {
  return (
    <>
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
              onMouseMove={() => onActive(index)}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => onChoose(entry)}
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
          : `${matching} of ${total} ${noun}`}
      </p>
    </>
  );
}
