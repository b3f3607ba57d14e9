import { createFileRoute } from '@tanstack/react-router';
import { ImportTrialPage } from '../../../features/trials/ImportTrialPage';

export const Route = createFileRoute('/_authed/trials/import')({
  staticData: { crumb: 'Import from ClinicalTrials.gov' },
  component: ImportTrialPage,
});
