import { type ModuleLoader, moduleLoader, useLoadedModule } from '../../../lib/loaded-module';

/**
 * The dashboard tabs' code (each with its charts), loaded apart from the first page (decision 157). Fetched ahead
 * (issue 32: every tab < 500 ms): from the step before the dashboard and as the dashboard asks for its data, so a
 * tab's code is not fetched only once its data has come, nor on the first click on it.
 *
 * Rendered from the loaded module, not through React.lazy and Suspense (decision 182): a lazy component suspends on
 * its first render even when its code is already here, and React 19 then holds the revealed tab back until 300 ms
 * after the "Loading the charts" fallback showed: that wait was most of the dashboard's first load. The loading is
 * the shared `src/web/lib/loaded-module.ts` (decision 190).
 */
const LOADERS = {
  overview: moduleLoader(() => import('./OverviewTab').then((module) => module.default)),
  'site-performance': moduleLoader(() => import('./SitePerformanceTab').then((module) => module.default)),
  forecasting: moduleLoader(() => import('./ForecastingTab').then((module) => module.default)),
  demographics: moduleLoader(() => import('./DemographicsTab').then((module) => module.default)),
};
export type TabModules = { [Tab in keyof typeof LOADERS]: NonNullable<ReturnType<(typeof LOADERS)[Tab]['current']>> };
type TabName = keyof TabModules;

/** Starts loading these tabs' code (every tab's by default); a failure is left to the tab that needs it (useTabCode retries). */
export function preloadDashboardTabs(tabs: TabName[] = Object.keys(LOADERS) as TabName[]): void {
  for (const tab of tabs) LOADERS[tab].start().catch(() => undefined);
}

/** A tab's component once its code is here (at once when it already is), the load's failure, and a retry. */
export function useTabCode<Tab extends TabName>(tab: Tab): { component: TabModules[Tab] | undefined; error: Error | null; retry: () => void } {
  const { value, error, retry } = useLoadedModule(LOADERS[tab] as ModuleLoader<TabModules[Tab]>);
  return { component: value, error, retry };
}
