import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/_authed/candidates')({
  staticData: { crumb: 'Candidates' },
});
