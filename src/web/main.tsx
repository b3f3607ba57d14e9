import { lazy, StrictMode, startTransition, Suspense, useDeferredValue, useEffect, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { FullPageSpinner } from './components/Spinner';
import { ActiveOrganizationProvider, organizationsQueryOptions } from './lib/active-organization';
import { AuthProvider, useAuth } from './lib/auth';
import { loadSessionEarly } from './lib/auth-client';
import { queryClient } from './lib/query';
import { prefetchOpenedPage } from './opened-page';
import { router } from './router';
import './styles.css';

function InnerApp() {
  const auth = useAuth();
  // Only the first session load blanks the page: a background refetch (window focus, back online) must
  // never unmount the router and lose what the user was doing.
  const loadedOnce = useRef(false);
  if (!auth.isPending) loadedOnce.current = true;
  // The session arrives through a store, an update React draws in one go; the page it opens (shell, route, the
  // page's first content) is drawn from a deferred copy instead, which React draws in slices between the browser's
  // own work: on a phone that first page was one task of several hundred ms (issue 32: blocking time, decision 220).
  const routerShown = useDeferredValue(loadedOnce.current);
  // Route guards run again whenever the session changes (TanStack "authenticated routes" pattern), once the router
  // is drawn: before that it has no context (the session) for its guards to read.
  useEffect(() => {
    if (routerShown && !auth.isPending) void router.invalidate();
  }, [routerShown, auth.isPending, auth.session?.user.id]);
  if (!routerShown) return <FullPageSpinner />;
  return <RouterProvider router={router} context={{ auth, queryClient }} />;
}

// The toaster is loaded after the first paint: pages that toast import sonner themselves, and the sign-in
// page stays within its JavaScript budget (scripts/check-bundle-budget.ts). Toasts sit at the top: at the
// bottom right they covered the sticky Save buttons, and a hovered toast never leaves.
const Toaster = lazy(() => import('sonner').then((module) => ({ default: module.Toaster })));

// The opened page's code (split per route) is fetched while the session loads, not after it: on a phone's link
// the two round trips one after the other were most of the wait before the page's first content.
const [openedRoutes] = router.getMatchedRoutes(window.location.pathname);
for (const route of openedRoutes) void router.loadRouteChunk(route)?.catch(() => undefined);
// The session is asked for now, and the organization list and the opened page's data as soon as it is known, not one
// after the other behind React's first renders (the providers and the page find them in their caches; decision 181).
loadSessionEarly((session) => {
  void queryClient.prefetchQuery(organizationsQueryOptions(session.user.id));
  prefetchOpenedPage(router, queryClient, session);
});

// The first render in a transition, so React draws it in slices too (decision 220).
const root = createRoot(document.getElementById('root')!);
startTransition(() =>
  root.render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <AuthProvider router={router}>
          <ActiveOrganizationProvider>
            <InnerApp />
          </ActiveOrganizationProvider>
        </AuthProvider>
        <Suspense fallback={null}>
          <Toaster position="top-center" />
        </Suspense>
      </QueryClientProvider>
    </StrictMode>,
  ),
);
