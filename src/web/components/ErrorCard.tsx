import { AlertTriangle, RotateCcw } from 'lucide-react';
import { Button, Card } from './ui';
import type { ReactNode } from 'react';
import { ApiRequestError } from '../lib/api';
import { errorMessage } from '../lib/utils';

export function ErrorCard({
  title = 'Could not load this',
  error,
  message,
  onRetry,
}: {
  title?: string;
  error?: unknown;
  message?: string;
  onRetry?: () => void;
}) {
  const text = message ?? errorMessage(error, 'An unexpected error occurred.');
  return (
    <Card role="alert" className="border-red-200 p-6">
      <div className="flex items-start gap-3">
        <AlertTriangle aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-red-700" />
        <div className="grid gap-2">
          <h2 className="font-semibold text-slate-900">{title}</h2>
          <p className="text-sm text-slate-700">{text}</p>
          {onRetry && (
            <div>
              <Button variant="secondary" size="sm" onClick={onRetry}>
                <RotateCcw aria-hidden="true" className="h-4 w-4" />
                Try Again
              </Button>
            </div>
          )}
        </div>
      </div>
    </Card>
  );
}

/**
 * A detail page whose record could not be loaded: "X not found" (404: deleted, or another organization's)
 * with no retry, or "Could not load" with one; and the way back to the list.
 */
export function RecordLoadError({
  error,
  heading,
  missing,
  failed,
  missingMessage,
  onRetry,
  back,
}: {
  error: unknown;
  heading: string;
  missing: { heading: string; title: string };
  failed: string;
  missingMessage: string;
  onRetry: () => void;
  back: ReactNode;
}) {
  const notFound = error instanceof ApiRequestError && error.status === 404;
  return (
    <div className="grid gap-4">
      <h1 className="text-2xl font-semibold text-slate-900">{notFound ? missing.heading : heading}</h1>
      <ErrorCard
        title={notFound ? missing.title : failed}
        message={notFound ? missingMessage : undefined}
        error={notFound ? undefined : error}
        onRetry={notFound ? undefined : onRetry}
      />
      <div>{back}</div>
    </div>
  );
}
