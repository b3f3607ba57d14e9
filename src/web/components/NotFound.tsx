import { Link } from '@tanstack/react-router';
import { Logo } from './Logo';
import { Button, buttonClass } from './ui';

export function NotFound() {
  return (
    <div className="flex min-h-[70vh] flex-col items-center justify-center gap-4 p-8 text-center">
      <Logo size="m" />
      <p className="text-8xl font-bold tracking-tight text-blue-700" aria-hidden="true">
        404
      </p>
      <h1 className="text-2xl font-semibold text-slate-900">
        <span className="sr-only">404: </span>Oops! The page you're looking for doesn't exist.
      </h1>
      <p className="max-w-md text-slate-700">The page might have been moved, deleted, or you entered the wrong URL.</p>
      <div className="flex gap-3">
        <Link to="/" className={buttonClass('primary')}>
          Go back home
        </Link>
        <Button variant="secondary" onClick={() => window.history.back()}>
          Go back
        </Button>
      </div>
    </div>
  );
}
