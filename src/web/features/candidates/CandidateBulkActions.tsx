import { useState } from 'react';
import { toast } from 'sonner';
import { CANDIDATE_STATUSES } from '../../../contract/candidate-status';
import type { CandidateStatus } from '../../../contract/candidates';
import { Combobox, type ComboboxOption } from '../../components/Combobox';
import { ConfirmDialog } from '../../components/dialogs';
import { Button, Label, Select } from '../../components/ui';
import { TRIAL_PICKER } from '../trials/trial-option';
import { AddToSequenceButton } from '../sequences/dialogs';
import { RecordConsentDialog } from './RecordConsentDialog';
import { CANDIDATE_STATUS_LABELS, plural } from './format';
import { useBulkDeleteCandidates, useBulkUpdateCandidates, useResetCandidateStatus } from './queries';

/** What can be done to the selected candidates: change status, link to a trial, sequence, consent, reset, delete. */
export function CandidateBulkActions({
  selection,
  trials,
  onDone,
}: {
  selection: Array<{ id: string; organizationId: string }>;
  trials: ComboboxOption[];
  onDone: () => void;
}) {
  const [status, setStatus] = useState<CandidateStatus | ''>('');
  const [trialId, setTrialId] = useState('');
  const [resetOpen, setResetOpen] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const bulkUpdate = useBulkUpdateCandidates();
  const bulkDelete = useBulkDeleteCandidates();
  const reset = useResetCandidateStatus();
  const ids = selection.map((candidate) => candidate.id);
  const count = plural(ids.length, 'candidate');
  // A sequence belongs to one organization: offered when the selection is of one organization.
  const organizationIds = [...new Set(selection.map((candidate) => candidate.organizationId))];

  return (
    <section aria-label="Act on selected candidates" className="flex flex-wrap items-end gap-3 rounded-lg border border-blue-200 bg-blue-50 p-3">
      <p className="self-center text-sm font-medium text-blue-900" aria-live="polite">
        {ids.length} selected
      </p>
      <form
        className="flex items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (!status) return;
          bulkUpdate.mutate(
            { candidateIds: ids, status },
            {
              onSuccess: (result) => {
                toast.success(`${plural(result.updated, 'candidate')} moved to ${CANDIDATE_STATUS_LABELS[status].toLowerCase()}`);
                setStatus('');
                onDone();
              },
            },
          );
        }}
      >
        <div className="grid gap-1">
          <Label htmlFor="bulk-status" className="text-xs">
            Change status
          </Label>
          <Select id="bulk-status" className="h-8 w-44 py-0" value={status} onChange={(event) => setStatus(event.target.value as CandidateStatus | '')}>
            <option value="">Choose a status</option>
            {CANDIDATE_STATUSES.map((value) => (
              <option key={value} value={value}>
                {CANDIDATE_STATUS_LABELS[value]}
              </option>
            ))}
          </Select>
        </div>
        <Button type="submit" size="sm" variant="secondary" disabled={!status || bulkUpdate.isPending}>
          Apply status
        </Button>
      </form>
      <form
        className="flex items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (!trialId) return;
          bulkUpdate.mutate(
            { candidateIds: ids, addTrialId: trialId },
            {
              onSuccess: (result) => {
                toast.success(`${plural(result.updated, 'candidate')} linked to ${trials.find((trial) => trial.value === trialId)?.label ?? 'the trial'}`);
                setTrialId('');
                onDone();
              },
            },
          );
        }}
      >
        <div className="grid gap-1">
          <Label htmlFor="bulk-trial" className="text-xs">
            Link to trial
          </Label>
          <Combobox
            {...TRIAL_PICKER}
            id="bulk-trial"
            compact
            className="w-52"
            options={trials}
            value={trialId}
            onChange={setTrialId}
            emptyText="No trials yet"
            placeholder="Choose a trial"
          />
        </div>
        <Button type="submit" size="sm" variant="secondary" disabled={!trialId || bulkUpdate.isPending}>
          Link
        </Button>
      </form>
      <div className="ml-auto flex flex-wrap gap-2">
        {organizationIds.length === 1 && <AddToSequenceButton candidateIds={ids} organizationId={organizationIds[0]} source="manual" onDone={onDone} />}
        <RecordConsentDialog target={{ candidateIds: ids }} count={ids.length} label="Record consent" onDone={onDone} />
        <ConfirmDialog
          open={resetOpen}
          onOpenChange={setResetOpen}
          trigger={
            <Button size="sm" variant="secondary">
              Reset status
            </Button>
          }
          title={`Reset ${count} to New?`}
          description="Their status goes back to New; their history is kept. Candidates marked do-not-contact keep that status."
          confirmLabel="Reset status"
          pending={reset.isPending}
          onConfirm={() =>
            reset.mutate(selection, {
              onSuccess: (result) => {
                const extra = result.skippedDoNotContact.length ? ` (${result.skippedDoNotContact.length} do-not-contact kept)` : '';
                toast.success(`${plural(result.reset, 'candidate')} reset to New${extra}`);
                setResetOpen(false);
                onDone();
              },
            })
          }
        />
        <ConfirmDialog
          open={deleteOpen}
          onOpenChange={setDeleteOpen}
          trigger={
            <Button size="sm" variant="danger">
              Delete
            </Button>
          }
          title={`Delete ${count}?`}
          description={`${count} and their personal data will be removed for good. This cannot be undone; an audit record that it happened is kept.`}
          confirmLabel={`Delete ${count}`}
          pending={bulkDelete.isPending}
          onConfirm={() =>
            bulkDelete.mutate(ids, {
              onSuccess: (result) => {
                toast.success(`Deleted ${plural(result.deleted, 'candidate')}`);
                setDeleteOpen(false);
                onDone();
              },
            })
          }
        />
      </div>
    </section>
  );
}
