import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../../components/ComingSoon';

export const Route = createFileRoute('/_authed/admin/trial-criteria')({
  staticData: { crumb: "Trial criteria" },
  component: () => <ComingSoon title="Trial criteria" description="The inclusion and exclusion criteria each prescreen is checked against will be edited here." />,
});
