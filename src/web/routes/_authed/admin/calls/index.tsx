import { createFileRoute } from '@tanstack/react-router';
import { callsSearch } from '../../../../../contract/search';
import { CallsPage } from '../../../../features/voice/CallsPage';

/** Calls: organization staff read their own (the server scopes every call to its organization). */
export const Route = createFileRoute('/_authed/admin/calls/')({
  validateSearch: callsSearch,
  staticData: { orgStaffAllowed: true },
  component: function CallsRoute() {
    const { filter, page } = Route.useSearch();
    const navigate = Route.useNavigate();
    return <CallsPage filter={filter} page={page ?? 1} onChange={(patch) => void navigate({ search: (previous) => ({ ...previous, ...patch }) })} />;
  },
});
