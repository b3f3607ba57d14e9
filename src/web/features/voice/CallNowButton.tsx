import { Link } from '@tanstack/react-router';
import { FormError } from '../../components/FormError';
import { Phone } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { Call } from '../../../contract/voice';
import { ConfirmDialog } from '../../components/dialogs';
import { Button } from '../../components/ui';
import { ApiRequestError } from '../../lib/api';
import { errorMessage } from '../../lib/utils';
import { usePhoneLibrary } from '../../lib/phone-lazy';
import { formatPhone } from '../candidates/format';
import { usePlaceCall, useVoiceAgentsQuery } from './queries';

/**
 * "Call now": phones the candidate with the organization's prescreen voice agent, after a confirmation that
 * says who is called, by which agent, at which number (a call cannot be taken back). A refusal (409) shows inline.
 */
export function CallNowButton({ candidateId, candidateName, phone }: { candidateId: string; candidateName: string; phone: string | null }) {
  usePhoneLibrary();
  const place = usePlaceCall();
  const [confirming, setConfirming] = useState(false);
  const agents = useVoiceAgentsQuery('PRESCREEN');
  const agent = agents.data?.voiceAgents.find((item) => item.active);
  const [placed, setPlaced] = useState<Call | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const call = async () => {
    setProblem(null);
    setPlaced(null);
    try {
      const created = await place.mutateAsync({
        candidateId,
        type: 'PRESCREEN',
      });
      setPlaced(created);
      setConfirming(false);
      toast.success('Call placed');
    } catch (error) {
      const body = error instanceof ApiRequestError ? (error.body as { error?: { message?: string } } | undefined) : undefined;
      setProblem(body?.error?.message ?? errorMessage(error));
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
        pending={place.isPending}
        onConfirm={() => void call()}
      >
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm" data-testid="call-now-summary">
          <dt className="font-medium text-slate-700">Who</dt>
          <dd className="text-slate-900">{candidateName}</dd>
          <dt className="font-medium text-slate-700">Number</dt>
          <dd className="text-slate-900">{phone ? formatPhone(phone) : 'No phone number on file'}</dd>
          <dt className="font-medium text-slate-700">Voice agent</dt>
          <dd className="text-slate-900">{agent ? agent.name : agents.isLoading ? 'Loading…' : 'No active prescreen voice agent'}</dd>
        </dl>
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
