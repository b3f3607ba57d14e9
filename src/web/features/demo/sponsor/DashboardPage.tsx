import { shortTrialTitle } from '../../../../contract/trial-name';
import { useEffect } from 'react';
import { TabList } from '../../../components/TabList';
import type { SponsorDashboard } from '../../../../contract/sponsor-demo';
import { ErrorCard } from '../../../components/ErrorCard';
import { Spinner } from '../../../components/Spinner';
import { ChooseSitesFirst, SponsorDemoStep, type SponsorFlow } from '../SponsorDemoStep';
import { useSponsorDashboard } from './queries';
import { preloadDashboardTabs, useTabCode } from './tab-chunks';

export const DASHBOARD_TABS = ['overview', 'site-performance', 'forecasting', 'demographics'] as const;
export type DashboardTab = (typeof DASHBOARD_TABS)[number];
const TAB_LABELS: Record<DashboardTab, string> = {
  overview: 'Overview',
  'site-performance': 'Site performance',
  forecasting: 'Forecasting',
  demographics: 'Demographics',
};
const tabId = (tab: DashboardTab) => `sponsor-tab-${tab}`;

export interface DashboardSearch extends SponsorFlow {
  tab: DashboardTab;
  deadline?: string;
}

/** Step 4: the sponsor's dashboard over the chosen sites, in four tabs. */
export function DashboardPage({ search, onChange }: { search: DashboardSearch; onChange: (patch: Partial<DashboardSearch>) => void }) {
  const deadline = search.deadline && /^\d{4}-\d{2}-\d{2}$/.test(search.deadline) ? search.deadline : undefined;
  const query = useSponsorDashboard(search.trial, search.sites ?? [], deadline);
  // The chosen tab's code with the data; the other tabs' once it shows, not competing with it (decision 186).
  const tab = search.tab;
  const shown = Boolean(query.data);
  useEffect(() => preloadDashboardTabs(shown ? undefined : [tab]), [tab, shown]);
  const flow = { trial: search.trial, sites: search.sites };

  let body;
  if (!search.trial) {
    body = <ChooseSitesFirst title="No trial chosen yet" flow={flow} />;
  } else if (query.isPending) body = <Spinner label="Loading the dashboard" />;
  else if (query.isError) body = <ErrorCard title="Could not load the dashboard" error={query.error} onRetry={() => void query.refetch()} />;
  else body = <Tabs data={query.data} search={search} onChange={onChange} busy={query.isFetching} stale={query.isPlaceholderData} />;

  return (
    <SponsorDemoStep
      step="/admin/demo/sponsors/dashboard"
      title="Sponsor dashboard"
      description={
        query.data
          ? `${shortTrialTitle(query.data.trial)}: ${query.data.sites.length} ${query.data.sites.length === 1 ? 'site' : 'sites'}${search.sites?.length ? ' chosen' : ' (all the trial’s sites)'}.`
          : 'Recruitment across the chosen sites.'
      }
      flow={flow}
      nextReady={Boolean(search.trial)}
    >
      {body}
    </SponsorDemoStep>
  );
}

function Tabs({
  data,
  search,
  onChange,
  busy,
  stale,
}: {
  data: SponsorDashboard;
  search: DashboardSearch;
  onChange: (patch: Partial<DashboardSearch>) => void;
  busy: boolean;
  stale: boolean;
}) {
  const tab = search.tab;
  return (
    <div className="grid gap-4">
      <TabList tabs={DASHBOARD_TABS} selected={tab} labels={TAB_LABELS} label="Sponsor dashboard" idOf={tabId} onSelect={(next) => onChange({ tab: next })} />
      <div role="tabpanel" id={`${tabId(tab)}-panel`} aria-labelledby={tabId(tab)} aria-busy={busy} className={stale ? 'opacity-60' : undefined}>
        <TabPanel tab={tab} data={data} onDeadline={(deadline) => onChange({ deadline })} />
      </div>
    </div>
  );
}

/** The chosen tab; its code (Recharts with it) is loaded apart and usually here already (tab-chunks.ts). */
function TabPanel({ tab, data, onDeadline }: { tab: DashboardTab; data: SponsorDashboard; onDeadline: (deadline: string) => void }) {
  const code = useTabCode(tab);
  if (code.error) return <ErrorCard title="Could not load the charts" error={code.error} onRetry={code.retry} />;
  const Tab = code.component;
  if (!Tab) return <Spinner label="Loading the charts" />;
  return <Tab data={data} onDeadline={onDeadline} />;
}
