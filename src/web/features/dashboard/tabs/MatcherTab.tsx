import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { EmptyState } from '../../../components/ui';
import { ChartSection, DataTable, KpiCards, number, ratioPct, TabFrame } from '../parts';
import { useDashboardTab, type DashboardFilterValues } from '../queries';

export default function MatcherTab({ filters }: { filters: DashboardFilterValues }) {
  const query = useDashboardTab('trial-matcher', filters);
  return (
    <TabFrame query={query}>
      {(data) => {
        if (data.trials.length === 0)
          return (
            <EmptyState title="No matching results yet">
              Open a trial in the trial matcher and run matching: the candidates it finds, and what becomes of them, appear here.
            </EmptyState>
          );
        return (
          <>
            <p className="text-sm text-slate-700">The latest completed matching run of each trial: not limited by the date range or source.</p>
            <KpiCards
              items={[
                { label: 'Matches found', value: number(data.totals.found), hint: 'likely or possible' },
                {
                  label: 'Contacted',
                  value: number(data.totals.contacted),
                  hint: ratioPct(data.totals.found ? data.totals.contacted / data.totals.found : null),
                },
                {
                  label: 'Converted (enrolled)',
                  value: number(data.totals.converted),
                  hint: ratioPct(data.totals.found ? data.totals.converted / data.totals.found : null),
                },
              ]}
            />
            <ChartSection
              title="By trial"
              chart={
                <ResponsiveContainer width="100%" height="100%">
                  <BarChart data={data.trials} accessibilityLayer={false}>
                    <CartesianGrid strokeDasharray="3 3" vertical={false} />
                    <XAxis dataKey="trialTitle" tick={{ fontSize: 12 }} />
                    <YAxis allowDecimals={false} />
                    <Tooltip />
                    <Legend />
                    <Bar dataKey="found" name="Found" fill="#1d4ed8" />
                    <Bar dataKey="contacted" name="Contacted" fill="#0f766e" />
                    <Bar dataKey="converted" name="Converted" fill="#15803d" />
                  </BarChart>
                </ResponsiveContainer>
              }
              table={
                <DataTable
                  caption="Matcher results by trial"
                  rows={data.trials}
                  rowKey={(row) => row.trialId}
                  columns={[
                    { label: 'Trial', value: (row) => row.trialTitle },
                    { label: 'Likely', value: (row) => number(row.likely), numeric: true },
                    { label: 'Possible', value: (row) => number(row.possible), numeric: true },
                    { label: 'Contacted', value: (row) => number(row.contacted), numeric: true },
                    { label: 'Converted', value: (row) => number(row.converted), numeric: true },
                  ]}
                />
              }
            />
            <ChartSection
              title="Top gaps"
              description="Criteria that most often stand between candidates and a match: not met, or nothing known to decide them."
              table={
                <DataTable
                  caption="Top gaps"
                  rows={data.topGaps}
                  rowKey={(row) => `${row.trialId}-${row.criterionId}`}
                  columns={[
                    { label: 'Trial', value: (row) => row.trialTitle },
                    { label: 'Criterion', value: (row) => row.text },
                    { label: 'Not met', value: (row) => number(row.notMet), numeric: true },
                    { label: 'Unknown', value: (row) => number(row.unknown), numeric: true },
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
