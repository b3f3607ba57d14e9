import { Search } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Dialog } from '../../components/dialogs';
import { Spinner } from '../../components/Spinner';
import { Input, Label } from '../../components/ui';
import { usePhoneLibrary } from '../../lib/phone-lazy';
import { errorMessage } from '../../lib/utils';
import { candidateName, formatPhone } from '../candidates/format';
import { useCandidatesQuery } from '../candidates/queries';

/** Pick a candidate by name to open (or start) their conversation. */
export function NewMessageDialog({
  open,
  onOpenChange,
  orgs,
  onPick,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  orgs?: string[];
  onPick: (candidateId: string) => void;
}) {
  const inputId = useId();
  usePhoneLibrary();
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = window.setTimeout(() => setSearch(text.trim()), 250);
    return () => window.clearTimeout(timer);
  }, [text]);
  useEffect(() => {
    if (open) {
      setText('');
      setSearch('');
    }
  }, [open]);

  const query = useCandidatesQuery({ search: search || undefined, sort: search ? 'lastName:asc' : 'updatedAt:desc', orgs, limit: 10 });
  const candidates = query.data?.candidates ?? [];

  let results;
  if (query.isPending) results = <Spinner label="Finding candidates" className="p-4" />;
  else if (query.isError)
    results = (
      <p role="alert" className="text-sm text-red-800">
        Could not search the candidates: {errorMessage(query.error)}
      </p>
    );
  else if (candidates.length === 0)
    results = <p className="py-3 text-sm text-slate-700">{search ? `No candidate matches “${search}”.` : 'No candidates yet.'}</p>;
  else
    results = (
      <ul aria-label="Matching candidates" className="grid max-h-72 gap-1 overflow-y-auto">
        {candidates.map((candidate) => (
          <li key={candidate.id}>
            <button
              type="button"
              className="flex w-full items-center justify-between gap-3 rounded-md border border-slate-200 px-3 py-2 text-left hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
              onClick={() => {
                onPick(candidate.id);
                onOpenChange(false);
              }}
            >
              <span className="font-medium text-slate-900">{candidateName(candidate)}</span>
              <span className="text-sm text-slate-700">
                {candidate.phone ? formatPhone(candidate.phone) : 'No phone'}
                {candidate.consent.doNotContact ? ' · Do not contact' : ''}
              </span>
            </button>
          </li>
        ))}
      </ul>
    );

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="New message"
      description="Find the candidate to text. Their conversation opens, with any earlier messages."
    >
      <div className="grid gap-3">
        <div className="grid gap-1.5">
          <Label htmlFor={inputId}>Candidate name</Label>
          <div className="relative">
            <Search aria-hidden="true" className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-500" />
            <Input
              id={inputId}
              type="search"
              className="pl-9"
              autoFocus
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
    </Dialog>
  );
}
