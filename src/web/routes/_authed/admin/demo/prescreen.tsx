import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../../../components/ComingSoon';

export const Route = createFileRoute('/_authed/admin/demo/prescreen')({
  staticData: { crumb: "Prescreen" },
  component: () => <ComingSoon title="Prescreen demo" description="A walk-through of a prescreen from answers to AI recommendation and human review will run here." />,
});
