import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../../components/ComingSoon';

export const Route = createFileRoute('/_authed/admin/trials')({
  staticData: { crumb: "Trials" },
  component: () => <ComingSoon title="Trials (admin)" description="Every trial across organizations, with creation from a ClinicalTrials.gov record, will be managed here." />,
});
