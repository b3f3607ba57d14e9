import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../../../components/ComingSoon';

export const Route = createFileRoute('/_authed/admin/demo/')({
  component: () => <ComingSoon title="Demo" description="The sponsor-facing demos of the voice agent, the prescreen and the chat will start from here." />,
});
