import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { SponsorDashboard } from '../../../../contract/sponsor-demo';
import { Badge, Card, CardContent, CardDescription, CardHeader, CardTitle, EmptyState, Td, Th } from '../../../components/ui';
import { ScrollTable } from './ScrollTable';
import { count, decimal, FUNNEL_STEPS, siteWhere } from './format';

/** Site performance: each chosen site's funnel and speed (chart, and the table behind it). */
export default function SitePerformanceTab({ data }: { data: SponsorDashboard }) {
  if (data.sites.length === 0) return <EmptyState title="No site chosen" />;
  const chart = data.sites.map((site) => ({ name: site.name, Passed: site.funnel.passed, Booked: site.funnel.booked, Enrolled: site.funnel.enrolled }));
  return (
    <Card>
      <CardHeader>
        <CardTitle>Site performance</CardTitle>
        <CardDescription>
          Each site's funnel, how fast it turns a first contact into a booked visit, and its enrollments a month since its first candidate.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="h-72 w-full" aria-hidden="true">
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={chart} margin={{ left: 8, right: 16 }} accessibilityLayer={false}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="name" tick={{ fontSize: 12 }} interval={0} />
              <YAxis allowDecimals={false} />
              <Tooltip />
              <Legend />
              <Bar dataKey="Passed" fill="#64748b" />
              <Bar dataKey="Booked" fill="#1d4ed8" />
              <Bar dataKey="Enrolled" fill="#15803d" />
            </BarChart>
          </ResponsiveContainer>
        </div>
        <ScrollTable caption="Funnel and speed by site">
          <thead>
            <tr>
              <Th>Site</Th>
              <Th className="text-right">Candidates</Th>
              {FUNNEL_STEPS.map(([key, label]) => (
                <Th key={key} className="text-right">
                  {label}
                </Th>
              ))}
              <Th className="text-right">Median days to booking</Th>
              <Th className="text-right">Enrollments / month</Th>
            </tr>
          </thead>
          <tbody>
            {data.sites.map((site) => (
              <tr key={site.id} data-testid="performance-row">
                <Td>
                  <span className="font-medium text-slate-900">{site.name}</span>
                  <div className="flex flex-wrap items-center gap-1 text-xs text-slate-700">
                    {siteWhere(site)}
                    {!site.started && <Badge tone="amber">Not started</Badge>}
                  </div>
                </Td>
                <Td className="text-right tabular-nums">{count(site.funnel.candidates)}</Td>
                {FUNNEL_STEPS.map(([key]) => (
                  <Td key={key} className="text-right tabular-nums">
                    {count(site.funnel[key])}
                  </Td>
                ))}
                <Td className="text-right tabular-nums">{decimal(site.medianDaysToBooking)}</Td>
                <Td className="text-right tabular-nums">{decimal(site.enrollmentsPerMonth, 2)}</Td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      </CardContent>
    </Card>
  );
}
