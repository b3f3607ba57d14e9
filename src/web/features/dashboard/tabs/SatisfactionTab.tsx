import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { EmptyState } from '../../../components/ui';
import { ChartSection, DataTable, KpiCards, number, pct, TabFrame } from '../parts';
import { useDashboardTab, type DashboardFilterValues } from '../queries';
import { SOURCE_LABELS } from '../words';

export default function SatisfactionTab({ filters }: { filters: DashboardFilterValues }) {
  const query = useDashboardTab('patient-satisfaction', filters);
  return (
    <TabFrame query={query}>
      {(data) => {
        if (data.ratings === 0)
          return (
            <EmptyState title="No satisfaction ratings in this range">
              <p>
                Candidates rate their experience from 1 to 5 at the end of a chat, as the last question of a call, and by replying 1–5 to the SMS sent after a
                booking. Ratings appear here as they come in.
              </p>
            </EmptyState>
          );
        return (
          <>
            <KpiCards
              items={[
                { label: 'CSAT (ratings of 4–5)', value: pct(data.csat) },
                { label: 'Average rating', value: number(data.average, 2) },
                { label: 'Ratings', value: number(data.ratings) },
              ]}
            />
            <ChartSection
              title="Distribution"
              chart={
                <ResponsiveContainer width="100%" height="100%">
                  <BarChart data={data.distribution} accessibilityLayer={false}>
                    <CartesianGrid strokeDasharray="3 3" vertical={false} />
                    <XAxis dataKey="rating" />
                    <YAxis allowDecimals={false} />
                    <Tooltip />
                    <Bar dataKey="count" name="Ratings" fill="#0f766e" />
                  </BarChart>
                </ResponsiveContainer>
              }
              table={
                <DataTable
                  caption="Ratings by score"
                  rows={data.distribution}
                  rowKey={(row) => String(row.rating)}
                  columns={[
                    { label: 'Rating', value: (row) => row.rating },
                    { label: 'Ratings', value: (row) => number(row.count), numeric: true },
                  ]}
                />
              }
            />
            <ChartSection
              title="By channel"
              table={
                <DataTable
                  caption="Satisfaction by channel"
                  rows={data.byChannel}
                  rowKey={(row) => row.source}
                  columns={[
                    { label: 'Channel', value: (row) => SOURCE_LABELS[row.source] },
                    { label: 'Ratings', value: (row) => number(row.ratings), numeric: true },
                    { label: 'CSAT', value: (row) => pct(row.csat), numeric: true },
                    { label: 'Average', value: (row) => number(row.average, 2), numeric: true },
                  ]}
                />
              }
            />
            <ChartSection
              title="Recent comments"
              description="The newest ratings that came with a comment, in this range."
              empty={
                data.comments.length === 0 ? (
                  <EmptyState title="No comments in this range">Candidates may add a few words to their rating; the newest appear here.</EmptyState>
                ) : undefined
              }
              table={
                <DataTable
                  caption="Recent comments"
                  rows={data.comments}
                  rowKey={(row) => row.id}
                  columns={[
                    { label: 'When', value: (row) => new Date(row.createdAt).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' }) },
                    { label: 'Channel', value: (row) => SOURCE_LABELS[row.channel] },
                    { label: 'Rating', value: (row) => row.rating, numeric: true },
                    { label: 'Comment', value: (row) => row.comment },
                  ]}
                />
              }
            />
            <ChartSection
              title="By agent"
              table={
                <DataTable
                  caption="Satisfaction by agent"
                  rows={data.byAgent}
                  rowKey={(row) => row.agentId ?? 'none'}
                  columns={[
                    { label: 'Agent', value: (row) => row.agentName ?? (row.agentId ? 'Deleted agent' : 'No agent (SMS, staff)') },
                    { label: 'Ratings', value: (row) => number(row.ratings), numeric: true },
                    { label: 'CSAT', value: (row) => pct(row.csat), numeric: true },
                    { label: 'Average', value: (row) => number(row.average, 2), numeric: true },
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
