import { PhoneOutgoing } from 'lucide-react';
import { toast } from 'sonner';
import type { ProcessingRun } from '../../../contract/processing-runs';
import { ConfirmDialog } from '../../components/dialogs';
import { FormError } from '../../components/FormError';
import { Button } from '../../components/ui';
import { usePrescreenCallsConfirmation } from '../voice/queries';

const people = (count: number) => `${count.toLocaleString('en-US')} ${count === 1 ? 'person' : 'people'}`;

/**
 * The matcher's bulk "Start prescreen call": the selection goes to the bulk prescreen-calls run (calls feature),
 * after a confirmation saying how many people and that calling hours apply. A refusal (no agent, a run already
 * going, nobody due) stays in the dialog.
 */
export function PrescreenSelectedButton({
  candidateIds,
  organizationId,
  trialId,
  onStarted,
}: {
  candidateIds: string[];
  organizationId: string;
  trialId: string;
  onStarted: (run: ProcessingRun, selected: number) => void;
}) {
  const confirmation = usePrescreenCallsConfirmation();
  const count = candidateIds.length;
  return (
    <ConfirmDialog
      open={confirmation.open}
      onOpenChange={confirmation.onOpenChange}
      trigger={
        <Button size="sm" variant="secondary">
          <PhoneOutgoing aria-hidden="true" className="h-4 w-4" />
          Start prescreen call
        </Button>
      }
      title={`Call ${people(count)} for a prescreen?`}
      description={
        <>
          The active prescreen voice agent calls the {people(count)} selected who are due a prescreen call (new or contacted, with a phone, no prescreen result
          and no call or callback open); the others are left out. Call consent and do-not-contact are respected. Calling hours apply: anyone outside 08:00–21:00
          in their time zone gets a callback at the next opening instead. A few calls are open at once, so a long list takes a while.
        </>
      }
      confirmLabel={`Call ${people(count)}`}
      pending={confirmation.pending}
      onConfirm={() =>
        confirmation.confirm({ organizationId, trialId, candidateIds }, (run) => {
          toast.success(`Prescreen calls started for ${people(run.total)}`);
          onStarted(run, count);
        })
      }
    >
      <FormError>{confirmation.problem}</FormError>
    </ConfirmDialog>
  );
}
