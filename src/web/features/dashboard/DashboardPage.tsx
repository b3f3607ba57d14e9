import { Link, useNavigate } from '@tanstack/react-router';
import { Download } from 'lucide-react';
import { type ComponentType, lazy, Suspense, useRef, useState, type KeyboardEvent } from 'react';
import { ACTIVITY_PRESETS, ACTIVITY_SOURCES, DEFAULT_ACTIVITY_PRESET, type ActivityPreset } from '../../../contract/activity';
import { DASHBOARD_TABS } from '../../../contract/search';
import { FormError } from '../../components/FormError';
import { Button, FilterSelect, Input, Label, PageHeader, Select } from '../../components/ui';
import { useActiveOrganization } from '../../lib/active-organization';
import { errorMessage } from '../../lib/utils';
import { OrganizationFilter } from '../trials/OrganizationFilter';
import { useIsGlobal } from '../trials/hooks';
import { TabSkeleton } from './parts';
import FunnelTab from './tabs/FunnelTab';
import { cleanFilters, downloadCsv, type DashboardFilterValues } from './queries';
import { SOURCE_LABELS } from './words';

export type DashboardTabId = (typeof DASHBOARD_TABS)[number];

const TAB_LABELS: Record<DashboardTabId, string> = {
  'funnel-breakdown': 'Funnel',
  'prescreen-analytics': 'Prescreen',
  'patient-satisfaction': 'Satisfaction',
  'trial-lifecycle': 'Trial lifecycle',
  'trial-matcher': 'Trial matcher',
  costs: 'Costs',
  'customer-overview': 'Customers',
};
const PRESET_LABELS: Record<ActivityPreset, string> = {
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '90d': 'Last 90 days',
  quarter: 'This quarter',
  ytd: 'Year to date',
  all: 'All time',
};

/**
 * Each tab's charts and recharts load with the tab. The first tab (what /admin/dashboard opens on) draws its bars
 * without recharts and comes with the page, so its numbers are asked for without waiting for another chunk.
 */
const TAB_VIEWS: Record<DashboardTabId, ComponentType<{ filters: DashboardFilterValues }>> = {
  'funnel-breakdown': FunnelTab,
  'prescreen-analytics': lazy(() => import('./tabs/PrescreenTab')),
  'patient-satisfaction': lazy(() => import('./tabs/SatisfactionTab')),
  'trial-lifecycle': lazy(() => import('./tabs/LifecycleTab')),
  'trial-matcher': lazy(() => import('./tabs/MatcherTab')),
  costs: lazy(() => import('./tabs/CostsTab')),
  'customer-overview': lazy(() => import('./tabs/CustomersTab')),
};

export interface DashboardSearchValues {
  orgs?: string[];
  from?: string;
  to?: string;
  preset?: string;
  source?: string;
  tab: DashboardTabId;
}

/**
 * /admin/dashboard (decision 032): shared filters in the URL (organizations for global admins, a preset or a
 * from/to range, a source), a tab list (links; arrow keys move between tabs), and the tab's KPI cards,
 * charts with their tables, and a CSV download of the same numbers.
 */
