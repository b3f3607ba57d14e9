import { createFileRoute, redirect } from '@tanstack/react-router';

/** Old address of a sponsor demo step: the demo lives under /admin/demo/sponsors (docs/product-spec.md §2). */
export const Route = createFileRoute('/_authed/complete')({
  staticData: { adminOnly: true },
  beforeLoad: () => {
    throw redirect({ to: '/admin/demo/sponsors/complete', replace: true });
  },
});
