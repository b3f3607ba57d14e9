import type { ChatAgent } from '../../../contract/chat';
import { EditOrCreateButton } from '../../components/dialogs';
import { lazyDialog } from '../../components/lazy-dialog';

export interface AgentDialogProps {
  agent?: ChatAgent;
  /** A new agent: the admin's organization filter, whose trials the dialog offers (none: the default selection). */
  orgs?: string[];
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}

export const agentDialogTitle = ({ agent }: { agent?: ChatAgent }) => (agent ? `Edit ${agent.name}` : 'New chat agent');

const LazyAgentDialog = lazyDialog<AgentDialogProps>(() => import('./AgentDialog').then((module) => module.AgentDialog), agentDialogTitle);

/** Create a chat agent (no `agent`) or edit one; its form loads when the dialog opens. Without `open` it has its own button. */
export function AgentDialog(props: AgentDialogProps) {
  const trigger = props.open === undefined ? <EditOrCreateButton editing={Boolean(props.agent)} label={props.agent ? 'Edit' : 'New agent'} /> : undefined;
  return <LazyAgentDialog {...props} trigger={trigger} />;
}
