/**
 * The dashboard tabs' code (each with its charts), loaded apart from the first page (decision 157). Fetched ahead
 * (issue 32: every tab < 500 ms): from the step before the dashboard and as the dashboard asks for its data, so a
 * tab's code is not fetched only once its data has come, nor on the first click on it.
 */
export const loadOverviewTab = () => import('./OverviewTab');
export const loadSitePerformanceTab = () => import('./SitePerformanceTab');
export const loadForecastingTab = () => import('./ForecastingTab');
export const loadDemographicsTab = () => import('./DemographicsTab');

/** Starts loading every tab's code; a failure is left to the tab that needs it (its lazy import retries). */
export function preloadDashboardTabs(): void {
  for (const load of [loadOverviewTab, loadSitePerformanceTab, loadForecastingTab, loadDemographicsTab]) load().catch(() => undefined);
}
