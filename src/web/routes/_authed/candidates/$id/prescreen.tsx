import { createFileRoute } from '@tanstack/react-router';
import { RunPrescreenPage } from '../../../../features/prescreen/RunPrescreenPage';

export const Route = createFileRoute('/_authed/candidates/$id/prescreen')({
  staticData: { crumb: 'Run prescreen' },
  component: function RunPrescreenRoute() {
    const { id } = Route.useParams();
    return <RunPrescreenPage candidateId={id} />;
  },
});
