import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../../../components/ComingSoon';

export const Route = createFileRoute('/_authed/candidates/$id/contact-history')({
  staticData: { crumb: 'Contact history' },
  component: function ContactHistoryRoute() {
    const { id } = Route.useParams();
    return (
      <ComingSoon
        title="Contact history"
        description="Every call, SMS and chat with this candidate, in order, will be listed here."
        search={{ candidate: id }}
      />
    );
  },
});
