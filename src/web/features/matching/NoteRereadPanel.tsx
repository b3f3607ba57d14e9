import { FileText } from 'lucide-react';
import { toast } from 'sonner';
import { FormError } from '../../components/FormError';
import { Button } from '../../components/ui';
import { apiProblem } from '../../lib/form-errors';
import { formatDateTime } from '../../lib/utils';
import { useNoteRereads, useStartNoteReread } from './queries';

/**
 * Re-reading every clinical note (decision 132), beside the matcher's results: after the note reader or its
 * vocabulary improves, staff read the organization's notes again, then match again. Progress while it goes.
 */
export function NoteRereadPanel() {
  const status = useNoteRereads();
  const start = useStartNoteReread();
  if (status.isPending || status.isError || status.data.notes === 0) return null;
  const { notes, latest } = status.data;
  const going = latest?.status === 'pending' || latest?.status === 'running';
  if (going && latest) {
    const done = Math.round(latest.progress * 100);
    return (
      <div className="grid gap-2 rounded-lg border border-slate-200 bg-white px-4 py-3">
        <p className="text-sm font-medium text-slate-900" id="note-reread-progress">
          Re-reading {latest.total.toLocaleString('en-US')} clinical notes… {latest.processed.toLocaleString('en-US')} done
        </p>
        <div
          role="progressbar"
          aria-labelledby="note-reread-progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={done}
          className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
        >
          <div className="h-full bg-blue-700 transition-all" style={{ width: `${done}%` }} />
        </div>
      </div>
    );
  }
  const last =
    latest?.status === 'completed' && latest.finishedAt
      ? `Last read again ${formatDateTime(latest.finishedAt)}.`
      : latest?.status === 'failed'
        ? `The last re-reading stopped: ${latest.error ?? 'unknown error'}.`
        : 'Each note was read when it was added.';
  return (
    <div className="grid gap-2 rounded-lg border border-slate-200 bg-white px-4 py-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-800">
          {notes.toLocaleString('en-US')} clinical {notes === 1 ? 'note' : 'notes'} in this organization. {last} Read them again after the note reader improves,
          then match again.
        </p>
        <Button
          variant="secondary"
          size="sm"
          disabled={start.isPending}
          onClick={() => start.mutate(undefined, { onSuccess: () => toast.success('Re-reading the clinical notes') })}
        >
          <FileText aria-hidden="true" className="h-4 w-4" />
          {start.isPending ? 'Starting…' : 'Re-read all notes'}
        </Button>
      </div>
      <FormError>{start.isError ? apiProblem(start.error).message : null}</FormError>
    </div>
  );
}
