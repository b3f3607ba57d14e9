import { createFileRoute, Link } from '@tanstack/react-router';
import { Card, CardContent, PageHeader } from '../../../../components/ui';

const DEMOS = [
  { to: '/admin/demo/sponsors/intro', title: 'Sponsor demo', text: 'Site selection, connection, the sponsor dashboard and the wrap-up, step by step.' },
  { to: '/admin/demo/chat', title: 'Chat demo', text: 'The public chat page of a demo organization (one whose name contains "demo").' },
  { to: '/admin/demo/voice', title: 'Voice demo', text: 'A demonstration call with the prescreen voice agent (coming soon).' },
  { to: '/admin/demo/prescreen', title: 'Prescreen demo', text: 'From answers to AI recommendation and human review (coming soon).' },
] as const;

/** The demos an internal admin can show a sponsor or a site. */
export const Route = createFileRoute('/_authed/admin/demo/')({
  component: function DemoHub() {
    return (
      <div>
        <PageHeader title="Demos" />
        <ul className="grid gap-3 sm:grid-cols-2">
          {DEMOS.map((demo) => (
            <li key={demo.to}>
              <Card>
                <CardContent className="grid gap-1 pt-5">
                  <Link to={demo.to} className="font-semibold text-blue-800 hover:underline">
                    {demo.title}
                  </Link>
                  <p className="text-sm text-slate-700">{demo.text}</p>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      </div>
    );
  },
});
