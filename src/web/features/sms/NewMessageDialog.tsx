import { Dialog } from '../../components/dialogs';
import { usePhoneLibrary } from '../../lib/phone-lazy';
import { CandidateSearch } from '../candidates/CandidateSearch';
import { candidateName } from '../candidates/format';

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
  usePhoneLibrary();

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="New message"
      description="Find the candidate to text. Their conversation opens, with any earlier messages."
    >
      <CandidateSearch label="Candidate name" orgs={orgs} autoFocus roomy className="grid gap-3">
        {(candidate) => (
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
              {candidate.phoneDisplay ?? 'No phone'}
              {candidate.consent.doNotContact ? ' · Do not contact' : ''}
            </span>
          </button>
        )}
      </CandidateSearch>
    </Dialog>
  );
}
