import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../../../../components/ComingSoon';

export const Route = createFileRoute('/_authed/admin/demo/sponsors/intro')({
  staticData: { crumb: "Intro" },
  component: () => <ComingSoon title="Sponsor demo" description="The introduction of the sponsor demo, leading through site selection, connection, the dashboard and completion, will be shown here." />,
});
