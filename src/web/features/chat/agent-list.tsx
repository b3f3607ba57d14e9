import { Pencil, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { toast } from 'sonner';
import { ConfirmDialog } from '../../components/dialogs';
import { Button } from '../../components/ui';

/** What the chat and voice agent lists show of an agent. */
interface ListedAgent {
  id: string;
  name: string;
}

/** An agent row's Edit and Delete buttons, named after the agent for screen readers; `children` come first. */
export function AgentRowActions({ agent, onEdit, onDelete, children }: { agent: ListedAgent; onEdit: () => void; onDelete: () => void; children?: ReactNode }) {
  return (
    <div className="flex justify-end gap-1.5">
      {children}
      <Button variant="ghost" size="icon" onClick={onEdit} aria-label={`Edit ${agent.name}`} title="Edit">
        <Pencil aria-hidden="true" className="h-4 w-4" />
      </Button>
      <Button variant="ghost" size="icon" className="text-red-800 hover:bg-red-50" onClick={onDelete} aria-label={`Delete ${agent.name}`} title="Delete">
        <Trash2 aria-hidden="true" className="h-4 w-4" />
      </Button>
    </div>
  );
}

/** Asks before deleting `agent` (none: closed); `description` says what happens to its conversations or calls. */
export function DeleteAgentDialog({
  agent,
  onClose,
  remove,
  description,
}: {
  agent: ListedAgent | null;
  onClose: () => void;
  remove: { isPending: boolean; mutate: (id: string, options: { onSuccess: () => void }) => void };
  description: string;
}) {
  return (
    <ConfirmDialog
      open={agent !== null}
      onOpenChange={(open) => !open && onClose()}
      title={`Delete ${agent?.name ?? 'this agent'}?`}
      description={description}
      confirmLabel="Delete agent"
      pending={remove.isPending}
      onConfirm={() => {
        if (!agent) return;
        remove.mutate(agent.id, {
          onSuccess: () => {
            toast.success(`Deleted ${agent.name}`);
            onClose();
          },
        });
      }}
    />
  );
}
