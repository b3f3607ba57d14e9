import { createFileRoute } from '@tanstack/react-router';
import { PrescreenDemoPage } from '../../../../features/demo/PrescreenDemoPage';

export const Route = createFileRoute('/_authed/admin/demo/prescreen')({
  staticData: { crumb: 'Prescreen' },
  component: PrescreenDemoPage,
});
