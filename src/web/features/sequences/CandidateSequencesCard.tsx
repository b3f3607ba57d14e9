import { Link } from '@tanstack/react-router';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui';
import { AddToSequenceButton } from './dialogs';
import { currentStepText, EnrollmentActions, EnrollmentStatusBadge } from './Enrollments';
import { formatNextSend } from './format';
import { useCandidateEnrollmentsQuery } from './queries';

/** The candidate page's "Sequences" card: the sequences they are or were in, where they are, and Stop. */
export default function CandidateSequencesCard({ candidate }: { candidate: { id: string; organizationId: string; trialIds?: string[] } }) {
  const query = useCandidateEnrollmentsQuery(candidate.id);
  const enrollments = query.data?.enrollments ?? [];
  let body;
  if (query.isPending) body = <Spinner label="Loading sequences" className="p-2" />;
  else if (query.isError) body = <ErrorCard title="Could not load the sequences" error={query.error} onRetry={() => void query.refetch()} />;
  else if (enrollments.length === 0) body = <p className="text-sm text-slate-700">Not in any sequence.</p>;
  else
    body = (
      <ul className="grid gap-3" aria-label="Sequences of this candidate">
        {enrollments.map((enrollment) => {
          const live = enrollment.status === 'active' || enrollment.status === 'paused';
          return (
            <li key={enrollment.id} className="grid gap-1.5 rounded-md border border-slate-200 p-3" data-testid="candidate-sequence">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <Link
                  to="/admin/sequences/$id"
                  params={{ id: enrollment.sequenceId }}
                  search={{ tab: 'enrollments', enrollment: enrollment.id }}
                  className="font-medium text-blue-800 underline-offset-4 hover:underline"
                >
                  {enrollment.sequenceName}
                </Link>
                <EnrollmentStatusBadge enrollment={enrollment} />
              </div>
              {live && (
                <p className="text-sm text-slate-800">
                  {currentStepText(enrollment)}
                  {enrollment.nextRunAt ? ` · next ${formatNextSend(enrollment.nextRunAt, enrollment.timeZone)}` : ''}
                </p>
              )}
              <EnrollmentActions enrollment={enrollment} sequenceName={enrollment.sequenceName} />
            </li>
          );
        })}
      </ul>
    );
  return (
    <Card>
      <CardHeader>
        <CardTitle>Sequences</CardTitle>
        <CardDescription>
          Timed texts, emails and calls.{' '}
          <Link to="/admin/sequences" className="text-blue-800 underline underline-offset-4">
            All sequences
          </Link>
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {body}
        <div>
          <AddToSequenceButton candidateIds={[candidate.id]} organizationId={candidate.organizationId} source="manual" trialId={candidate.trialIds?.[0]} />
        </div>
      </CardContent>
    </Card>
  );
}
