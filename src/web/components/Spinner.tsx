import { Loader2 } from 'lucide-react';
import { cn } from '../lib/utils';

export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <div role="status" aria-label={label} className={cn('flex items-center justify-center p-8 text-blue-700', className)}>
      <Loader2 aria-hidden="true" className="h-8 w-8 animate-spin" />
    </div>
  );
}

export function FullPageSpinner() {
  return (
    <div className="flex min-h-screen items-center justify-center bg-slate-50">
      <Spinner />
    </div>
  );
}
