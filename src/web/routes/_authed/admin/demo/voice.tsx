import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../../../components/ComingSoon';

export const Route = createFileRoute('/_authed/admin/demo/voice')({
  staticData: { crumb: "Voice" },
  component: () => <ComingSoon title="Voice demo" description="A live demonstration call with the prescreen voice agent will run here." />,
});
