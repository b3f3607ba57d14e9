import { createFileRoute } from '@tanstack/react-router';
import { ContactHistoryPage } from '../../../../features/contact-history/ContactHistoryPage';

export const Route = createFileRoute('/_authed/candidates/$id/contact-history')({
  staticData: { crumb: 'Contact history' },
  component: function ContactHistoryRoute() {
    const { id } = Route.useParams();
    return <ContactHistoryPage candidateId={id} />;
  },
});
