import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { SponsorDashboard } from '../../../../contract/sponsor-demo';
import { Card, CardContent, CardDescription, CardHeader, CardTitle, EmptyState, Td, Th } from '../../../components/ui';
import { ScrollTable } from './ScrollTable';
import { count, decimal, FUNNEL_CHAIN, percent } from './format';

/** Overview: the KPIs across the chosen sites and the funnel from pool to enrolled (chart, and the table behind it). */
export default function OverviewTab({ data }: { data: SponsorDashboard }) {
  const { totals } = data;
  const target = data.trial.targetEnrollment;
  const chart = FUNNEL_CHAIN.map(([key, label]) => ({ name: label, value: totals[key] }));
  return (
    <div className="grid gap-5">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6" data-testid="sponsor-kpis">
        {FUNNEL_CHAIN.map(([key, label]) => (
          <div key={key} className="rounded-lg border border-slate-200 bg-white p-4">
            <dt className="text-sm text-slate-700">{label}</dt>
            <dd className="text-2xl font-semibold tabular-nums text-slate-900">{count(totals[key])}</dd>
            {key === 'enrolled' && (
              <dd className="text-xs text-slate-700">{target ? `of ${count(target)} target (${percent(totals.enrolled / target)})` : 'No target set'}</dd>
            )}
          </div>
        ))}
      </dl>
      <Card>
        <CardHeader>
          <CardTitle>Recruitment funnel</CardTitle>
          <CardDescription>
            {count(totals.candidates)} candidates linked to the trial at the chosen sites, {count(totals.pool)} of them still eligible or potentially eligible
            (the pool: not screened out, opted out or declined). Median {decimal(data.medianDaysToBooking)} days from first contact to a booked visit.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {totals.candidates === 0 ? (
            <EmptyState title="No candidates at these sites yet" />
          ) : (
            <div className="h-72 w-full" aria-hidden="true">
              <ResponsiveContainer width="100%" height="100%">
                <BarChart data={chart} layout="vertical" margin={{ left: 24, right: 24 }} accessibilityLayer={false}>
                  <CartesianGrid strokeDasharray="3 3" horizontal={false} />
                  <XAxis type="number" allowDecimals={false} />
                  <YAxis type="category" dataKey="name" width={100} tick={{ fontSize: 12 }} />
                  <Tooltip />
                  <Bar dataKey="value" name="Candidates" fill="#1d4ed8" />
                </BarChart>
              </ResponsiveContainer>
            </div>
          )}
          <ScrollTable caption="Recruitment funnel across the chosen sites">
            <thead>
              <tr>
                <Th>Step</Th>
                <Th className="text-right">Candidates</Th>
                <Th className="text-right">Of the candidates</Th>
              </tr>
            </thead>
            <tbody>
              {FUNNEL_CHAIN.map(([key, label]) => (
                <tr key={key} data-testid="funnel-row">
                  <Td>{label}</Td>
                  <Td className="text-right tabular-nums">{count(totals[key])}</Td>
                  <Td className="text-right tabular-nums">{totals.candidates ? percent(totals[key] / totals.candidates) : '—'}</Td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        </CardContent>
      </Card>
    </div>
  );
}
