import { Construction } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent, PageHeader } from './ui';

/** The placeholder of a screen later work builds: what it will be. No internals (route params, filters). */
export function ComingSoon({ title, description, children }: { title: string; description: string; children?: ReactNode }) {
  return (
    <div>
      <PageHeader title={title} />
      <Card>
        <CardContent className="grid gap-4 pt-5">
          <div className="flex items-start gap-3">
            <Construction aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-amber-700" />
            <div>
              <h2 className="font-semibold text-slate-900">Coming soon</h2>
              <p className="text-sm text-slate-700">{description}</p>
            </div>
          </div>
          {children}
        </CardContent>
      </Card>
    </div>
  );
}
