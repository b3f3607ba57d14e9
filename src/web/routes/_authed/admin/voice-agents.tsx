import { createFileRoute } from '@tanstack/react-router';
import { voiceAgentsSearch } from '../../../../contract/search';
import { VoiceAgentsPage } from '../../../features/voice/VoiceAgentsPage';

/** Voice agents: organization staff configure their own (the server scopes every agent to its organization). */
export const Route = createFileRoute('/_authed/admin/voice-agents')({
  validateSearch: voiceAgentsSearch,
  staticData: { crumb: 'Voice agents', orgStaffAllowed: true },
  component: function VoiceAgentsRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <VoiceAgentsPage
        type={search['agent-type']}
        orgs={search.orgs}
        onOrgsChange={(next) => void navigate({ search: (previous) => ({ ...previous, orgs: next }), replace: true })}
        onTypeChange={(next) =>
          void navigate({
            search: (previous) => ({ ...previous, 'agent-type': next }),
            replace: true,
          })
        }
      />
    );
  },
});
