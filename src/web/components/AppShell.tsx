import { Link, Outlet, useMatches } from '@tanstack/react-router';
import { LogOut, Menu, X } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { useActiveOrganization } from '../lib/active-organization';
import { useAuth } from '../lib/auth';
import { useMediaQuery } from '../lib/media-query';
import { cn } from '../lib/utils';
import { Breadcrumbs } from './Breadcrumbs';
import { ErrorCard } from './ErrorCard';
import { Forbidden } from './Forbidden';
import { Logo } from './Logo';
import { PresentationShell } from './PresentationShell';
import { SkipLink } from './SkipLink';
import { Spinner } from './Spinner';
import { Button } from './ui';

interface NavItem {
  to: string;
  label: string;
}

const MAIN_NAV: NavItem[] = [
  { to: '/trials', label: 'Trials' },
  { to: '/candidates', label: 'Candidates' },
  { to: '/prescreen/results', label: 'Prescreen' },
];

/**
 * Internal admins: one list, no entry twice (Trials and Candidates are in Workspace: with the Cohortly
 * organization active they already show every organization). The dashboard follows the organizations
 * (decision 032); the demos come last (decision 017).
 */
const ADMIN_NAV: NavItem[] = [
  { to: '/admin/organizations', label: 'Organizations' },
  { to: '/admin/dashboard', label: 'Dashboard' },
  { to: '/admin/onboard', label: 'Onboarding' },
  { to: '/admin/organization', label: 'Organization' },
  { to: '/admin/users', label: 'Users' },
  { to: '/admin/trial-criteria', label: 'Trial criteria' },
  { to: '/admin/prescreen-forms', label: 'Prescreen forms' },
  { to: '/admin/voice-agents', label: 'Voice agents' },
  { to: '/admin/calls', label: 'Calls' },
  { to: '/admin/callbacks', label: 'Callbacks' },
  { to: '/admin/sequences', label: 'Sequences' },
  { to: '/admin/phone-numbers', label: 'Phone numbers' },
  { to: '/admin/chat-agents', label: 'Chat agents' },
  { to: '/admin/chat-conversations', label: 'Conversations' },
  { to: '/admin/sms', label: 'SMS' },
  { to: '/admin/unmatched-texts', label: 'Unmatched texts' },
  { to: '/admin/mail-outbox', label: 'Mail outbox' },
  { to: '/admin/processed-runs', label: 'Processed runs' },
  { to: '/admin/demo', label: 'Demos' },
];

const ACCOUNT_NAV: NavItem[] = [{ to: '/settings/account', label: 'Account settings' }];

/** What organization staff (not internal admins) may open in the admin area. */
const STAFF_ADMIN_NAV: NavItem[] = [
  { to: '/admin/dashboard', label: 'Dashboard' },
  { to: '/admin/organization', label: 'Organization' },
  { to: '/admin/users', label: 'Users' },
  { to: '/admin/trial-criteria', label: 'Trial criteria' },
  { to: '/admin/prescreen-forms', label: 'Prescreen forms' },
  { to: '/admin/chat-agents', label: 'Chat agents' },
  { to: '/admin/chat-conversations', label: 'Conversations' },
  { to: '/admin/voice-agents', label: 'Voice agents' },
  { to: '/admin/calls', label: 'Calls' },
  { to: '/admin/callbacks', label: 'Callbacks' },
  { to: '/admin/sequences', label: 'Sequences' },
  { to: '/admin/processed-runs', label: 'Processed runs' },
  { to: '/admin/sms', label: 'SMS' },
];

