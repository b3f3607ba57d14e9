import { createFileRoute } from '@tanstack/react-router';
import { UnmatchedTextsPage } from '../../../features/sms/UnmatchedTextsPage';

/** Texts no organization could be matched to: Cohortly's internal admins only (decisions 118, 119). */
export const Route = createFileRoute('/_authed/admin/unmatched-texts')({
  staticData: { crumb: 'Unmatched texts' },
  component: UnmatchedTextsPage,
});
