import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Badge, EmptyState } from '../../../components/ui';
import { ChartSection, DataTable, KpiCards, number, pct, TabFrame, usd } from '../parts';
import { useDashboardTab, type DashboardFilterValues } from '../queries';
import { FLAG_LABELS } from '../words';

const dateTime = (value: string | null) => (value ? new Date(value).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' }) : 'Never');

export default function CustomersTab({ filters }: { filters: DashboardFilterValues }) {
  const query = useDashboardTab('customer-overview', filters);
  return (
    <TabFrame query={query}>
      {(data) => {
        if (data.organizations.length === 0)
          return <EmptyState title="No organizations selected">Choose organizations in the filter, or onboard a customer.</EmptyState>;
        const flagged = data.organizations.filter((org) => org.flags.length > 0).length;
        return (
          <>
            <KpiCards
              items={[
                { label: 'Organizations', value: number(data.organizations.length) },
                { label: 'With a health flag', value: number(flagged) },
                { label: 'Events in range', value: number(data.organizations.reduce((sum, org) => sum + org.events, 0)) },
                { label: 'Spend in range', value: usd(data.organizations.reduce((sum, org) => sum + org.spend, 0)) },
              ]}
            />
            <ChartSection
              title="Activity by organization"
              chart={
                <ResponsiveContainer width="100%" height="100%">
                  <BarChart data={data.organizations.slice(0, 20)} accessibilityLayer={false}>
                    <CartesianGrid strokeDasharray="3 3" vertical={false} />
                    <XAxis dataKey="name" tick={{ fontSize: 12 }} />
                    <YAxis allowDecimals={false} />
                    <Tooltip />
                    <Bar dataKey="events" name="Events" fill="#1d4ed8" />
                  </BarChart>
                </ResponsiveContainer>
              }
              table={
                <DataTable
                  caption="Events by organization"
                  rows={data.organizations.slice(0, 20)}
                  rowKey={(row) => row.organizationId}
                  columns={[
                    { label: 'Organization', value: (row) => row.name },
                    { label: 'Events', value: (row) => number(row.events), numeric: true },
                  ]}
                />
              }
            />
            <ChartSection
              title="Organizations"
              description="Activity in the range; last activity and sign-in at any time. Flags: no activity in 14 days, opt-out rate above 5% of candidates contacted."
              table={
                <DataTable
                  caption="Customer overview"
                  rows={data.organizations}
                  rowKey={(row) => row.organizationId}
                  columns={[
                    { label: 'Organization', value: (row) => row.name },
                    { label: 'Events', value: (row) => number(row.events), numeric: true },
                    { label: 'Candidates', value: (row) => number(row.candidatesCreated), numeric: true },
                    { label: 'Enrolled', value: (row) => number(row.enrolled), numeric: true },
                    { label: 'Recruiting trials', value: (row) => number(row.recruitingTrials), numeric: true },
                    { label: 'Spend', value: (row) => usd(row.spend), numeric: true },
                    { label: 'Opt-out rate', value: (row) => pct(row.optOutRate), numeric: true },
                    { label: 'Last activity', value: (row) => row.lastActivityDay ?? 'None' },
                    { label: 'Last sign-in', value: (row) => dateTime(row.lastSignInAt) },
                    {
                      label: 'Health',
                      value: (row) =>
                        row.flags.length ? (
                          <span className="flex flex-wrap gap-1">
                            {row.flags.map((flag) => (
                              <Badge key={flag} tone="amber">
                                {FLAG_LABELS[flag]}
                              </Badge>
                            ))}
                          </span>
                        ) : (
                          <Badge tone="green">OK</Badge>
                        ),
                    },
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
