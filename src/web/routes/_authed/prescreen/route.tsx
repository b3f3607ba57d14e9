import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/_authed/prescreen')({
  staticData: { crumb: 'Prescreen' },
});
