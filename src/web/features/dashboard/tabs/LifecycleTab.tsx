import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { TrialLifecycle } from '../../../../contract/dashboard';
import { Badge } from '../../../components/ui';
import { ChartSection, CHART_COLORS, DataTable, KpiCards, NoActivity, number, TabFrame } from '../parts';
import { useDashboardTab, type DashboardFilterValues } from '../queries';
import { BUCKET_NOTE, periodLabel, STATUS_LABELS } from '../words';

type TrialForecast = TrialLifecycle['trials'][number]['forecast'];

/** The projected date with its bands, or why there is none. */
function forecastText(forecast: TrialForecast) {
  if (!forecast) return '—';
  switch (forecast.status) {
    case 'target-met':
      return 'Target reached';
    case 'no-data':
    case 'no-sites':
      return 'Not enough recruiting time yet';
    case 'beyond-horizon':
      return 'More than 5 years at this pace';
    default:
      return (
        <span>
          {forecast.expectedDate}
          <span className="block text-xs text-slate-700">
            80%: {forecast.band80.low ?? '?'} to {forecast.band80.high ?? 'later'}; 95%: {forecast.band95.low ?? '?'} to {forecast.band95.high ?? 'later'}
          </span>
        </span>
      );
  }
}

export default function LifecycleTab({ filters }: { filters: DashboardFilterValues }) {
  const query = useDashboardTab('trial-lifecycle', filters);
  return (
    <TabFrame query={query}>
      {(data) => {
        if (data.trials.length === 0)
          return <NoActivity title="No trials yet">Create a trial and start recruiting: its status and enrollment appear here.</NoActivity>;
        const recruiting = data.trials.filter((trial) => trial.status === 'recruiting').length;
        const charted = data.trials.filter((trial) => trial.enrollment.length > 0).slice(0, 6);
        const periods = [...new Set(charted.flatMap((trial) => trial.enrollment.map((point) => point.period)))].sort();
        const series = periods.map((period) => {
          const point: Record<string, string | number> = { period };
          for (const trial of charted) {
            const last = trial.enrollment.filter((entry) => entry.period <= period).at(-1);
            point[trial.title] = last?.cumulative ?? 0;
          }
          return point;
        });
        const target = charted.length === 1 ? charted[0].targetEnrollment : null;
        return (
          <>
            <KpiCards
              items={[
                { label: 'Trials', value: number(data.trials.length) },
                { label: 'Recruiting', value: number(recruiting) },
                { label: 'Enrolled in range', value: number(data.trials.reduce((sum, trial) => sum + trial.enrolledInRange, 0)) },
                { label: 'Enrolled in all', value: number(data.trials.reduce((sum, trial) => sum + trial.enrolledTotal, 0)) },
              ]}
            />
            <ChartSection
              title="Enrollment in the range"
              description={`Cumulative enrollments by ${data.bucket}, per trial (up to six trials charted; all are in the table), and when each recruiting trial is projected to reach its target (80% and 95% ranges; a trial's sites are pooled).${BUCKET_NOTE[data.bucket] ? ` ${BUCKET_NOTE[data.bucket]}` : ''}`}
              chart={
                charted.length ? (
                  <ResponsiveContainer width="100%" height="100%">
                    <LineChart data={series} accessibilityLayer={false}>
                      <CartesianGrid strokeDasharray="3 3" vertical={false} />
                      <XAxis dataKey="period" tick={{ fontSize: 12 }} tickFormatter={(period: string) => periodLabel(data.bucket, period, true)} />
                      <YAxis allowDecimals={false} />
                      <Tooltip labelFormatter={(period) => periodLabel(data.bucket, String(period))} />
                      <Legend />
                      {target ? <ReferenceLine y={target} stroke="#be123c" strokeDasharray="4 4" label="Target" /> : null}
                      {charted.map((trial, index) => (
                        <Line key={trial.trialId} type="monotone" dataKey={trial.title} stroke={CHART_COLORS[index % CHART_COLORS.length]} dot={false} />
                      ))}
                    </LineChart>
                  </ResponsiveContainer>
                ) : undefined
              }
              table={
                <DataTable
                  caption="Enrollment against target by trial"
                  rows={data.trials}
                  rowKey={(row) => row.trialId}
                  columns={[
                    { label: 'Trial', value: (row) => row.title },
                    {
                      label: 'Status',
                      value: (row) => <Badge tone={row.status === 'recruiting' ? 'green' : 'slate'}>{STATUS_LABELS[row.status] ?? row.status}</Badge>,
                    },
                    { label: 'Enrolled in range', value: (row) => number(row.enrolledInRange), numeric: true },
                    { label: 'Enrolled in all', value: (row) => number(row.enrolledTotal), numeric: true },
                    { label: 'Target', value: (row) => number(row.targetEnrollment), numeric: true },
                    { label: 'Projected to reach target', value: (row) => forecastText(row.forecast) },
                  ]}
                />
              }
            />
            <ChartSection
              title="Time in each status"
              description="Days each trial has spent in each status since it was created (the current status up to today)."
              table={
                <DataTable
                  caption="Days in each status by trial"
                  rows={data.trials}
                  rowKey={(row) => row.trialId}
                  columns={[
                    { label: 'Trial', value: (row) => row.title },
                    ...['draft', 'recruiting', 'paused', 'closed'].map((status) => ({
                      label: STATUS_LABELS[status],
                      value: (row: (typeof data.trials)[number]) => number(row.daysInStatus.find((entry) => entry.status === status)?.days ?? 0, 1),
                      numeric: true,
                    })),
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
