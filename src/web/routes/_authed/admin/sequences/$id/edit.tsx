import { createFileRoute } from '@tanstack/react-router';
import { EditSequencePage } from '../../../../../features/sequences/SequenceBuilder';

export const Route = createFileRoute('/_authed/admin/sequences/$id/edit')({
  staticData: { crumb: 'Edit' },
  component: function EditSequenceRoute() {
    const { id } = Route.useParams();
    return <EditSequencePage key={id} sequenceId={id} />;
  },
});
