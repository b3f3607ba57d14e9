import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { buttonClass, EmptyState } from '../../components/ui';
import { ApiRequestError } from '../../lib/api';
import type { useDemoSamplesQuery } from './queries';

/**
 * What the voice and prescreen demos show until their sample trials have loaded: a spinner, "No demo data yet"
 * with a way to the demo page (the API answers 409 before the first reset), or the error with a retry. Null once
 * the samples are there.
 */
export function demoSamplesState(samples: ReturnType<typeof useDemoSamplesQuery>): ReactNode | null {
  if (samples.isPending) return <Spinner label="Loading the demo trials" />;
  if (!samples.isError) return null;
  if (samples.error instanceof ApiRequestError && samples.error.status === 409) {
    return (
      <EmptyState title="No demo data yet">
        <p>Create the demo data first.</p>
        <Link to="/admin/demo" className={buttonClass('secondary', 'md', 'mt-3')}>
          Go to the demo page
        </Link>
      </EmptyState>
    );
  }
  return <ErrorCard title="Could not load the demo trials" error={samples.error} onRetry={() => void samples.refetch()} />;
}
