import { createFileRoute } from '@tanstack/react-router';
import { VoiceDemoPage } from '../../../../features/demo/VoiceDemoPage';

export const Route = createFileRoute('/_authed/admin/demo/voice')({
  staticData: { crumb: 'Voice' },
  component: VoiceDemoPage,
});
