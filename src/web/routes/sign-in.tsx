import { createFileRoute, redirect } from '@tanstack/react-router';
import { safeRedirect } from '../lib/utils';
import { signInSearch } from '../../contract/search';
import { SignInPage } from '../features/auth/SignInPage';

export const Route = createFileRoute('/sign-in')({
  validateSearch: signInSearch,
  // Already signed in: home (docs/product-spec.md §2), or straight on to where the user was going.
  beforeLoad: ({ context, search }) => {
    if (context.auth.getSession()) throw redirect({ href: safeRedirect(search.redirect), replace: true });
  },
  component: function SignInRoute() {
    const { redirect: redirectTo } = Route.useSearch();
    return <SignInPage redirectTo={redirectTo} />;
  },
});
