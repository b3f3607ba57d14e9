import { BarList } from '../BarList';
import { ChartSection, DataTable, KpiCards, NoActivity, number, ratioPct, TabFrame } from '../parts';
import { useDashboardTab, type DashboardFilterValues } from '../queries';
import { DROP_OFF_LABELS, SOURCE_LABELS, STAGE_LABELS, STAGE_ORDER as FUNNEL_STAGES } from '../words';

export default function FunnelTab({ filters }: { filters: DashboardFilterValues }) {
  const query = useDashboardTab('funnel-breakdown', filters);
  return (
    <TabFrame query={query}>
      {(data) => {
        const count = (stage: string) => data.stages.find((entry) => entry.stage === stage)?.count ?? 0;
        const empty = data.stages.every((entry) => entry.count === 0) && data.dropOff.every((entry) => entry.count === 0);
        if (empty) return <NoActivity />;
        const stages = data.stages.map((entry) => ({ ...entry, name: STAGE_LABELS[entry.stage] }));
        const dropOff = data.dropOff.map((entry) => ({ ...entry, name: DROP_OFF_LABELS[entry.reason] }));
        return (
          <>
            <KpiCards
              items={[
                { label: 'Candidates created', value: number(count('created')) },
                { label: 'Prescreened', value: number(count('prescreened')) },
                {
                  label: 'Passed',
                  value: number(count('passed')),
                  hint: count('prescreened') ? `${ratioPct(count('passed') / count('prescreened'))} of prescreens` : undefined,
                },
                { label: 'Enrolled', value: number(count('enrolled')) },
              ]}
            />
            <ChartSection
              title="Funnel"
              description="Events of each stage in the range, and the conversion from the stage before."
              fitChart
              chart={<BarList bars={stages.map((entry) => ({ key: entry.stage, label: entry.name, value: entry.count }))} color="#1d4ed8" />}
              table={
                <DataTable
                  caption="Funnel stages"
                  rows={stages}
                  rowKey={(row) => row.stage}
                  columns={[
                    { label: 'Stage', value: (row) => row.name },
                    { label: 'Count', value: (row) => number(row.count), numeric: true },
                    { label: 'Conversion', value: (row) => ratioPct(row.conversion), numeric: true },
                  ]}
                />
              }
            />
            <ChartSection
              title="By trial"
              description="The same stages per trial (events not tied to a trial, such as new candidates, are under “No trial”)."
              table={
                <DataTable
                  caption="Funnel by trial"
                  rows={data.byTrial}
                  rowKey={(row) => row.trialId ?? 'none'}
                  columns={[
                    { label: 'Trial', value: (row) => row.trialTitle ?? 'No trial' },
                    ...FUNNEL_STAGES.map((stage) => ({
                      label: STAGE_LABELS[stage],
                      value: (row: (typeof data.byTrial)[number]) => number(row.counts[stage]),
                      numeric: true,
                    })),
                  ]}
                />
              }
            />
            <ChartSection
              title="By source"
              table={
                <DataTable
                  caption="Funnel by source"
                  rows={data.bySource}
                  rowKey={(row) => row.source}
                  columns={[
                    { label: 'Source', value: (row) => SOURCE_LABELS[row.source] },
                    ...FUNNEL_STAGES.map((stage) => ({
                      label: STAGE_LABELS[stage],
                      value: (row: (typeof data.bySource)[number]) => number(row.counts[stage]),
                      numeric: true,
                    })),
                  ]}
                />
              }
            />
            <ChartSection
              title="Drop-off reasons"
              description="Why candidates left the funnel in the range."
              fitChart
              chart={<BarList bars={dropOff.map((entry) => ({ key: entry.reason, label: entry.name, value: entry.count }))} color="#b45309" />}
              table={
                <DataTable
                  caption="Drop-off reasons"
                  rows={dropOff}
                  rowKey={(row) => row.reason}
                  columns={[
                    { label: 'Reason', value: (row) => row.name },
                    { label: 'Count', value: (row) => number(row.count), numeric: true },
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
