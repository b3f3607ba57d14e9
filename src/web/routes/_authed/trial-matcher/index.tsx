import { createFileRoute, redirect } from '@tanstack/react-router';
import { trialMatcherSearch } from '../../../../contract/search';

/** /trial-matcher/?gap-analysis=ID opens that trial's gap analysis; without it, home. */
export const Route = createFileRoute('/_authed/trial-matcher/')({
  validateSearch: trialMatcherSearch,
  beforeLoad: ({ search }) => {
    const id = search['gap-analysis'];
    if (id) throw redirect({ to: '/trial-matcher/$id', params: { id }, search: { 'gap-analysis': id }, replace: true });
    throw redirect({ to: '/', replace: true });
  },
});
