import { createFileRoute, redirect } from '@tanstack/react-router';
import { safeRedirect } from '../lib/utils';
import { signUpSearch } from '../../contract/search';
import { SignUpPage } from '../features/auth/SignUpPage';

export const Route = createFileRoute('/sign-up')({
  validateSearch: signUpSearch,
  // Already signed in: home (docs/product-spec.md §2), or straight on to where the user was going.
  beforeLoad: ({ context, search }) => {
    if (context.auth.getSession()) throw redirect({ href: safeRedirect(search.redirect), replace: true });
  },
  component: function SignUpRoute() {
    const { redirect: redirectTo, invitation } = Route.useSearch();
    return <SignUpPage redirectTo={redirectTo} invitation={invitation} />;
  },
});
