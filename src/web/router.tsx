import { createRouter } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { NotFound } from './components/NotFound';
import { RouteError } from './components/RouteError';
import { Spinner } from './components/Spinner';
import type { AuthState } from './lib/auth';
import { queryClient } from './lib/query';
import { routeTree } from './routeTree.gen';

export interface RouterContext {
  queryClient: QueryClient;
  auth: AuthState;
}

export const router = createRouter({
  routeTree,
  // `auth` is supplied from React by <RouterProvider context={{ auth }} /> (main.tsx).
  context: { queryClient, auth: undefined! as AuthState },
  defaultPreload: 'intent',
  defaultPreloadDelay: 50,
  defaultPendingMinMs: 250,
  // Data freshness is TanStack Query's job (5 min); the router always asks it.
  defaultPreloadStaleTime: 0,
  defaultPendingComponent: () => <Spinner />,
  defaultErrorComponent: RouteError,
  defaultNotFoundComponent: NotFound,
  scrollRestoration: true,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
  interface StaticDataRouteOption {
    /** Breadcrumb label of the route. */
    crumb?: string;
    /** Only internal admins may open the route (and its children). */
    adminOnly?: boolean;
    /** Organization staff may open this admin route too. */
    orgStaffAllowed?: boolean;
    /** Shown to an audience (the sponsor demo): full width, no sidebar, "Exit demo" back to `exitTo`. */
    presentation?: { label: string; exitTo: string };
  }
}
