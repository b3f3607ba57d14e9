import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { CALLBACK_STATUSES } from '../../../../contract/callbacks';
import { callsSearch } from '../../../../contract/search';
import { CallbacksPage } from '../../../features/callbacks/CallbacksPage';

/** The spec's search (`filter`, `page`) plus the status filter and, for global admins, `orgs`. */
const search = callsSearch.extend({
  status: z.enum(CALLBACK_STATUSES).optional().catch(undefined),
  orgs: z
    .union([z.array(z.string()), z.string().transform((value) => value.split(',').filter(Boolean))])
    .optional()
    .catch(undefined),
});

/** Callbacks: organization staff read and manage their own (the server scopes every callback to its organization). */
export const Route = createFileRoute('/_authed/admin/callbacks')({
  validateSearch: search,
  staticData: { crumb: 'Callbacks', orgStaffAllowed: true },
  component: function CallbacksRoute() {
    const { filter, page, status, orgs } = Route.useSearch();
    const navigate = Route.useNavigate();
    return <CallbacksPage search={{ filter, page: page ?? 1, status, orgs }} onChange={(patch) => void navigate({ search: (previous) => ({ ...previous, ...patch }) })} />;
  },
});
