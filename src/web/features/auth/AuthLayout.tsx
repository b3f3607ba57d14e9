import type { ReactNode } from 'react';
import { Logo } from '../../components/Logo';
import { Card, CardContent, CardHeader } from '../../components/ui';

export function AuthLayout({ title, description, children, footer }: { title: string; description?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col items-center justify-center bg-slate-50 px-4 py-12">
      <header className="mb-6">
        <Logo size="l" />
      </header>
      <main className="w-full max-w-md">
        <Card>
          <CardHeader>
            <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
            {description && <p className="text-sm text-slate-700">{description}</p>}
          </CardHeader>
          <CardContent>{children}</CardContent>
        </Card>
        {footer && <div className="mt-4 text-center text-sm text-slate-700">{footer}</div>}
      </main>
    </div>
  );
}
