import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../../../components/ComingSoon';

export const Route = createFileRoute('/_authed/admin/calls/$callId')({
  staticData: { crumb: 'Call detail' },
  component: function CallDetailRoute() {
    const { callId } = Route.useParams();
    return (
      <ComingSoon
        title="Call detail"
        description="The recording, transcript, extracted answers and outcome of this call will be shown here."
        search={{ call: callId }}
      />
    );
  },
});