function NavSection({ label, items, onNavigate }: { label: string; items: NavItem[]; onNavigate: () => void }) {
  return (
    <nav aria-label={label} className="grid gap-1">
      <p className="px-3 pb-1 pt-4 text-xs font-semibold uppercase tracking-wide text-slate-700">{label}</p>
      <ul className="grid gap-0.5">
        {items.map((item) => (
          <li key={item.to}>
            <Link
              to={item.to}
              onClick={onNavigate}
              className="block rounded-md px-3 py-1.5 text-sm text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700"
              activeProps={{ className: 'bg-blue-50 font-semibold text-blue-800 hover:bg-blue-100' }}
            >
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function OrganizationSwitcher() {
  const { organizations, activeOrganizationId, setActiveOrganization, canSwitch } = useActiveOrganization();
  if (!canSwitch || organizations.length === 0) return null;
  return (
    <div className="flex items-center gap-2">
      <label htmlFor="org-switcher" className="hidden text-sm font-medium text-slate-800 lg:block">
        Organization
      </label>
      <select
        id="org-switcher"
        aria-label="Active organization"
        value={activeOrganizationId ?? ''}
        onChange={(event) => setActiveOrganization(event.target.value)}
        className="h-9 w-32 rounded-md sm:w-auto sm:max-w-[14rem] border border-slate-400 bg-white px-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
      >
        {organizations.map((org) => (
          <option key={org.id} value={org.id}>
            {org.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The signed-in layout: header (logo, breadcrumbs, organization switcher, user), sidebar and main. */
export function AppShell({ children }: { children?: ReactNode }) {
  const { session } = useAuth();
  const organizationState = useActiveOrganization();
  const matches = useMatches();
  const [menuOpen, setMenuOpen] = useState(false);
  const isAdmin = Boolean(session?.isAdmin);
  // The sidebar shows from Tailwind's `md` width up, or as the opened menu on a phone. Its 20-odd router links are
  // drawn only then: hidden, they cost a phone's first render and every router update while nobody can see or reach
  // them (issue 32: blocking time).
  const sidebarShown = useMediaQuery('(min-width: 48rem)') || menuOpen;

  const adminOnly = matches.some((match) => match.staticData?.adminOnly);
  const staffAllowed = matches.some((match) => match.staticData?.orgStaffAllowed);
  const forbidden = adminOnly && !isAdmin && !staffAllowed;

  let content: ReactNode = children ?? <Outlet />;
  if (forbidden) content = <Forbidden />;
  // A single organization's page opens before the organization list arrives (decision 181).
  else if (!organizationState.isReady) content = <Spinner />;
  else if (organizationState.error)
    content = <ErrorCard title="Could not load your organizations" error={organizationState.error} onRetry={organizationState.refetch} />;

  // A screen shown to an audience (the sponsor demo) takes the whole width, without the admin's sidebar.
  const presentation = matches.findLast((match) => match.staticData?.presentation)?.staticData?.presentation;
  if (presentation && !forbidden) return <PresentationShell {...presentation}>{content}</PresentationShell>;

  const closeMenu = () => setMenuOpen(false);

  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      <SkipLink />
      <header className="sticky top-0 z-30 border-b border-slate-200 bg-white">
        <div className="flex h-14 items-center gap-3 px-4">
          <Button
            variant="ghost"
            size="icon"
            className="md:hidden"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            aria-expanded={menuOpen}
            aria-controls="sidebar"
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <X aria-hidden="true" className="h-5 w-5" /> : <Menu aria-hidden="true" className="h-5 w-5" />}
          </Button>
          <Link to="/trials" className="rounded focus-visible:outline-2 focus-visible:outline-blue-700" aria-label="Cohortly home">
            <Logo size="s" className="max-sm:[&>span]:hidden" />
          </Link>
          <div className="ml-auto flex min-w-0 items-center gap-2 sm:gap-3">
            <OrganizationSwitcher />
            {!isAdmin && session?.organization && <span className="hidden text-sm text-slate-700 sm:inline">{session.organization.name}</span>}
            <Link
              to="/settings/account"
              className="hidden rounded text-sm font-medium text-slate-900 hover:underline sm:inline focus-visible:outline-2 focus-visible:outline-blue-700"
              title="Account settings"
            >
              {session?.user.name}
            </Link>
            <Link
              to="/sign-out"
              className="inline-flex shrink-0 items-center gap-1 whitespace-nowrap rounded-md px-2 py-1.5 text-sm text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700"
            >
              <LogOut aria-hidden="true" className="h-4 w-4" />
              Sign out
            </Link>
          </div>
        </div>
        <div className="border-t border-slate-100 px-4 py-2">
          <Breadcrumbs />
        </div>
      </header>
      <div className="flex flex-1">
        <aside
          id="sidebar"
          className={cn(
            'w-60 shrink-0 overflow-y-auto border-r border-slate-200 bg-white px-2 pb-6 md:block',
            menuOpen ? 'fixed inset-y-0 left-0 top-14 z-20 block shadow-lg' : 'hidden',
          )}
        >
          {sidebarShown && (
            <>
              <NavSection label="Workspace" items={MAIN_NAV} onNavigate={closeMenu} />
              {isAdmin ? (
                <NavSection label="Admin" items={ADMIN_NAV} onNavigate={closeMenu} />
              ) : (
                <NavSection label="Manage" items={STAFF_ADMIN_NAV} onNavigate={closeMenu} />
              )}
              <NavSection label="Account" items={ACCOUNT_NAV} onNavigate={closeMenu} />
            </>
          )}
        </aside>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 p-4 focus:outline-none md:p-8">
          {content}
        </main>
      </div>
    </div>
  );
}
