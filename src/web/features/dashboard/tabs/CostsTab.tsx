import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ChartSection, DataTable, KpiCards, NoActivity, number, TabFrame, usd } from '../parts';
import { useDashboardTab, type DashboardFilterValues } from '../queries';
import { BUCKET_COLUMN, BUCKET_NOTE, periodLabel, SOURCE_LABELS, SPEND_LABELS, UNIT_LABELS } from '../words';

export default function CostsTab({ filters }: { filters: DashboardFilterValues }) {
  const query = useDashboardTab('costs', filters);
  return (
    <TabFrame query={query}>
      {(data) => {
        if (data.total === 0 && data.unitCosts.every((unit) => unit.count === 0))
          return (
            <NoActivity title="No spend in this range">Calls, SMS and AI prescreens record what they cost: start a sequence and spend appears here.</NoActivity>
          );
        return (
          <>
            <KpiCards
              items={[
                { label: 'Spend', value: usd(data.total) },
                ...data.unitCosts.map((unit) => ({
                  label: `Cost ${UNIT_LABELS[unit.unit].toLowerCase()}`,
                  value: usd(unit.cost),
                  hint: `${number(unit.count)} in range`,
                })),
              ].slice(0, 4)}
            />
            <ChartSection
              title={`Spend by ${data.bucket}`}
              description={BUCKET_NOTE[data.bucket] ?? undefined}
              chart={
                <ResponsiveContainer width="100%" height="100%">
                  <BarChart data={data.overTime} accessibilityLayer={false}>
                    <CartesianGrid strokeDasharray="3 3" vertical={false} />
                    <XAxis dataKey="period" tick={{ fontSize: 12 }} tickFormatter={(period: string) => periodLabel(data.bucket, period, true)} />
                    <YAxis />
                    <Tooltip formatter={(value) => usd(Number(value))} labelFormatter={(period) => periodLabel(data.bucket, String(period))} />
                    <Bar dataKey="amount" name="Spend (USD)" fill="#7c3aed" />
                  </BarChart>
                </ResponsiveContainer>
              }
              table={
                <DataTable
                  caption={`Spend by ${data.bucket}`}
                  rows={data.overTime}
                  rowKey={(row) => row.period}
                  columns={[
                    { label: BUCKET_COLUMN[data.bucket], value: (row) => periodLabel(data.bucket, row.period) },
                    { label: 'Spend', value: (row) => usd(row.amount), numeric: true },
                  ]}
                />
              }
            />
            <ChartSection
              title="Spend by channel"
              table={
                <DataTable
                  caption="Spend by channel"
                  rows={data.byChannel}
                  rowKey={(row) => `${row.source}-${row.label}`}
                  columns={[
                    { label: 'Channel', value: (row) => SOURCE_LABELS[row.source] },
                    { label: 'What', value: (row) => SPEND_LABELS[row.label] ?? row.label },
                    { label: 'Spend', value: (row) => usd(row.amount), numeric: true },
                  ]}
                />
              }
            />
            <ChartSection
              title="Unit costs"
              description="The range's spend divided by what it produced."
              table={
                <DataTable
                  caption="Unit costs"
                  rows={data.unitCosts}
                  rowKey={(row) => row.unit}
                  columns={[
                    { label: 'Unit', value: (row) => UNIT_LABELS[row.unit] },
                    { label: 'Count', value: (row) => number(row.count), numeric: true },
                    { label: 'Cost', value: (row) => usd(row.cost), numeric: true },
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
