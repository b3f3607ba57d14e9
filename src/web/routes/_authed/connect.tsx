import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../components/ComingSoon';

export const Route = createFileRoute('/_authed/connect')({
  staticData: { crumb: "Connect", adminOnly: true },
  component: () => <ComingSoon title="Connect" description="The sponsor demo's step connecting the chosen sites to Cohortly will run here." />,
});
