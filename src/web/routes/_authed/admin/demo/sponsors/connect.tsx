import { createFileRoute } from '@tanstack/react-router';
import { SponsorDemoStep } from '../../../../../features/demo/SponsorDemoStep';

export const Route = createFileRoute('/_authed/admin/demo/sponsors/connect')({
  staticData: { crumb: 'Connect' },
  component: () => <SponsorDemoStep step="/admin/demo/sponsors/connect" title="Connect" description="The sponsor demo's step connecting the chosen sites to Cohortly will run here." />,
});
