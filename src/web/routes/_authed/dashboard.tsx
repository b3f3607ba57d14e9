import { createFileRoute, redirect } from '@tanstack/react-router';
import { sponsorDashboardSearch } from '../../../contract/search';

/** Old address of the sponsor demo's dashboard: the demo lives under /admin/demo/sponsors (docs/product-spec.md §2). */
export const Route = createFileRoute('/_authed/dashboard')({
  validateSearch: sponsorDashboardSearch,
  staticData: { adminOnly: true },
  beforeLoad: ({ search }) => {
    throw redirect({ to: '/admin/demo/sponsors/dashboard', search, replace: true });
  },
});
