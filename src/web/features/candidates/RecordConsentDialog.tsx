import { ShieldCheck } from 'lucide-react';
import { Button } from '../../components/ui';
import { lazyDialog } from '../../components/lazy-dialog';
import { plural } from './format';
import type { RecordConsentProps } from './RecordConsentForm';

const LazyRecordConsentForm = lazyDialog<RecordConsentProps>(
  () => import('./RecordConsentForm').then((module) => module.RecordConsentForm),
  ({ count }) => `Record consent for ${plural(count, 'candidate')}`,
);

/**
 * "Record consent" for a selection or for every candidate the filters match. The form loads when the dialog opens
 * (hovering or focusing the button starts it): it validates with the contract's schemas, which the list page itself
 * never needs (decision 185). It starts empty on every opening.
 */
export function RecordConsentDialog(props: Omit<RecordConsentProps, 'open' | 'onOpenChange'>) {
  return (
    <LazyRecordConsentForm
      {...props}
      trigger={
        <Button size="sm" variant="secondary">
          <ShieldCheck aria-hidden="true" className="h-4 w-4" />
          {props.label}
        </Button>
      }
    />
  );
}
