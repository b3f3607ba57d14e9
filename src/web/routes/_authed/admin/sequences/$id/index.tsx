import { createFileRoute } from '@tanstack/react-router';
import { sequenceSearch } from '../../../../../../contract/search';
import { SequenceDetailPage } from '../../../../../features/sequences/SequenceDetailPage';

export const Route = createFileRoute('/_authed/admin/sequences/$id/')({
  validateSearch: sequenceSearch,
  component: function SequenceRoute() {
    const { id } = Route.useParams();
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <SequenceDetailPage
        key={id}
        sequenceId={id}
        search={search}
        onChange={(patch) =>
          void navigate({ search: (previous) => ({ ...previous, ...patch }), replace: patch.tab === undefined && patch.enrollment === undefined })
        }
      />
    );
  },
});
