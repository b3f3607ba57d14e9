import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/_authed/trial-matcher')({
  staticData: { crumb: 'Trial matcher' },
});
