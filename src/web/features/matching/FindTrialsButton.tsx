import { Search } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Dialog } from '../../components/dialogs';
import { Spinner } from '../../components/Spinner';
import { Button } from '../../components/ui';

// The ranked list and its evidence load when the dialog opens: the candidate page's own JavaScript stays within its budget.
const RankedTrials = lazy(() => import('./FindTrialsDialog'));

/** "Find trials for this person" (decision 133): the candidate against every recruiting trial, ranked, with the reasons and a one-step add. */
export function FindTrialsButton({ candidateId, candidateName }: { candidateId: string; candidateName: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button variant="secondary">
          <Search aria-hidden="true" className="h-4 w-4" />
          Find trials for this person
        </Button>
      }
      title={`Trials for ${candidateName}`}
      description="Every recruiting trial against what is known of this person, best match first, with the facts and sources that decided each criterion."
    >
      {open && (
        <Suspense fallback={<Spinner label="Loading trials" className="p-4" />}>
          <RankedTrials candidateId={candidateId} candidateName={candidateName} />
        </Suspense>
      )}
    </Dialog>
  );
}
