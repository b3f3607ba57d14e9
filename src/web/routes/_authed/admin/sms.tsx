import { createFileRoute } from '@tanstack/react-router';
import { smsSearch } from '../../../../contract/search';
import { SmsPage } from '../../../features/sms/SmsPage';

/**
 * SMS threads by candidate and the selected one (`candidateId`). Organization staff may open it too: they text
 * their own organization's candidates (the server scopes every SMS endpoint to the organization).
 */
export const Route = createFileRoute('/_authed/admin/sms')({
  validateSearch: smsSearch,
  staticData: { crumb: 'SMS', orgStaffAllowed: true },
  component: function SmsRoute() {
    const { candidateId, orgs } = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <SmsPage
        candidateId={candidateId}
        orgs={orgs}
        onSelect={(id) => void navigate({ search: (previous) => ({ ...previous, candidateId: id }) })}
        onOrgsChange={(next) => void navigate({ search: (previous) => ({ ...previous, orgs: next }), replace: true })}
      />
    );
  },
});
