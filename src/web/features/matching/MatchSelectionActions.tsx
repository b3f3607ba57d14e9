import { Link } from '@tanstack/react-router';
import { UserPlus } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/ui';
import { AddToSequenceButton } from '../sequences/dialogs';
import { PrescreenSelectedButton } from './PrescreenSelectedButton';
import { useAddToTrial } from './queries';
import { countWords } from '../../lib/counts';

/**
 * What can be done with the candidates ticked in the ranked list: add them to the trial, start prescreen calls,
 * add them to a sequence; after calls start, a link to follow them.
 */
export function MatchSelectionActions({
  trialId,
  organizationId,
  selected,
  onClear,
}: {
  trialId: string;
  organizationId: string;
  selected: Set<string>;
  onClear: () => void;
}) {
  const add = useAddToTrial();
  const [callRun, setCallRun] = useState<{ id: string; called: number; selected: number } | null>(null);
  const addSelected = () =>
    add.mutate(
      { trialId, candidateIds: [...selected] },
      {
        onSuccess: (result) => {
          toast.success(
            `${result.added.toLocaleString('en-US')} added to the trial${result.alreadyInTrial ? ` (${result.alreadyInTrial} already in it)` : ''}`,
          );
          onClear();
        },
      },
    );
  return (
    <>
      {selected.size > 0 && (
        <div className="flex flex-wrap items-center gap-3 rounded-md border border-blue-200 bg-blue-50 px-4 py-2" role="region" aria-label="Bulk actions">
          <span className="text-sm text-slate-900">{countWords(selected.size)} selected</span>
          <Button size="sm" onClick={addSelected} disabled={add.isPending}>
            <UserPlus aria-hidden="true" className="h-4 w-4" />
            {add.isPending ? 'Adding…' : 'Add to trial'}
          </Button>
          <PrescreenSelectedButton
            candidateIds={[...selected]}
            organizationId={organizationId}
            trialId={trialId}
            onStarted={(run, count) => {
              setCallRun({ id: run.id, called: run.total, selected: count });
              onClear();
            }}
          />
          <AddToSequenceButton candidateIds={[...selected]} organizationId={organizationId} source="trial_matcher" trialId={trialId} onDone={onClear} />
          <Button size="sm" variant="ghost" onClick={onClear}>
            Clear selection
          </Button>
        </div>
      )}
      {callRun && (
        <p className="rounded-md border border-green-200 bg-green-50 px-4 py-2 text-sm text-slate-900" role="status">
          Prescreen calls started for {callRun.called.toLocaleString('en-US')} of the {callRun.selected.toLocaleString('en-US')} selected (the others are not
          due a call).{' '}
          <Link to="/admin/processed-runs" search={{ id: callRun.id }} className="font-medium text-blue-800 underline">
            Follow the calls’ progress
          </Link>
        </p>
      )}
    </>
  );
}
