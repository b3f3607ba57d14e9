import { createFileRoute } from '@tanstack/react-router';
import { SponsorDemoStep } from '../../../../../features/demo/SponsorDemoStep';

export const Route = createFileRoute('/_authed/admin/demo/sponsors/site-selection')({
  staticData: { crumb: 'Site selection' },
  component: () => <SponsorDemoStep step="/admin/demo/sponsors/site-selection" title="Site selection" description="The sponsor demo's choice of research sites for a trial will be made here." />,
});
