import { createFileRoute } from '@tanstack/react-router';
import { NewSequencePage } from '../../../../features/sequences/SequenceBuilder';

export const Route = createFileRoute('/_authed/admin/sequences/new')({
  staticData: { crumb: 'New sequence' },
  component: NewSequencePage,
});
