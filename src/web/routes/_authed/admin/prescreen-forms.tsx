import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../../components/ComingSoon';

export const Route = createFileRoute('/_authed/admin/prescreen-forms')({
  staticData: { crumb: "Prescreen forms" },
  component: () => <ComingSoon title="Prescreen forms" description="Prescreen question forms, generated study blocks and duplicate-question clean-up will be managed here." />,
});
