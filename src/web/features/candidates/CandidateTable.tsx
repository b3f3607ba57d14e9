import { useRouter } from '@tanstack/react-router';
import { memo, type MouseEvent, type SyntheticEvent, useCallback, useRef } from 'react';
import type { CandidateListItem } from '../../../contract/candidates';
import { Table, Td, Th } from '../../components/ui';
import { formatDate } from '../../lib/utils';
import { CandidateStatusBadge, Checkbox } from './components';
import { candidateName, sourceLabel } from './format';
import { useRowsInBatches } from './use-rows-in-batches';

/**
 * One candidate in the list. Six columns fit a 1280 px screen beside the sidebar: the email sits under the name,
 * the source under the date added, and trial names wrap instead of widening the table.
 *
 * A row is kept light (issue 32: 50 rows render at once on a slow phone): the name is a plain link whose clicks and
 * hover preloads the table handles once (`useCandidateLinks`) instead of a router <Link> per row, and a row renders
 * again only when its own selection changes (memo, one stable `onSelect`). The phone comes formatted by the server
 * (`phoneDisplay`), so the list page loads no phone-number library (decision 157).
 */
const CandidateRow = memo(function CandidateRow({
  candidate,
  selected,
  onSelect,
  trialTitles,
  showOrganization,
  organizationNames,
}: {
  candidate: CandidateListItem;
  selected: boolean;
  onSelect: (id: string, checked: boolean) => void;
  trialTitles: Map<string, string>;
  showOrganization: boolean;
  organizationNames: Map<string, string>;
}) {
  const name = candidateName(candidate);
  return (
    <tr className={selected ? 'bg-blue-50/60' : undefined}>
      <Td className="w-10">
        <Checkbox label={`Select ${name}`} hideLabel checked={selected} onChange={(checked) => onSelect(candidate.id, checked)} />
      </Td>
      <Td className="max-w-[16rem]">
        <a
          href={`/candidates/${encodeURIComponent(candidate.id)}`}
          data-candidate-id={candidate.id}
          className="font-medium text-blue-800 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-blue-700"
        >
          {name}
        </a>
        {candidate.email && <div className="break-all text-xs text-slate-700">{candidate.email}</div>}
      </Td>
      <Td className="whitespace-nowrap tabular-nums">{candidate.phoneDisplay ?? '—'}</Td>
      <Td>
        <CandidateStatusBadge status={candidate.status} />
      </Td>
      <Td className="min-w-[8rem] max-w-[14rem]">
        {candidate.trialIds.length === 0 ? (
          <span className="text-slate-700">—</span>
        ) : (
          <ul className="grid gap-0.5">
            {candidate.trialIds.map((id) => (
              <li key={id} className="break-words text-xs">
                {trialTitles.get(id) ?? 'Trial'}
              </li>
            ))}
          </ul>
        )}
      </Td>
      <Td>
        <div className="whitespace-nowrap">{formatDate(candidate.createdAt)}</div>
        <div className="text-xs text-slate-700">{sourceLabel(candidate.source)}</div>
      </Td>
      {showOrganization && <Td className="max-w-[10rem] break-words">{organizationNames.get(candidate.organizationId) ?? '—'}</Td>}
    </tr>
  );
});

/** The candidate a link inside the table opens, if the event came from one. */
function candidateLinkOf(event: SyntheticEvent): string | undefined {
  const link = (event.target as Element).closest?.('a[data-candidate-id]');
  return link instanceof HTMLAnchorElement ? link.dataset.candidateId : undefined;
}

/**
 * What a router <Link> does, once for the whole table: a plain click opens the candidate in the app (a click with
 * a modifier key, or the middle button, is left to the browser: a new tab or window), and hovering or focusing a
 * name preloads the candidate's page after the router's delay, as `defaultPreload: 'intent'` does for links.
 */
function useCandidateLinks() {
  const router = useRouter();
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const onClick = useCallback(
    (event: MouseEvent) => {
      const id = candidateLinkOf(event);
      if (!id || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      void router.navigate({ to: '/candidates/$id', params: { id } });
    },
    [router],
  );
  const onIntent = useCallback(
    (event: SyntheticEvent) => {
      const id = candidateLinkOf(event);
      clearTimeout(pending.current);
      if (!id) return;
      pending.current = setTimeout(() => {
        router.preloadRoute({ to: '/candidates/$id', params: { id } }).catch(() => undefined);
      }, router.options.defaultPreloadDelay ?? 50);
    },
    [router],
  );
  const onLeave = useCallback(() => clearTimeout(pending.current), []);
  return { onClick, onMouseOver: onIntent, onFocus: onIntent, onMouseOut: onLeave, onBlur: onLeave };
}

/** The list's table: a page of candidates with a checkbox each and one for the whole page. */
export function CandidateTable({
  rows,
  selected,
  onSelectedChange,
  trialTitles,
  showOrganization,
  organizationNames,
}: {
  rows: CandidateListItem[];
  selected: Set<string>;
  onSelectedChange: (update: (previous: Set<string>) => Set<string>) => void;
  trialTitles: Map<string, string>;
  showOrganization: boolean;
  organizationNames: Map<string, string>;
}) {
  const allOnPage = rows.length > 0 && rows.every((row) => selected.has(row.id));
  const someOnPage = rows.some((row) => selected.has(row.id));
  const links = useCandidateLinks();
  const shown = useRowsInBatches(rows.length);
  const onSelect = useCallback(
    (id: string, checked: boolean) =>
      onSelectedChange((previous) => {
        const next = new Set(previous);
        if (checked) next.add(id);
        else next.delete(id);
        return next;
      }),
    [onSelectedChange],
  );
  return (
    <Table caption="Candidates">
      <thead>
        <tr>
          <Th className="w-10">
            <Checkbox
              label="Select all on this page"
              hideLabel
              checked={allOnPage}
              indeterminate={someOnPage && !allOnPage}
              onChange={(checked) => onSelectedChange(() => (checked ? new Set(rows.map((row) => row.id)) : new Set()))}
            />
          </Th>
          <Th>Name and email</Th>
          <Th>Phone</Th>
          <Th>Status</Th>
          <Th>Trials</Th>
          <Th>Added</Th>
          {showOrganization && <Th>Organization</Th>}
        </tr>
      </thead>
      <tbody {...links}>
        {rows.slice(0, shown).map((candidate) => (
          <CandidateRow
            key={candidate.id}
            candidate={candidate}
            selected={selected.has(candidate.id)}
            onSelect={onSelect}
            trialTitles={trialTitles}
            showOrganization={showOrganization}
            organizationNames={organizationNames}
          />
        ))}
      </tbody>
    </Table>
  );
}
