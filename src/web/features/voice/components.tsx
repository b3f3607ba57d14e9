import { Link } from '@tanstack/react-router';
import type { Call } from '../../../contract/voice';
import { Badge } from '../../components/ui';
import { candidateName } from '../candidates/format';
import { useCandidateQuery } from '../candidates/queries';
import { CALL_STATUS_LABELS, OUTCOME_LABELS } from './format';

export function CallStatusBadge({ status }: { status: Call['status'] }) {
  const tone = status === 'ended' ? 'green' : status === 'failed' || status === 'cancelled' ? 'amber' : 'blue';
  return <Badge tone={tone}>{CALL_STATUS_LABELS[status]}</Badge>;
}

export function OutcomeText({ outcome }: { outcome: string | null }) {
  return outcome ? (OUTCOME_LABELS[outcome] ?? outcome) : <span className="text-slate-700">—</span>;
}

/** The candidate's name, linked to their page (loaded one by one; the list shows at most 25). */
export function CandidateLink({ candidateId }: { candidateId: string | null }) {
  const query = useCandidateQuery(candidateId ?? '');
  if (!candidateId) return <span className="text-slate-700">Unknown caller</span>;
  return (
    <Link to="/candidates/$id" params={{ id: candidateId }} className="text-blue-800 underline-offset-4 hover:underline">
      {query.data ? candidateName(query.data) : query.isError ? 'Deleted candidate' : 'Candidate'}
    </Link>
  );
}
