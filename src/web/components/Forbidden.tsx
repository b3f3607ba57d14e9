import { ShieldAlert } from 'lucide-react';
import { Card } from './ui';

export function Forbidden({ message = 'This area is for Cohortly admins only.' }: { message?: string }) {
  return (
    <Card className="mx-auto max-w-lg p-6" role="alert">
      <div className="flex items-start gap-3">
        <ShieldAlert aria-hidden="true" className="mt-1 h-6 w-6 shrink-0 text-red-700" />
        <div>
          <h1 className="text-xl font-semibold text-slate-900">Forbidden</h1>
          <p className="mt-1 text-sm text-slate-700">{message}</p>
        </div>
      </div>
    </Card>
  );
}
