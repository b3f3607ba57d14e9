import { createFileRoute } from '@tanstack/react-router';
import { SponsorDemoStep } from '../../../../../features/demo/SponsorDemoStep';

export const Route = createFileRoute('/_authed/admin/demo/sponsors/complete')({
  staticData: { crumb: 'Complete' },
  component: () => <SponsorDemoStep step="/admin/demo/sponsors/complete" title="Demo complete" description="The end of the sponsor demo, with a summary of what was shown, will be here." />,
});
