import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../../components/ComingSoon';

export const Route = createFileRoute('/_authed/admin/onboard')({
  staticData: { crumb: "Onboard" },
  component: () => <ComingSoon title="Onboard" description="A guided set-up of a new research site (organization, staff, first trial and agents) will run here." />,
});
