import { createFileRoute } from '@tanstack/react-router';
import { CallDetailPage } from '../../../../features/voice/CallDetailPage';

export const Route = createFileRoute('/_authed/admin/calls/$callId')({
  staticData: { crumb: 'Call detail', orgStaffAllowed: true },
  component: function CallDetailRoute() {
    const { callId } = Route.useParams();
    return <CallDetailPage key={callId} callId={callId} />;
  },
});
