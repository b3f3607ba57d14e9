import { Popover } from 'radix-ui';
import { Check, ChevronsUpDown, Search } from 'lucide-react';
import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { ownSitesFirst, siteLabel, type TrialSite } from '../../contract/trials';
import { cn } from '../lib/utils';
import { Badge } from './ui';

/** How many matches the list shows at once; typing narrows the rest. */
const SHOWN = 50;

type PickerSite = Pick<TrialSite, 'id' | 'name' | 'city' | 'region' | 'postalCode' | 'country' | 'timeZone' | 'isOwnSite'>;

function matches(site: PickerSite, words: string[]) {
  const haystack = [siteLabel(site), site.postalCode].filter(Boolean).join(' ').toLowerCase();
  return words.every((word) => haystack.includes(word));
}

/**
 * A searchable site picker (combobox): a button showing the chosen site opens a popover with a filter box and
 * the trial's sites, our sites first, each with facility, city, state and country. Arrow keys move, Enter
 * chooses, Escape closes; the filter matches every typed word against facility, city, state, postal code and
 * country.
 */
export function SitePicker({
  sites,
  value,
  onChange,
  id,
  invalid,
  placeholder = 'Choose a site',
  isDisabled,
}: {
  sites: readonly PickerSite[];
  value: string | undefined;
  onChange: (siteId: string) => void;
  id?: string;
  invalid?: boolean;
  placeholder?: string;
  /** A site that cannot be chosen here, with why (shown under its name). */
  isDisabled?: (site: PickerSite) => string | null;
}) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const listRef = useRef<HTMLUListElement>(null);
  const ordered = useMemo(() => ownSitesFirst(sites), [sites]);
  const words = text.toLowerCase().split(/[\s,]+/).filter(Boolean);
  const found = words.length ? ordered.filter((site) => matches(site, words)) : ordered;
  const shown = found.slice(0, SHOWN);
  const chosen = sites.find((site) => site.id === value);

  const choose = (site: PickerSite | undefined) => {
    if (!site || isDisabled?.(site)) return;
    onChange(site.id);
    setOpen(false);
  };
  const move = (next: number) => {
    const index = Math.max(0, Math.min(shown.length - 1, next));
    setActive(index);
    listRef.current?.querySelector(`[data-index="${index}"]`)?.scrollIntoView({ block: 'nearest' });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') move(active + 1);
    else if (event.key === 'ArrowUp') move(active - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(shown.length - 1);
    else if (event.key === 'Enter') choose(shown[active]);
    else return;
    event.preventDefault();
  };

  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          setText('');
          const index = ordered.findIndex((site) => site.id === value);
          setActive(index >= 0 && index < SHOWN ? index : 0);
        }
      }}
    >
      <Popover.Trigger asChild>
        <button
          id={id}
          type="button"
          role="combobox"
          aria-expanded={open}
          aria-haspopup="listbox"
          aria-invalid={invalid || undefined}
          className="flex min-h-10 w-full items-center justify-between gap-2 rounded-md border border-slate-400 bg-white px-3 py-2 text-left text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 aria-[invalid=true]:border-red-700"
          data-testid="site-picker"
        >
          <span className={cn('min-w-0 truncate', !chosen && 'text-slate-600')}>{chosen ? siteLabel(chosen) : placeholder}</span>
          <ChevronsUpDown aria-hidden="true" className="h-4 w-4 shrink-0 text-slate-600" />
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={4}
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
              aria-label="Search sites by facility, city, state or country"
              placeholder="Search facility, city, state, country"
              className="h-10 w-full rounded-md border border-slate-400 bg-white pl-9 pr-3 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
              value={text}
              onChange={(event) => {
                setText(event.target.value);
                setActive(0);
              }}
              onKeyDown={onKeyDown}
            />
          </div>
          <ul ref={listRef} id={listId} role="listbox" aria-label="Sites" className="max-h-72 overflow-y-auto">
            {shown.map((site, index) => {
              const why = isDisabled?.(site) ?? null;
              return (
                <li
                  key={site.id}
                  id={`${listId}-${index}`}
                  data-index={index}
                  role="option"
                  aria-selected={site.id === value}
                  aria-disabled={why ? true : undefined}
                  className={cn(
                    'flex cursor-pointer items-start gap-2 rounded px-2 py-1.5 text-sm',
                    index === active && 'bg-blue-50 outline outline-1 outline-blue-300',
                    why && 'cursor-not-allowed opacity-70',
                  )}
                  onMouseMove={() => setActive(index)}
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => choose(site)}
                >
                  <Check aria-hidden="true" className={cn('mt-0.5 h-4 w-4 shrink-0 text-blue-700', site.id !== value && 'invisible')} />
                  <span className="min-w-0">
                    <span className="flex flex-wrap items-center gap-1.5 font-medium text-slate-900">
                      {site.name}
                      {site.isOwnSite && <Badge tone="green">Ours</Badge>}
                    </span>
                    <span className="block text-xs text-slate-700">
                      {[site.city, site.region, site.country].filter(Boolean).join(', ') || 'No address'}
                      {' · '}
                      {site.timeZone ? site.timeZone.replace(/_/g, ' ') : 'time zone needed'}
                    </span>
                    {why && <span className="block text-xs text-amber-900">{why}</span>}
                  </span>
                </li>
              );
            })}
            {shown.length === 0 && <li className="px-2 py-1.5 text-sm text-slate-700">No site matches “{text.trim()}”.</li>}
          </ul>
          <p className="px-1 text-xs text-slate-700" aria-live="polite">
            {found.length > shown.length ? `Showing ${shown.length} of ${found.length} matching sites: type to narrow.` : `${found.length} of ${sites.length} sites`}
          </p>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
