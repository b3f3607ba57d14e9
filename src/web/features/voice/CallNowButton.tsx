import { Link } from '@tanstack/react-router';
import { FormError } from '../../components/FormError';
import { Loader2, Phone } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { Call, CallPreCheck } from '../../../contract/voice';
import { whenInWords } from '../../../contract/when-words';
import { ConfirmDialog } from '../../components/dialogs';
import { Button } from '../../components/ui';
import { ApiRequestError } from '../../lib/api';
import { errorMessage } from '../../lib/utils';
import { usePhoneLibrary } from '../../lib/phone-lazy';
import { formatPhone } from '../candidates/format';
import { useScheduleCallback } from '../callbacks/queries';
import { viewerTimeZone } from '../callbacks/format';
import { useCallPreCheck, usePlaceCall } from './queries';

/** The next allowed time in words, on the person's clocks (or the viewer's, said as such, when theirs is unknown). */
function nextTimeWords(check: CallPreCheck): string {
  if (!check.nextAllowedAt) return '';
  return check.timeZone
    ? whenInWords(check.nextAllowedAt, check.timeZone)
    : `${whenInWords(check.nextAllowedAt, viewerTimeZone(), 'en', { withZone: false })} (your time)`;
}

/**
 * What the dialog knows before the button: every reason the call cannot be placed (the server's pre-check,
 * the same rules placing applies), the unknown zone said plainly, and a callback at the next allowed time
 * when only the calling hours are in the way.
 */
function PreCheckPanel({
  check,
  loading,
  failed,
  scheduling,
  onSchedule,
}: {
  check: CallPreCheck | undefined;
  loading: boolean;
  failed: boolean;
  scheduling: boolean;
  onSchedule: () => void;
}) {
  if (loading)
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-slate-700">
        <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" />
        Checking whether the call can be placed…
      </p>
    );
  if (failed || !check) return <FormError>We could not check whether the call can be placed. Close this and try again.</FormError>;
  return (
    <div className="grid gap-2" data-testid="call-pre-check">
      {check.zoneUnknownCountry && (
        <p className="text-sm text-slate-700">
          Time zone unknown: {check.zoneUnknownCountry} has several and the number does not say which. Calls wait until it is between 8 am and 9 pm in all of
          them; set the time zone on the profile to use local hours.
        </p>
      )}
      {check.reasons.length > 0 && (
        <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-slate-900">
          <p className="font-medium">The call cannot be placed now:</p>
          <ul className="mt-1 list-disc pl-5">
            {check.reasons.map((item) => (
              <li key={item.reason}>{item.message}</li>
            ))}
          </ul>
        </div>
      )}
      {check.nextAllowedAt && (
        <div>
          <Button variant="secondary" className="h-auto whitespace-normal py-2 text-left" onClick={onSchedule} disabled={scheduling}>
            {scheduling ? 'Scheduling…' : `Schedule a callback at ${nextTimeWords(check)}`}
          </Button>
        </div>
      )}
    </div>
  );
}

/**
 * "Call now": phones the candidate with the organization's prescreen voice agent, after a confirmation that
 * says who is called, by which agent, at which number (a call cannot be taken back). The dialog checks first
 * (GET /api/calls/pre-check) and keeps "Place the call" off while anything is in the way; a refusal that
 * still comes (409: something changed meanwhile) shows inline.
 */
export function CallNowButton({ candidateId, candidateName, phone }: { candidateId: string; candidateName: string; phone: string | null }) {
  usePhoneLibrary();
  const place = usePlaceCall();
  const schedule = useScheduleCallback();
  const [confirming, setConfirming] = useState(false);
  const preCheck = useCallPreCheck(candidateId, confirming);
  const check = preCheck.data;
  const [placed, setPlaced] = useState<Call | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const call = async () => {
    setProblem(null);
    setPlaced(null);
    try {
      const created = await place.mutateAsync({ candidateId, type: 'PRESCREEN' });
      setPlaced(created);
      setConfirming(false);
      toast.success('Call placed');
    } catch (error) {
      const body = error instanceof ApiRequestError ? (error.body as { error?: { message?: string } } | undefined) : undefined;
      setProblem(body?.error?.message ?? errorMessage(error));
      setConfirming(false);
    }
  };
  const scheduleCallback = async () => {
    if (!check?.nextAllowedAt) return;
    setProblem(null);
    try {
      await schedule.mutateAsync({ candidateId, type: 'PRESCREEN', at: check.nextAllowedAt });
      setConfirming(false);
      toast.success(`Callback scheduled for ${nextTimeWords(check)}`);
    } catch (error) {
      setProblem(errorMessage(error));
      setConfirming(false);
    }
  };
  return (
    <div className="grid justify-items-start gap-1">
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        trigger={
          <Button variant="secondary" disabled={place.isPending}>
            <Phone aria-hidden="true" className="h-4 w-4" />
            {place.isPending ? 'Calling…' : 'Call now'}
          </Button>
        }
        title={`Call ${candidateName} now?`}
        description="The voice agent dials straight away; the call cannot be taken back."
        confirmLabel="Place the call"
        confirmDisabled={!check?.canCall || preCheck.isFetching}
        pending={place.isPending}
        onConfirm={() => void call()}
      >
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm" data-testid="call-now-summary">
          <dt className="font-medium text-slate-700">Who</dt>
          <dd className="text-slate-900">{candidateName}</dd>
          <dt className="font-medium text-slate-700">Number</dt>
          <dd className="text-slate-900">{phone ? formatPhone(phone) : 'No phone number on file'}</dd>
          <dt className="font-medium text-slate-700">Voice agent</dt>
          <dd className="text-slate-900">{check ? (check.agent?.name ?? 'No active prescreen voice agent') : 'Checking…'}</dd>
        </dl>
        <PreCheckPanel
          check={check}
          loading={preCheck.isPending}
          failed={preCheck.isError}
          scheduling={schedule.isPending}
          onSchedule={() => void scheduleCallback()}
        />
      </ConfirmDialog>
      <div aria-live="polite" className="max-w-xs text-sm">
        {placed && (
          <Link to="/admin/calls/$callId" params={{ callId: placed.id }} className="font-medium text-blue-800 underline underline-offset-4">
            Open the call
          </Link>
        )}
        <FormError>{problem}</FormError>
      </div>
    </div>
  );
}
