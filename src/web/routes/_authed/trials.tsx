import { createFileRoute } from '@tanstack/react-router';

/** /trials and its children (list, import, detail) share the "Trials" breadcrumb. */
export const Route = createFileRoute('/_authed/trials')({
  staticData: { crumb: 'Trials' },
});
