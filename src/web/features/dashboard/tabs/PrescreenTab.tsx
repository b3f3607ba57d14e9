import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { EmptyState } from '../../../components/ui';
import { ChartSection, CHART_COLORS, DataTable, KpiCards, NoActivity, number, pct, TabFrame } from '../parts';
import { useDashboardTab, type DashboardFilterValues } from '../queries';
import { BUCKET_COLUMN, BUCKET_NOTE, periodLabel } from '../words';
import { RECOMMENDATION_WORDS } from '../../../lib/words';

const RECOMMENDATIONS = ['PASS', 'FAIL', 'INCONCLUSIVE', 'POTENTIAL'] as const;

export default function PrescreenTab({ filters }: { filters: DashboardFilterValues }) {
  const query = useDashboardTab('prescreen-analytics', filters);
  return (
    <TabFrame query={query}>
      {(data) => {
        if (data.totals.results === 0 && data.review.decisions === 0)
          return (
            <NoActivity title="No prescreen results in this range">
              Prescreens happen on calls and chats with candidates: start a sequence or a prescreen call, and results appear here.
            </NoActivity>
          );
        return (
          <>
            <KpiCards
              items={[
                { label: 'Prescreen results', value: number(data.totals.results) },
                { label: 'Pass rate', value: pct(data.totals.results ? Math.round((data.totals.PASS / data.totals.results) * 1000) / 10 : null) },
                {
                  label: 'Hours to result (median)',
                  value: number(data.hoursToResult.median, 1),
                  // The median is estimated from hour buckets (decision 094); the average is exact.
                  hint: `average ${number(data.hoursToResult.average, 1)} h over ${number(data.hoursToResult.measured)}; median estimated from hour buckets`,
                },
                { label: 'Reviewer override rate', value: pct(data.review.overrideRate), hint: `${number(data.review.decisions)} decisions` },
              ]}
            />
            <ChartSection
              title={`Recommendations by ${data.bucket}`}
              description={`The AI's recommendation on each prescreen result.${BUCKET_NOTE[data.bucket] ? ` ${BUCKET_NOTE[data.bucket]}` : ''}`}
              chart={
                <ResponsiveContainer width="100%" height="100%">
                  <BarChart data={data.overTime} accessibilityLayer={false}>
                    <CartesianGrid strokeDasharray="3 3" vertical={false} />
                    <XAxis dataKey="period" tick={{ fontSize: 12 }} tickFormatter={(period: string) => periodLabel(data.bucket, period, true)} />
                    <YAxis allowDecimals={false} />
                    <Tooltip labelFormatter={(period) => periodLabel(data.bucket, String(period))} />
                    <Legend />
                    {RECOMMENDATIONS.map((label, index) => (
                      <Bar key={label} dataKey={label} name={RECOMMENDATION_WORDS[label]} stackId="r" fill={CHART_COLORS[index]} />
                    ))}
                  </BarChart>
                </ResponsiveContainer>
              }
              table={
                <DataTable
                  caption={`Recommendations by ${data.bucket}`}
                  rows={data.overTime}
                  rowKey={(row) => row.period}
                  columns={[
                    { label: BUCKET_COLUMN[data.bucket], value: (row) => periodLabel(data.bucket, row.period) },
                    ...RECOMMENDATIONS.map((label) => ({
                      label: RECOMMENDATION_WORDS[label] ?? label,
                      value: (row: (typeof data.overTime)[number]) => number(row[label]),
                      numeric: true,
                    })),
                  ]}
                />
              }
            />
            <ChartSection
              title="Criteria that fail most"
              description="Criteria that disqualified candidates in the results of this range."
              empty={data.failingCriteria.length === 0 ? <EmptyState title="No criterion disqualified anyone in this range" /> : undefined}
              table={
                <DataTable
                  caption="Criteria that fail most"
                  rows={data.failingCriteria}
                  rowKey={(row) => `${row.trialId}-${row.criterionId}`}
                  columns={[
                    { label: 'Trial', value: (row) => row.trialTitle ?? '—' },
                    { label: 'Criterion', value: (row) => `${row.kind === 'exclusion' ? 'Exclusion' : 'Inclusion'}: ${row.text}` },
                    { label: 'Failures', value: (row) => number(row.failures), numeric: true },
                  ]}
                />
              }
            />
            <ChartSection
              title="AI and reviewers"
              description="How often a reviewer agreed with the AI's recommendation, or overrode it."
              table={
                <DataTable
                  caption="Reviewer agreement"
                  rows={[data.review]}
                  rowKey={() => 'review'}
                  columns={[
                    { label: 'Decisions', value: (row) => number(row.decisions), numeric: true },
                    { label: 'Agreed', value: (row) => number(row.agree), numeric: true },
                    { label: 'Overrode', value: (row) => number(row.override), numeric: true },
                    { label: 'Agreement', value: (row) => pct(row.agreementRate), numeric: true },
                    { label: 'Override rate', value: (row) => pct(row.overrideRate), numeric: true },
                  ]}
                />
              }
            />
          </>
        );
      }}
    </TabFrame>
  );
}
