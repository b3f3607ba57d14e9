import { createFileRoute } from '@tanstack/react-router';
import { callbacksSearch } from '../../../../contract/search';
import { CallbacksPage } from '../../../features/callbacks/CallbacksPage';

/** Callbacks: organization staff read and manage their own (the server scopes every callback to its organization). */
export const Route = createFileRoute('/_authed/admin/callbacks')({
  validateSearch: callbacksSearch,
  staticData: { crumb: 'Callbacks', orgStaffAllowed: true },
  component: function CallbacksRoute() {
    const { filter, page, status, orgs } = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <CallbacksPage
        search={{ filter, page: page ?? 1, status, orgs }}
        onChange={(patch) => void navigate({ search: (previous) => ({ ...previous, ...patch }) })}
      />
    );
  },
});
