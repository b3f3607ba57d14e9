import { createFileRoute, redirect } from '@tanstack/react-router';

export const Route = createFileRoute('/_authed/prescreen/')({
  beforeLoad: () => {
    throw redirect({ to: '/prescreen/results', replace: true });
  },
});
