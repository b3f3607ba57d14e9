import { createFileRoute } from '@tanstack/react-router';
import { MailOutboxPage } from '../../../features/users/MailOutboxPage';

/** Mail kept instead of sent when no mail server is configured: Cohortly's internal admins only (issue 32). */
export const Route = createFileRoute('/_authed/admin/mail-outbox')({
  staticData: { crumb: 'Mail outbox' },
  component: MailOutboxPage,
});
