import { Link, useMatches } from '@tanstack/react-router';
import { ChevronRight } from 'lucide-react';

/**
 * Crumbs come from each matched route's `staticData.crumb` (or a loader's `crumb`). A loader may add a
 * `trailingCrumb` for a page that is the same path with other search params (the review of one candidate
 * on /prescreen/results), which then links its parent crumb back to the plain path.
 */
export function Breadcrumbs() {
  const matches = useMatches();
  const crumbs: { label: string; to: string }[] = [];
  for (const match of matches) {
    const fromLoader = (match.loaderData as { crumb?: string } | undefined)?.crumb;
    const label = fromLoader ?? match.staticData?.crumb;
    if (!label) continue;
    const to = match.pathname.length > 1 ? match.pathname.replace(/\/$/, '') : match.pathname;
    if (crumbs.at(-1)?.to === to) crumbs[crumbs.length - 1] = { label, to };
    else crumbs.push({ label, to });
    const trailing = (match.loaderData as { trailingCrumb?: string } | undefined)?.trailingCrumb;
    if (trailing) crumbs.push({ label: trailing, to: `${to}#current` });
  }
  if (crumbs.length === 0) return null;
  return (
    <nav aria-label="Breadcrumb">
      <ol className="flex flex-wrap items-center gap-1 text-sm text-slate-700">
        {crumbs.map((crumb, index) => {
          const last = index === crumbs.length - 1;
          return (
            <li key={crumb.to} className="flex min-w-0 max-w-full items-center gap-1">
              {index > 0 && <ChevronRight aria-hidden="true" className="h-4 w-4 text-slate-500" />}
              {last ? (
                // A long name (a trial's title) stays on one line, cut with an ellipsis; the whole is its title.
                <span aria-current="page" title={crumb.label} className="max-w-[40ch] truncate font-medium text-slate-900">
                  {crumb.label}
                </span>
              ) : (
                <Link to={crumb.to} title={crumb.label} className="max-w-[40ch] truncate rounded hover:text-blue-700 hover:underline">
                  {crumb.label}
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
