import { createFileRoute } from '@tanstack/react-router';
import { PhoneNumbersPage } from '../../../features/phone-numbers/PhoneNumbersPage';

/** Phone numbers: Cohortly's internal admins assign them to organizations (staff see theirs in the voice agent dialog). */
export const Route = createFileRoute('/_authed/admin/phone-numbers')({
  staticData: { crumb: 'Phone numbers' },
  component: PhoneNumbersPage,
});
