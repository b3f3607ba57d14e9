import { useDeferredValue } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { SponsorDashboard } from '../../../../contract/sponsor-demo';
import { Badge, Card, CardContent, CardDescription, CardHeader, CardTitle, EmptyState, Td, Th } from '../../../components/ui';
import { ScrollTable } from './ScrollTable';
import { count, DIMENSION_LABELS, percent } from './format';

/**
 * Demographics: the pool at the chosen sites by age band, sex, ethnicity, race and language, against the demo
 * sponsor's diversity goals (minimum shares from the US census, decision 069). A chart and the table behind it.
 */
export default function DemographicsTab({ data }: { data: SponsorDashboard }) {
  // Five charts take a few hundred ms to draw on a slow machine: the cards and their tables (the same numbers) show
  // first, the charts in a deferred render right after, in the space kept for them (issue 32: a tab < 500 ms).
  const chartsShown = useDeferredValue(true, false);
  const pool = data.totals.pool;
  if (pool === 0) return <EmptyState title="No one in the pool at these sites yet" />;
  return (
    <div className="grid gap-5">
      <p className="text-sm text-slate-700">
        Of the {count(pool)} people in the pool. Goals are the demo sponsor's minimum shares, from US census figures; a group below its goal is marked.
      </p>
      <div className="grid gap-5 lg:grid-cols-2">
        {data.demographics.map((dimension) => {
          const label = DIMENSION_LABELS[dimension.dimension];
          const chart = dimension.rows.map((row) => ({
            name: row.value,
            Pool: Math.round(row.share * 1000) / 10,
            Goal: row.goal === null ? undefined : Math.round(row.goal * 1000) / 10,
          }));
          const hasGoals = dimension.rows.some((row) => row.goal !== null);
          return (
            <Card key={dimension.dimension} data-testid={`demographics-${dimension.dimension}`}>
              <CardHeader>
                <CardTitle as="h2">{label}</CardTitle>
                <CardDescription>
                  {dimension.known === pool ? `Known for everyone in the pool.` : `Known for ${count(dimension.known)} of ${count(pool)}.`}
                </CardDescription>
              </CardHeader>
              <CardContent className="grid gap-3">
                {dimension.known > 0 && (
                  <div className="w-full" style={{ height: 60 + chart.length * (hasGoals ? 44 : 30) }} aria-hidden="true">
                    {chartsShown && (
                      <ResponsiveContainer width="100%" height="100%">
                        <BarChart data={chart} layout="vertical" margin={{ left: 8, right: 16 }} accessibilityLayer={false}>
                          <CartesianGrid strokeDasharray="3 3" horizontal={false} />
                          <XAxis type="number" unit="%" />
                          <YAxis type="category" dataKey="name" width={150} tick={{ fontSize: 11 }} interval={0} />
                          <Tooltip formatter={(value) => `${value}%`} />
                          <Legend />
                          <Bar dataKey="Pool" fill="#1d4ed8" isAnimationActive={false} />
                          {hasGoals && <Bar dataKey="Goal" fill="#b45309" isAnimationActive={false} />}
                        </BarChart>
                      </ResponsiveContainer>
                    )}
                  </div>
                )}
                <ScrollTable caption={`${label} of the pool against the goals`}>
                  <thead>
                    <tr>
                      <Th>Group</Th>
                      <Th className="text-right">People</Th>
                      <Th className="text-right">Share</Th>
                      <Th className="text-right">Goal</Th>
                    </tr>
                  </thead>
                  <tbody>
                    {dimension.rows.map((row) => {
                      const below = row.goal !== null && row.share < row.goal;
                      return (
                        <tr key={row.value}>
                          <Td>
                            {row.value} {below && <Badge tone="amber">Below goal</Badge>}
                          </Td>
                          <Td className="text-right tabular-nums">{count(row.count)}</Td>
                          <Td className="text-right tabular-nums">{percent(row.share, 1)}</Td>
                          <Td className="whitespace-nowrap text-right tabular-nums">{row.goal === null ? '—' : `≥ ${percent(row.goal)}`}</Td>
                        </tr>
                      );
                    })}
                  </tbody>
                </ScrollTable>
              </CardContent>
            </Card>
          );
        })}
      </div>
    </div>
  );
}
