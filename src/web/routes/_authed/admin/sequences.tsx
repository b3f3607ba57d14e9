import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../../components/ComingSoon';

export const Route = createFileRoute('/_authed/admin/sequences')({
  staticData: { crumb: "Sequences" },
  component: () => <ComingSoon title="Sequences" description="Outreach sequences (timed SMS and calls to candidates) will be managed here." />,
});
