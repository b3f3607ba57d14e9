import { Link } from '@tanstack/react-router';
import { RecordLoadError } from '../../components/ErrorCard';
import { buttonClass } from '../../components/ui';

/** A sequence that could not be loaded (not found, or another organization's), with a way back to the list. */
export function SequenceLoadError({ error, heading, onRetry }: { error: unknown; heading: string; onRetry: () => void }) {
  return (
    <RecordLoadError
      error={error}
      heading={heading}
      missing={{ heading: 'Sequence not found', title: 'This sequence does not exist' }}
      missingMessage="It may belong to another organization. Go back to the list to find another."
      failed="Could not load the sequence"
      onRetry={onRetry}
      back={
        <Link to="/admin/sequences" className={buttonClass('secondary')}>
          Back to sequences
        </Link>
      }
    />
  );
}
