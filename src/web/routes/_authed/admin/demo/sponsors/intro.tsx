import { createFileRoute } from '@tanstack/react-router';
import { SponsorDemoStep } from '../../../../../features/demo/SponsorDemoStep';

export const Route = createFileRoute('/_authed/admin/demo/sponsors/intro')({
  staticData: { crumb: 'Intro' },
  component: () => <SponsorDemoStep step="/admin/demo/sponsors/intro" title="Sponsor demo" description="The introduction of the sponsor demo: how Cohortly finds, prescreens and books candidates for a trial." />,
});
