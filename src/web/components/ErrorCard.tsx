import { AlertTriangle, RotateCcw } from 'lucide-react';
import { Button, Card } from './ui';
import { errorMessage } from '../lib/utils';

export function ErrorCard({ title = 'Could not load this', error, message, onRetry }: { title?: string; error?: unknown; message?: string; onRetry?: () => void }) {
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
