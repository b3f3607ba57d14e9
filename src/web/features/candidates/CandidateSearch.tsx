import { Search } from 'lucide-react';
import { FormError } from '../../components/FormError';
import { useEffect, useId, useState, type ReactNode } from 'react';
import type { CandidateListItem } from '../../../contract/candidates';
import { Spinner } from '../../components/Spinner';
import { Input, Label } from '../../components/ui';
import { cn, errorMessage } from '../../lib/utils';
import { candidateName } from './format';
import { useCandidatesQuery } from './queries';

/**
 * A search box over the candidates (name, phone or email; the candidates list's search, 10 at a time, asked
 * 250 ms after the typing stops; the latest updated first while it is empty) and its results, each drawn by
 * `children`. Used where a candidate is picked: the SMS inbox's new message, a sequence's enrollment.
 */
export function CandidateSearch({
  label,
  orgs,
  autoFocus,
  className,
  roomy = false,
  children,
}: {
  label: string;
  orgs?: string[];
  autoFocus?: boolean;
  className?: string;
  /** A taller list and more space around the "no candidates" line (in a dialog of its own). */
  roomy?: boolean;
  children: (candidate: CandidateListItem) => ReactNode;
}) {
  const inputId = useId();
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = window.setTimeout(() => setSearch(text.trim()), 250);
    return () => window.clearTimeout(timer);
  }, [text]);
  const query = useCandidatesQuery({ search: search || undefined, sort: search ? 'lastName:asc' : 'updatedAt:desc', orgs, limit: 10 });
  const candidates = query.data?.candidates ?? [];

  let results;
  if (query.isPending) results = <Spinner label="Finding candidates" className="p-4" />;
  else if (query.isError) results = <FormError>Could not search the candidates: {errorMessage(query.error)}</FormError>;
  else if (candidates.length === 0)
    results = <p className={cn('text-sm text-slate-700', roomy ? 'py-3' : 'py-2')}>{search ? `No candidate matches “${search}”.` : 'No candidates yet.'}</p>;
  else
    results = (
      <ul aria-label="Matching candidates" className={cn('grid gap-1 overflow-y-auto', roomy ? 'max-h-72' : 'max-h-60')}>
        {candidates.map((candidate) => (
          <li key={candidate.id}>{children(candidate)}</li>
        ))}
      </ul>
    );

  return (
    <div className={className}>
      <div className="grid gap-1.5">
        <Label htmlFor={inputId}>{label}</Label>
        <div className="relative">
          <Search aria-hidden="true" className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-500" />
          <Input
            id={inputId}
            type="search"
            className="pl-9"
            autoFocus={autoFocus}
            value={text}
            placeholder="Name, phone or email"
            onChange={(event) => setText(event.target.value)}
          />
        </div>
      </div>
      <div aria-live="polite" aria-busy={query.isFetching}>
        {results}
      </div>
    </div>
  );
}

export interface PickedCandidate {
  id: string;
  name: string;
}

/**
 * Find candidates by name, phone or email (the candidates list's search, 10 at a time) and pick one
 * (`multiple` false: a button each) or several (checkboxes). `organizationId` keeps the search to the
 * sequence's organization for a global admin (the sequences' enroll and preview dialogs).
 */
export function CandidatePicker({
  label = 'Find a candidate',
  organizationId,
  multiple = false,
  selected,
  onToggle,
}: {
  label?: string;
  organizationId?: string;
  multiple?: boolean;
  selected: readonly PickedCandidate[];
  onToggle: (candidate: PickedCandidate, on: boolean) => void;
}) {
  const chosen = new Set(selected.map((candidate) => candidate.id));
  return (
    <CandidateSearch label={label} orgs={organizationId ? [organizationId] : undefined} className="grid gap-2">
      {(candidate) => {
        const name = candidateName(candidate);
        const on = chosen.has(candidate.id);
        const hint = candidate.consent.doNotContact ? 'Do not contact' : candidate.phone ? null : 'No phone';
        return multiple ? (
          <label className="flex cursor-pointer items-center gap-3 rounded-md border border-slate-200 px-3 py-2 text-sm hover:bg-slate-50">
            <input
              type="checkbox"
              className="h-4 w-4 accent-blue-700"
              checked={on}
              onChange={(event) => onToggle({ id: candidate.id, name }, event.target.checked)}
            />
            <span className="font-medium text-slate-900">{name}</span>
            {hint && <span className="ml-auto text-xs text-slate-700">{hint}</span>}
          </label>
        ) : (
          <button
            type="button"
            aria-pressed={on}
            className={`flex w-full items-center justify-between gap-3 rounded-md border px-3 py-2 text-left text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 ${on ? 'border-blue-700 bg-blue-50' : 'border-slate-200'}`}
            onClick={() => onToggle({ id: candidate.id, name }, true)}
          >
            <span className="font-medium text-slate-900">{name}</span>
            {hint && <span className="text-xs text-slate-700">{hint}</span>}
          </button>
        );
      }}
    </CandidateSearch>
  );
}
