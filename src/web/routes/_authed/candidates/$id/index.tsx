import { createFileRoute } from '@tanstack/react-router';
import { CandidateDetailPage } from '../../../../features/candidates/CandidateDetailPage';

export const Route = createFileRoute('/_authed/candidates/$id/')({
  component: function CandidateDetailRoute() {
    const { id } = Route.useParams();
    return <CandidateDetailPage candidateId={id} />;
  },
});
