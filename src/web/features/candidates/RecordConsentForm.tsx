import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { ConsentSourceSchema, type BulkConsentInput, type CandidateStatus } from '../../../contract/candidates';
import { Dialog, DialogFooter } from '../../components/dialogs';
import { Field, Input } from '../../components/ui';
import { FormError } from '../../components/FormError';
import { api } from '../../lib/api';
import { maxLengthOf } from '../../lib/limits';
import { errorMessage } from '../../lib/utils';
import { Checkbox } from './components';
import { plural } from './format';
import { refreshCandidates } from './queries';
import * as endpoints from '../../lib/api-operations.gen';

export type ConsentTarget = { candidateIds: string[] } | { filter: { search?: string; status?: CandidateStatus[]; trialId?: string } };

export interface RecordConsentProps {
  target: ConsentTarget;
  count: number;
  label: string;
  onDone?: () => void;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}

export function useBulkConsent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: BulkConsentInput) => api.call(endpoints.bulkUpdateCandidateConsent, { body: input }),
    onSuccess: () => refreshCandidates(queryClient),
    meta: { silent: true },
  });
}

const today = () => new Date().toISOString().slice(0, 10);

/**
 * Records documented consent for many candidates (TCPA: where and when it was given): the channels, the
 * source (required) and the date (default today). Do-not-contact candidates are skipped and counted. Loaded when
 * the dialog opens (RecordConsentDialog.tsx): its source field's limit comes from the contract's zod schema.
 */
export function RecordConsentForm({ target, count, onDone, open = false, onOpenChange }: RecordConsentProps) {
  const setOpen = (next: boolean) => onOpenChange?.(next);
  const [sms, setSms] = useState(true);
  const [calls, setCalls] = useState(true);
  const [source, setSource] = useState('');
  const [date, setDate] = useState(today());
  const [tried, setTried] = useState(false);
  const mutation = useBulkConsent();
  const sourceError = tried && !source.trim() ? 'Say where the consent was given' : undefined;
  const channelError = tried && !sms && !calls ? 'Choose SMS, calls or both' : undefined;

  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      title={`Record consent for ${plural(count, 'candidate')}`}
      description="Record the consent these people gave to be contacted, with where and when they gave it. Candidates marked do-not-contact are skipped."
    >
      <form
        className="grid gap-4"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setTried(true);
          if (!source.trim() || (!sms && !calls)) return;
          mutation.mutate({ ...target, sms, calls, source: source.trim(), date: date || undefined } as BulkConsentInput, {
            onSuccess: (result) => {
              const parts = [`Consent recorded for ${plural(result.updated, 'candidate')}`];
              if (result.unchanged) parts.push(`${result.unchanged} already had it`);
              if (result.skippedDoNotContact) parts.push(`${result.skippedDoNotContact} do-not-contact skipped`);
              toast.success(parts.join('; '));
              setOpen(false);
              onDone?.();
            },
          });
        }}
      >
        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-medium text-slate-800">Consent to</legend>
          <Checkbox label="Text messages (SMS)" checked={sms} onChange={setSms} />
          <Checkbox label="Phone calls" checked={calls} onChange={setCalls} />
          {channelError && (
            <p role="alert" className="text-sm text-red-800">
              {channelError}
            </p>
          )}
        </fieldset>
        <Field label="Source" hint='For example "paper form at clinic" or "web form".' error={sourceError}>
          <Input value={source} maxLength={maxLengthOf(ConsentSourceSchema)} onChange={(event) => setSource(event.target.value)} />
        </Field>
        <Field label="Date consent was given">
          <Input type="date" value={date} max={today()} onChange={(event) => setDate(event.target.value)} />
        </Field>
        {mutation.isError && <FormError>{errorMessage(mutation.error)}</FormError>}
        <DialogFooter onCancel={() => setOpen(false)} submitLabel="Record consent" pending={mutation.isPending} pendingLabel="Recording…" />
      </form>
    </Dialog>
  );
}
