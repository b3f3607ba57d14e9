import { createFileRoute } from '@tanstack/react-router';
import { smsSearch } from '../../../../contract/search';
import { ComingSoon } from '../../../components/ComingSoon';

export const Route = createFileRoute('/_authed/admin/sms')({
  validateSearch: smsSearch,
  staticData: { crumb: "SMS" },
  component: () => <ComingSoon title="SMS" description="Text messages sent to and received from candidates will be shown here." search={Route.useSearch()} />,
});
