import { UserPlus } from 'lucide-react';
import type { Candidate } from '../../../contract/candidates';
import { EditOrCreateButton } from '../../components/dialogs';
import { lazyDialog } from '../../components/lazy-dialog';

export interface CandidateFormDialogProps {
  candidate?: Candidate;
  /** Given to global admins, who choose where a new candidate goes. */
  organizations?: Array<{ id: string; name: string }>;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}

export const candidateFormTitle = ({ candidate }: { candidate?: Candidate }) => (candidate ? 'Edit candidate' : 'Add candidate');

const LazyCandidateFormDialog = lazyDialog<CandidateFormDialogProps>(
  () => import('./CandidateFormDialog').then((module) => module.CandidateFormDialog),
  candidateFormTitle,
);

/** "Add candidate" (no `candidate`) or "Edit profile": the form (react-hook-form, zod, the time-zone list) loads when the dialog opens. */
export function CandidateFormDialog({ triggerVariant = 'primary', ...props }: CandidateFormDialogProps & { triggerVariant?: 'primary' | 'secondary' }) {
  const editing = Boolean(props.candidate);
  return (
    <LazyCandidateFormDialog
      {...props}
      trigger={<EditOrCreateButton editing={editing} label={editing ? 'Edit profile' : 'Add candidate'} createIcon={UserPlus} variant={triggerVariant} />}
    />
  );
}
