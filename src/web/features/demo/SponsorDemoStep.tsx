import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { buttonClass, EmptyState } from '../../components/ui';
import { cn } from '../../lib/utils';

export const SPONSOR_DEMO_STEPS = [
  { to: '/admin/demo/sponsors/intro', label: 'Intro' },
  { to: '/admin/demo/sponsors/site-selection', label: 'Site selection' },
  { to: '/admin/demo/sponsors/connect', label: 'Connect' },
  { to: '/admin/demo/sponsors/dashboard', label: 'Dashboard' },
  { to: '/admin/demo/sponsors/complete', label: 'Complete' },
] as const;
export type SponsorDemoStepPath = (typeof SPONSOR_DEMO_STEPS)[number]['to'];

/** The flow's state, in every step's URL: the chosen trial and sites. */
export interface SponsorFlow {
  trial?: string;
  sites?: string[];
}

/**
 * One step of the sponsor demo (docs/product-spec.md §2: /admin/demo/sponsors/...): the step list (carrying the chosen trial and
 * sites), the step's title and what it shows.
 */
export function SponsorDemoStep({
  step,
  title,
  description,
  flow,
  children,
  actions,
  nextReady = true,
}: {
  step: SponsorDemoStepPath;
  title: string;
  description?: ReactNode;
  flow: SponsorFlow;
  children: ReactNode;
  actions?: ReactNode;
  /** False: the next step needs something this one has not got yet (its link is not offered). */
  nextReady?: boolean;
}) {
  const index = SPONSOR_DEMO_STEPS.findIndex((item) => item.to === step);
  const previous = SPONSOR_DEMO_STEPS[index - 1];
  const next = SPONSOR_DEMO_STEPS[index + 1];
  const search = flowSearch(flow);
  return (
    <div className="grid gap-5">
      <nav aria-label="Sponsor demo steps">
        <ol className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
          {SPONSOR_DEMO_STEPS.map((item, i) => (
            <li key={item.to}>
              <Link
                to={item.to}
                search={search}
                aria-current={i === index ? 'step' : undefined}
                className={cn(
                  'rounded px-1 py-0.5',
                  i === index ? 'font-semibold text-blue-800 underline underline-offset-4' : 'text-slate-700 hover:underline',
                )}
              >
                {i + 1}. {item.label}
              </Link>
            </li>
          ))}
        </ol>
      </nav>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="grid max-w-3xl gap-1">
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
          {description && <p className="text-sm text-slate-700">{description}</p>}
        </div>
        {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
      </div>
      {children}
      <div className="flex flex-wrap gap-2 border-t border-slate-200 pt-4">
        {previous && (
          <Link to={previous.to} search={search} className={buttonClass('secondary')}>
            Back: {previous.label}
          </Link>
        )}
        {next && nextReady && (
          <Link to={next.to} search={search} className={buttonClass('primary')}>
            Next: {next.label}
          </Link>
        )}
      </div>
    </div>
  );
}

/** The flow as search params (empty lists left out, so a fresh flow has a clean URL). */
export function flowSearch(flow: SponsorFlow): SponsorFlow {
  return { trial: flow.trial, sites: flow.sites?.length ? flow.sites : undefined };
}

/** A later step opened before its trial or sites were chosen (e.g. from a bookmark): the way back to site selection. */
export function ChooseSitesFirst({ title, flow }: { title: string; flow: SponsorFlow }) {
  return (
    <EmptyState title={title}>
      <p>
        Choose a trial and its sites first.{' '}
        <Link to="/admin/demo/sponsors/site-selection" search={flowSearch(flow)} className="font-medium text-blue-800 underline">
          Go to site selection
        </Link>
      </p>
    </EmptyState>
  );
}
