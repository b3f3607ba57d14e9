import { Link } from '@tanstack/react-router';
import { Phone } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { Call } from '../../../contract/voice';
import { Button } from '../../components/ui';
import { ApiRequestError } from '../../lib/api';
import { errorMessage } from '../../lib/utils';
import { usePlaceCall } from './queries';

/** "Call now": phones the candidate with the organization's prescreen voice agent; a refusal (409) shows inline. */
export function CallNowButton({ candidateId }: { candidateId: string }) {
  const place = usePlaceCall();
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
      toast.success('Call placed');
    } catch (error) {
      const body = error instanceof ApiRequestError ? (error.body as { error?: { message?: string } } | undefined) : undefined;
      setProblem(body?.error?.message ?? errorMessage(error));
    }
  };
  return (
    <div className="grid justify-items-start gap-1">
      <Button variant="secondary" onClick={() => void call()} disabled={place.isPending}>
        <Phone aria-hidden="true" className="h-4 w-4" />
        {place.isPending ? 'Calling…' : 'Call now'}
      </Button>
      <div aria-live="polite" className="max-w-xs text-sm">
        {placed && (
          <Link to="/admin/calls/$callId" params={{ callId: placed.id }} className="font-medium text-blue-800 underline underline-offset-4">
            Open the call
          </Link>
        )}
        {problem && (
          <p role="alert" className="text-red-800">
            {problem}
          </p>
        )}
      </div>
    </div>
  );
}
