import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../components/ComingSoon';

export const Route = createFileRoute('/_authed/complete')({
  staticData: { crumb: "Complete", adminOnly: true },
  component: () => <ComingSoon title="Demo complete" description="The end of the sponsor demo, with a summary of what was shown, will be here." />,
});
