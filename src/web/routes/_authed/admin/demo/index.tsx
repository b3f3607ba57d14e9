import { createFileRoute } from '@tanstack/react-router';
import { DemoHubPage } from '../../../../features/demo/DemoHubPage';

/** The demos an internal admin can show a sponsor or a site, and the demo data's status and reset. */
export const Route = createFileRoute('/_authed/admin/demo/')({
  component: DemoHubPage,
});
