import { Link } from '@tanstack/react-router';
import { buttonClass, Card, CardContent } from '../../../components/ui';
import { flowSearch, SponsorDemoStep, type SponsorFlow } from '../SponsorDemoStep';

const POINTS = [
  {
    title: 'Choose sites with evidence',
    text: 'For a trial, candidate sites ranked by the matching patients near them, how fast they book visits, and how diverse their pool is.',
  },
  {
    title: 'Connect in minutes',
    text: 'Cohortly shares the protocol, builds the pre-screener from the eligibility criteria and configures the outreach agents at each site.',
  },
  {
    title: 'Watch recruitment live',
    text: 'One dashboard across the chosen sites: the funnel from pool to enrolled, each site’s speed, and the demographics against your diversity goals.',
  },
  {
    title: 'Know when you will finish',
    text: 'A statistical forecast of the enrollment date with its uncertainty, and how many more sites would get you there by your date.',
  },
];

/** Step 1: what the sponsor is about to see. */
export function IntroPage({ flow }: { flow: SponsorFlow }) {
  return (
    <SponsorDemoStep
      step="/admin/demo/sponsors/intro"
      title="Sponsor demo"
      description="For a sponsor's clinical operations lead evaluating sites for their trial. It runs on the demo organization's data."
      flow={flow}
    >
      <Card>
        <CardContent className="grid gap-5 pt-5">
          <ol className="grid gap-4 sm:grid-cols-2">
            {POINTS.map((point, index) => (
              <li key={point.title} className="grid gap-1">
                <h2 className="font-semibold text-slate-900">
                  {index + 1}. {point.title}
                </h2>
                <p className="text-sm text-slate-700">{point.text}</p>
              </li>
            ))}
          </ol>
          <div>
            <Link to="/admin/demo/sponsors/site-selection" search={flowSearch(flow)} className={buttonClass('primary', 'lg')}>
              Start
            </Link>
          </div>
        </CardContent>
      </Card>
    </SponsorDemoStep>
  );
}
