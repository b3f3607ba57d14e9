import { useCallback, useEffect, useState } from 'react';

/**
 * The dashboard tabs' code (each with its charts), loaded apart from the first page (decision 157). Fetched ahead
 * (issue 32: every tab < 500 ms): from the step before the dashboard and as the dashboard asks for its data, so a
 * tab's code is not fetched only once its data has come, nor on the first click on it.
 *
 * Rendered from the loaded module, not through React.lazy and Suspense (decision 182): a lazy component suspends on
 * its first render even when its code is already here, and React 19 then holds the revealed tab back until 300 ms
 * after the "Loading the charts" fallback showed: that wait was most of the dashboard's first load.
 */
const LOADERS = {
  overview: () => import('./OverviewTab'),
  'site-performance': () => import('./SitePerformanceTab'),
  forecasting: () => import('./ForecastingTab'),
  demographics: () => import('./DemographicsTab'),
};
export type TabModules = { [Tab in keyof typeof LOADERS]: Awaited<ReturnType<(typeof LOADERS)[Tab]>>['default'] };
type TabName = keyof TabModules;

const loaded: Partial<TabModules> = {};

function loadTab<Tab extends TabName>(tab: Tab): Promise<TabModules[Tab]> {
  return LOADERS[tab]().then((module) => {
    const component = module.default as TabModules[Tab];
    loaded[tab] = component;
    return component;
  });
}

/** Starts loading these tabs' code (every tab's by default); a failure is left to the tab that needs it (useTabCode retries). */
export function preloadDashboardTabs(tabs: TabName[] = Object.keys(LOADERS) as TabName[]): void {
  for (const tab of tabs) if (!loaded[tab]) loadTab(tab).catch(() => undefined);
}

/** A tab's component once its code is here (at once when it already is), the load's failure, and a retry. */
export function useTabCode<Tab extends TabName>(tab: Tab): { component: TabModules[Tab] | undefined; error: Error | null; retry: () => void } {
  const [, setLoads] = useState(0);
  const [failed, setFailed] = useState<{ tab: TabName; error: Error } | null>(null);
  const component = loaded[tab] as TabModules[Tab] | undefined;
  const load = useCallback(() => {
    setFailed(null);
    loadTab(tab).then(
      () => setLoads((count) => count + 1),
      (error: unknown) => setFailed({ tab, error: error instanceof Error ? error : new Error('The charts could not be loaded') }),
    );
  }, [tab]);
  useEffect(() => {
    if (!component) load();
  }, [component, load]);
  return { component, error: failed?.tab === tab ? failed.error : null, retry: load };
}
