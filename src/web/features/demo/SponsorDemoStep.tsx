import { Link } from '@tanstack/react-router';
import { ComingSoon } from '../../components/ComingSoon';
import { buttonClass } from '../../components/ui';

export const SPONSOR_DEMO_STEPS = [
  { to: '/admin/demo/sponsors/intro', label: 'Intro' },
  { to: '/admin/demo/sponsors/site-selection', label: 'Site selection' },
  { to: '/admin/demo/sponsors/connect', label: 'Connect' },
  { to: '/admin/demo/sponsors/dashboard', label: 'Dashboard' },
  { to: '/admin/demo/sponsors/complete', label: 'Complete' },
] as const;
export type SponsorDemoStepPath = (typeof SPONSOR_DEMO_STEPS)[number]['to'];

/** One step of the sponsor demo (spec §2: /admin/demo/sponsors/...): where it is in the flow, and on. */
export function SponsorDemoStep({ step, title, description }: { step: SponsorDemoStepPath; title: string; description: string }) {
  const index = SPONSOR_DEMO_STEPS.findIndex((item) => item.to === step);
  const previous = SPONSOR_DEMO_STEPS[index - 1];
  const next = SPONSOR_DEMO_STEPS[index + 1];
  return (
    <ComingSoon title={title} description={description}>
      <nav aria-label="Sponsor demo steps">
        <ol className="flex flex-wrap gap-2 text-sm">
          {SPONSOR_DEMO_STEPS.map((item, i) => (
            <li key={item.to}>
              <Link to={item.to} aria-current={i === index ? 'step' : undefined} className={i === index ? 'font-semibold text-blue-800' : 'text-slate-700 hover:underline'}>
                {i + 1}. {item.label}
              </Link>
            </li>
          ))}
        </ol>
      </nav>
      <div className="flex gap-2">
        {previous && (
          <Link to={previous.to} className={buttonClass('secondary')}>
            Back: {previous.label}
          </Link>
        )}
        {next && (
          <Link to={next.to} className={buttonClass('primary')}>
            Next: {next.label}
          </Link>
        )}
      </div>
    </ComingSoon>
  );
}
