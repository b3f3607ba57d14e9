import { createFileRoute } from '@tanstack/react-router';
import { processedRunsSearch } from '../../../../contract/search';
import { ComingSoon } from '../../../components/ComingSoon';

export const Route = createFileRoute('/_authed/admin/processed-runs')({
  validateSearch: processedRunsSearch,
  staticData: { crumb: "Processed runs" },
  component: () => <ComingSoon title="Processed runs" description="Processing runs over calls and chats and the data they extracted will be listed here." search={Route.useSearch()} />,
});
