import type { Trial } from '../../../contract/trials';
import { EditOrCreateButton } from '../../components/dialogs';
import { lazyDialog } from '../../components/lazy-dialog';

export interface TrialFormDialogProps {
  trial?: Trial;
  /** Given to global admins, who choose where a new trial goes. */
  organizations?: Array<{ id: string; name: string }>;
  defaultOrganizationId?: string;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}

export const trialFormTitle = ({ trial }: { trial?: Trial }) => (trial ? 'Edit trial' : 'Create trial');

const LazyTrialFormDialog = lazyDialog<TrialFormDialogProps>(() => import('./TrialFormDialog').then((module) => module.TrialFormDialog), trialFormTitle);

/** "Create trial" (no `trial`) or "Edit details": the form (react-hook-form, zod) loads when the dialog opens. */
export function TrialFormDialog({ triggerVariant = 'primary', ...props }: TrialFormDialogProps & { triggerVariant?: 'primary' | 'secondary' }) {
  const editing = Boolean(props.trial);
  return (
    <LazyTrialFormDialog
      {...props}
      trigger={<EditOrCreateButton editing={editing} label={editing ? 'Edit details' : 'Create trial'} variant={triggerVariant} />}
    />
  );
}
