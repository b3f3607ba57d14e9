import { Construction } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent, PageHeader } from './ui';

/** The placeholder of a screen later work builds: what it will be, and the search params it already keeps. */
export function ComingSoon({ title, description, search, children }: { title: string; description: string; search?: Record<string, unknown>; children?: ReactNode }) {
  const entries = Object.entries(search ?? {}).filter(([, value]) => value !== undefined);
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
          {entries.length > 0 && (
            <div>
              <h3 className="text-sm font-semibold text-slate-900">Current filters</h3>
              <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm" data-testid="search-params">
                {entries.map(([key, value]) => (
                  <div key={key} className="contents">
                    <dt className="font-mono text-slate-700">{key}</dt>
                    <dd className="font-mono text-slate-900">{Array.isArray(value) ? value.join(', ') : String(value)}</dd>
                  </div>
                ))}
              </dl>
            </div>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
