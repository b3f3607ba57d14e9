import { ListPlus, UserPlus } from 'lucide-react';
import { lazyDialog } from '../../components/lazy-dialog';
import { Button } from '../../components/ui';
import type { AddToSequenceDialogProps, EnrollCandidatesDialogProps } from './EnrollDialogs';

/*
 * The sequence dialogs' triggers: their forms (and the candidate search) load when they open, so the pages
 * that offer them (candidates, the trial matcher, a candidate's page) do not carry them in their first JavaScript.
 */

const LazyEnrollCandidates = lazyDialog<EnrollCandidatesDialogProps>(
  () => import('./EnrollDialogs').then((module) => module.EnrollCandidatesDialog),
  ({ sequence }) => `Enroll candidates in ${sequence.name}`,
);
const LazyAddToSequence = lazyDialog<AddToSequenceDialogProps>(
  () => import('./EnrollDialogs').then((module) => module.AddToSequenceDialog),
  ({ candidateIds }) => `Add ${candidateIds.length === 1 ? '1 candidate' : `${candidateIds.length.toLocaleString('en-US')} candidates`} to a sequence`,
);

export function EnrollCandidatesButton(props: Omit<EnrollCandidatesDialogProps, 'open' | 'onOpenChange'> & { disabled?: boolean }) {
  const { disabled, ...rest } = props;
  return (
    <LazyEnrollCandidates
      {...rest}
      trigger={
        <Button disabled={disabled}>
          <UserPlus aria-hidden="true" className="h-4 w-4" />
          Enroll candidates
        </Button>
      }
    />
  );
}

export function AddToSequenceButton({
  size = 'sm',
  variant = 'secondary',
  ...props
}: Omit<AddToSequenceDialogProps, 'open' | 'onOpenChange'> & { size?: 'sm' | 'md'; variant?: 'primary' | 'secondary' }) {
  return (
    <LazyAddToSequence
      {...props}
      trigger={
        <Button size={size} variant={variant}>
          <ListPlus aria-hidden="true" className="h-4 w-4" />
          Add to sequence
        </Button>
      }
    />
  );
}
