import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../components/ComingSoon';

export const Route = createFileRoute('/_authed/site-selection')({
  staticData: { crumb: "Site selection", adminOnly: true },
  component: () => <ComingSoon title="Site selection" description="The sponsor demo's choice of research sites for a trial will be made here." />,
});
