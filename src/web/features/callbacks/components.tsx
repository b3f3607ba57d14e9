import { useState } from 'react';
import { toast } from 'sonner';
import type { Callback } from '../../../contract/callbacks';
import { ConfirmDialog } from '../../components/dialogs';
import { Badge } from '../../components/ui';
import { FormError } from '../../components/FormError';
import { CALLBACK_STATUS_LABELS, CALLBACK_STATUS_TONES, formatInZone, knownTimeZone, viewerTimeZone, zoneLabel } from './format';
import { apiProblem } from '../../lib/form-errors';
import { useCancelCallback } from './queries';

export function CallbackStatusBadge({ status }: { status: Callback['status'] }) {
  return <Badge tone={CALLBACK_STATUS_TONES[status]}>{CALLBACK_STATUS_LABELS[status]}</Badge>;
}

/**
 * When the callback is placed: on the viewer's clocks, and on the candidate's when they differ; and, when
 * the time asked fell outside calling hours, that it was moved (and from when).
 */
export function ScheduledFor({ callback }: { callback: Callback }) {
  const zone = knownTimeZone(callback.timeZone);
  const own = viewerTimeZone();
  const moved = new Date(callback.requestedFor).getTime() !== new Date(callback.scheduledFor).getTime();
  return (
    <div className="grid gap-0.5" data-testid="callback-scheduled-for">
      <span className="text-slate-900">
        <time dateTime={callback.scheduledFor} className="whitespace-nowrap">
          {formatInZone(callback.scheduledFor)}
        </time>{' '}
        <span className="text-xs text-slate-700">your time</span>
      </span>
      <span className="text-xs text-slate-700" data-testid="callback-candidate-time">
        {zone === own ? 'Same for the candidate' : `${formatInZone(callback.scheduledFor, zone)} candidate’s time`} ({zoneLabel(zone)})
      </span>
      {moved && (
        <span className="text-xs text-amber-900" data-testid="callback-moved">
          Moved into calling hours (asked for {formatInZone(callback.requestedFor, zone)})
        </span>
      )}
    </div>
  );
}

/** Confirms, then cancels the candidate's open callback. Refusals show in the dialog. */
export function CancelCallbackDialog({ callback, open, onOpenChange }: { callback: Callback; open: boolean; onOpenChange: (open: boolean) => void }) {
  const cancel = useCancelCallback();
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        if (next) setProblem(null);
      }}
      title={`Cancel the callback to ${callback.candidateName}?`}
      description={`The call planned for ${formatInZone(callback.scheduledFor)} is not placed. You can schedule another one later.`}
      confirmLabel="Cancel callback"
      pending={cancel.isPending}
      onConfirm={() => {
        setProblem(null);
        cancel.mutate(callback.candidateId, {
          onSuccess: () => {
            toast.success(`Callback to ${callback.candidateName} cancelled`);
            onOpenChange(false);
          },
          onError: (error) => setProblem(apiProblem(error).message),
        });
      }}
    >
      <FormError>{problem}</FormError>
    </ConfirmDialog>
  );
}
