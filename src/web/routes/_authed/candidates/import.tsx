import { createFileRoute } from '@tanstack/react-router';
import { ImportCandidatesPage } from '../../../features/candidates/ImportCandidatesPage';

export const Route = createFileRoute('/_authed/candidates/import')({
  staticData: { crumb: 'Import' },
  component: ImportCandidatesPage,
});
