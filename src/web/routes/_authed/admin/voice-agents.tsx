import { createFileRoute } from '@tanstack/react-router';
import { voiceAgentsSearch } from '../../../../contract/search';
import { ComingSoon } from '../../../components/ComingSoon';

export const Route = createFileRoute('/_authed/admin/voice-agents')({
  validateSearch: voiceAgentsSearch,
  staticData: { crumb: "Voice agents" },
  component: () => <ComingSoon title="Voice agents" description="Prescreen and site-visit scheduling voice agents and their scripts will be configured here." search={Route.useSearch()} />,
});
