import type { VoiceAgent, VoiceAgentType } from '../../../contract/voice';
import { EditOrCreateButton } from '../../components/dialogs';
import { lazyDialog } from '../../components/lazy-dialog';

export interface VoiceAgentDialogProps {
  agent?: VoiceAgent;
  type?: VoiceAgentType;
  /** A new agent: the admin's organization filter; with one organization chosen the agent belongs to it, else to the active one. */
  orgs?: string[];
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}

export const voiceAgentDialogTitle = ({ agent }: { agent?: VoiceAgent }) => (agent ? `Edit ${agent.name}` : 'New voice agent');

const LazyVoiceAgentDialog = lazyDialog<VoiceAgentDialogProps>(
  () => import('./VoiceAgentDialog').then((module) => module.VoiceAgentDialog),
  voiceAgentDialogTitle,
);

/**
 * Create a voice agent (no `agent`, of `type`) or edit one. Its form (react-hook-form, zod, the site picker)
 * loads when the dialog opens. Without `open` it has its own button.
 */
export function VoiceAgentDialog(props: VoiceAgentDialogProps) {
  const trigger = props.open === undefined ? <EditOrCreateButton editing={Boolean(props.agent)} label={props.agent ? 'Edit' : 'New voice agent'} /> : undefined;
  return <LazyVoiceAgentDialog {...props} trigger={trigger} />;
}
