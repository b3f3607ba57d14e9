import { MessageSquarePlus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { lazyDialog } from '../../components/lazy-dialog';
import { Button, EmptyState, PageHeader } from '../../components/ui';
import { useActiveOrganization } from '../../lib/active-organization';
import { OrganizationFilter } from '../trials/OrganizationFilter';
import { useIsGlobal } from '../trials/hooks';
import { ThreadList } from './ThreadList';
import { ThreadPane } from './ThreadPane';

// The candidate search loads when the dialog first opens (it is shared with the sequences' pickers).
const NewMessageDialog = lazyDialog(
  () => import('./NewMessageDialog').then((module) => module.NewMessageDialog),
  () => 'New message',
);

/**
 * /admin/sms: conversations by candidate beside the selected one (`candidateId` in the URL, so it survives a
 * reload). Staff text their own organization's candidates; a global admin may narrow the list with `orgs`.
 */
export function SmsPage({
  candidateId,
  orgs,
  onSelect,
  onOrgsChange,
}: {
  candidateId?: string;
  orgs?: string[];
  onSelect: (candidateId: string) => void;
  onOrgsChange: (next: string[] | undefined) => void;
}) {
  const isGlobal = useIsGlobal();
  const { organizations } = useActiveOrganization();
  const [dialogOpen, setDialogOpen] = useState(false);
  const scopedOrgs = isGlobal ? orgs : undefined;
  const organizationNames = useMemo(() => (isGlobal ? new Map(organizations.map((org) => [org.id, org.name])) : undefined), [isGlobal, organizations]);

  return (
    <div>
      <PageHeader
        title="SMS"
        description="Text messages with candidates: replies land here, and opt-outs and do-not-contact are respected."
        actions={
          <>
            {isGlobal && (
              <OrganizationFilter organizations={organizations.map((org) => ({ id: org.id, name: org.name }))} selected={orgs} onChange={onOrgsChange} />
            )}
            <Button onClick={() => setDialogOpen(true)} onPointerEnter={() => void NewMessageDialog.preload()}>
              <MessageSquarePlus aria-hidden="true" className="h-4 w-4" />
              New message
            </Button>
          </>
        }
      />
      <div className="grid items-start gap-4 lg:grid-cols-[minmax(16rem,22rem)_1fr]">
        <ThreadList selectedId={candidateId} orgs={scopedOrgs} organizationNames={organizationNames} onNewMessage={() => setDialogOpen(true)} />
        {candidateId ? (
          <ThreadPane candidateId={candidateId} />
        ) : (
          <EmptyState title="No conversation open">
            <p>Choose a conversation on the left, or start a new message.</p>
          </EmptyState>
        )}
      </div>
      <NewMessageDialog open={dialogOpen} onOpenChange={setDialogOpen} orgs={scopedOrgs} onPick={onSelect} />
    </div>
  );
}
