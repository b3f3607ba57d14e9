import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../../components/ComingSoon';

export const Route = createFileRoute('/_authed/admin/candidates')({
  staticData: { crumb: "Candidates" },
  component: () => <ComingSoon title="Candidates (admin)" description="Candidates across organizations, with bulk import and status resets, will be managed here." />,
});
