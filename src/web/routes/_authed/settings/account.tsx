import { createFileRoute } from '@tanstack/react-router';
import { AccountSettingsPage } from '../../../features/account/AccountSettingsPage';

export const Route = createFileRoute('/_authed/settings/account')({
  staticData: { crumb: 'Account' },
  component: AccountSettingsPage,
});