export function DashboardPage({ search }: { search: DashboardSearchValues }) {
  const isGlobal = useIsGlobal();
  const { organizations } = useActiveOrganization();
  const navigate = useNavigate({ from: '/admin/dashboard' });
  const filters = cleanFilters(search, isGlobal);
  const tabs = DASHBOARD_TABS.filter((tab) => tab !== 'customer-overview' || isGlobal);
  const tab = tabs.includes(search.tab) ? search.tab : 'funnel-breakdown';
  const View = TAB_VIEWS[tab];
  const tabRefs = useRef<Record<string, HTMLAnchorElement | null>>({});
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);

  const update = (next: Partial<DashboardSearchValues>) => void navigate({ search: (previous) => ({ ...previous, ...next }), replace: true });

  const onTabKey = (event: KeyboardEvent<HTMLAnchorElement>) => {
    const index = tabs.indexOf(tab);
    const target = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = tabs[(target + tabs.length) % tabs.length];
    void navigate({ search: (previous) => ({ ...previous, tab: next }) });
    tabRefs.current[next]?.focus();
  };

  const download = async () => {
    setDownloading(true);
    setDownloadError(null);
    try {
      await downloadCsv(tab, filters);
    } catch (error) {
      setDownloadError(errorMessage(error, 'Could not download the CSV'));
    } finally {
      setDownloading(false);
    }
  };

  const rangeValue = filters.from ? 'custom' : (filters.preset ?? DEFAULT_ACTIVITY_PRESET);

  return (
    <div className="grid gap-5">
      <PageHeader
        title="Dashboard"
        description={isGlobal ? 'Recruitment activity across the selected organizations.' : "Your organization's recruitment activity."}
        actions={
          <Button variant="secondary" onClick={() => void download()} disabled={downloading} data-testid="download-csv">
            <Download aria-hidden="true" className="h-4 w-4" />
            {downloading ? 'Preparing CSV…' : 'Download CSV'}
          </Button>
        }
      />
      {downloadError && <FormError>{downloadError}</FormError>}
      <form className="flex flex-wrap items-end gap-3" aria-label="Dashboard filters" onSubmit={(event) => event.preventDefault()}>
        <div className="grid gap-1.5">
          <Label htmlFor="dashboard-range">Range</Label>
          <Select
            id="dashboard-range"
            value={rangeValue}
            onChange={(event) => {
              const value = event.target.value;
              if (value === 'custom') update({ from: filters.from ?? filters.to ?? new Date().toISOString().slice(0, 10), preset: undefined });
              else update({ preset: value === DEFAULT_ACTIVITY_PRESET ? undefined : value, from: undefined, to: undefined });
            }}
          >
            {ACTIVITY_PRESETS.map((preset) => (
              <option key={preset} value={preset}>
                {PRESET_LABELS[preset]}
              </option>
            ))}
            <option value="custom">Custom range</option>
          </Select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="dashboard-from">From</Label>
          <Input
            id="dashboard-from"
            type="date"
            value={filters.from ?? ''}
            max={filters.to}
            onChange={(event) => update({ from: event.target.value || undefined, preset: undefined })}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="dashboard-to">To</Label>
          <Input
            id="dashboard-to"
            type="date"
            value={filters.to ?? ''}
            min={filters.from}
            onChange={(event) => update({ to: event.target.value || undefined })}
          />
        </div>
        <FilterSelect
          id="dashboard-source"
          label="Source"
          anyLabel="All sources"
          value={filters.source}
          options={ACTIVITY_SOURCES.map((source) => ({ value: source, label: SOURCE_LABELS[source] }))}
          onChange={(source) => update({ source })}
        />
        {isGlobal && (
          <OrganizationFilter
            organizations={organizations.map((org) => ({ id: org.id, name: org.name }))}
            selected={filters.orgs}
            onChange={(orgs) => update({ orgs })}
          />
        )}
      </form>
      <div role="tablist" aria-label="Dashboard" className="flex flex-wrap gap-1 border-b border-slate-200">
        {tabs.map((id) => (
          <Link
            key={id}
            ref={(element) => {
              tabRefs.current[id] = element;
            }}
            to="/admin/dashboard"
            search={(previous) => ({ ...previous, tab: id })}
            role="tab"
            id={`dashboard-tab-${id}`}
            aria-selected={id === tab}
            aria-controls="dashboard-panel"
            tabIndex={id === tab ? 0 : -1}
            onKeyDown={onTabKey}
            className={
              id === tab
                ? '-mb-px border-b-2 border-blue-700 px-3 py-2 text-sm font-semibold text-blue-800 focus-visible:outline-2 focus-visible:outline-blue-700'
                : 'px-3 py-2 text-sm text-slate-800 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-700'
            }
          >
            {TAB_LABELS[id]}
          </Link>
        ))}
      </div>
      <div role="tabpanel" id="dashboard-panel" aria-labelledby={`dashboard-tab-${tab}`} tabIndex={0}>
        <Suspense fallback={<TabSkeleton />}>
          <View key={tab} filters={filters} />
        </Suspense>
      </div>
    </div>
  );
}
