import { lazy, StrictMode, Suspense, useEffect, useRef } from 'react';
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
  // Route guards run again whenever the session changes (TanStack "authenticated routes" pattern).
  useEffect(() => {
    if (!auth.isPending) void router.invalidate();
  }, [auth.isPending, auth.session?.user.id]);
  // Only the first session load blanks the page: a background refetch (window focus, back online) must
  // never unmount the router and lose what the user was doing.
  const loadedOnce = useRef(false);
  if (!auth.isPending) loadedOnce.current = true;
  if (auth.isPending && !loadedOnce.current) return <FullPageSpinner />;
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

const rootElement = document.getElementById('root')!;
createRoot(rootElement).render(
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
);
