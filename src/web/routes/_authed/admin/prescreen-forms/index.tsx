import { createFileRoute } from '@tanstack/react-router';
import { PrescreenFormsPage } from '../../../../features/prescreen-forms/PrescreenFormsPage';

export const Route = createFileRoute('/_authed/admin/prescreen-forms/')({
  component: PrescreenFormsPage,
});
