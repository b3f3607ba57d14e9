import { Link } from '@tanstack/react-router';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { Logo } from './Logo';
import { SkipLink } from './SkipLink';

/**
 * The layout of a screen shown to an audience (the sponsor demo, issue 32): the whole width for the content, no
 * admin sidebar or breadcrumbs, and one way back ("Exit demo") for the admin presenting it.
 */
export function PresentationShell({ label, exitTo, children }: { label: string; exitTo: string; children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      <SkipLink />
      <header className="sticky top-0 z-30 border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-14 w-full max-w-screen-2xl items-center gap-3 px-4 md:px-8">
          <Logo size="s" />
          <span className="border-l border-slate-200 pl-3 text-sm font-medium text-slate-800">{label}</span>
          <Link
            to={exitTo}
            className="ml-auto inline-flex shrink-0 items-center gap-1 whitespace-nowrap rounded-md px-2 py-1.5 text-sm text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700"
          >
            <X aria-hidden="true" className="h-4 w-4" />
            Exit demo
          </Link>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto w-full min-w-0 max-w-screen-2xl flex-1 p-4 focus:outline-none md:p-8">
        {children}
      </main>
    </div>
  );
}
