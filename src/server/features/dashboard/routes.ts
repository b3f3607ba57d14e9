import { createRoute, z } from '@hono/zod-openapi';
import {
  CostsSchema,
  CustomerOverviewSchema,
  DashboardExportQuerySchema,
  DashboardQuerySchema,
  FunnelBreakdownSchema,
  MatcherDashboardSchema,
  PrescreenAnalyticsSchema,
  SatisfactionSchema,
  TrialLifecycleSchema,
  type DashboardTab,
} from '../../../contract/dashboard';
import { createRouter, errorResponses as errors, jsonContent as json } from '../../http/openapi';
import { toCsv } from './csv';
import * as service from './service';

const tags = ['Dashboard'];
const filtersText = 'orgs (narrows the scope), from/to (UTC days, inclusive) or preset (7d, 30d default, 90d, quarter, ytd, all), source';
const responses = (schema: z.ZodType, description: string) => ({ 200: json(schema, description), 400: errors[400], 401: errors[401], 403: errors[403] });

function tabRoute<T extends DashboardTab>(name: T, schema: z.ZodType, summary: string) {
  return createRoute({
    method: 'get',
    path: `/${name}`,
    operationId: `getDashboard${name.replace(/(^|-)(\w)/g, (_, _dash, letter: string) => letter.toUpperCase())}`,
    tags,
    summary: `${summary} (${filtersText})`,
    request: { query: DashboardQuerySchema },
    responses: responses(schema, summary),
  });
}

/** /api/dashboard: the admin dashboard's tabs over the activity model (decision 032). Read-only. */
export const dashboardRoutes = createRouter()
  .openapi(tabRoute('funnel-breakdown', FunnelBreakdownSchema, 'Funnel stages and conversion, by trial and source, with drop-off reasons'), async (c) =>
    c.json(await service.tab(c.get('deps').db, c.get('scope'), 'funnel-breakdown', c.req.valid('query')), 200),
  )
  .openapi(
    tabRoute('prescreen-analytics', PrescreenAnalyticsSchema, 'Prescreen recommendations over time, time to result, failing criteria, reviewer agreement'),
    async (c) => c.json(await service.tab(c.get('deps').db, c.get('scope'), 'prescreen-analytics', c.req.valid('query')), 200),
  )
  .openapi(tabRoute('patient-satisfaction', SatisfactionSchema, 'CSAT, rating distribution, by channel and by agent'), async (c) =>
    c.json(await service.tab(c.get('deps').db, c.get('scope'), 'patient-satisfaction', c.req.valid('query')), 200),
  )
  .openapi(tabRoute('trial-lifecycle', TrialLifecycleSchema, 'Per trial: days in each status, enrollment against target'), async (c) =>
    c.json(await service.tab(c.get('deps').db, c.get('scope'), 'trial-lifecycle', c.req.valid('query')), 200),
  )
  .openapi(tabRoute('trial-matcher', MatcherDashboardSchema, "The matcher's latest results: found, contacted, converted, top gaps"), async (c) =>
    c.json(await service.tab(c.get('deps').db, c.get('scope'), 'trial-matcher', c.req.valid('query')), 200),
  )
  .openapi(tabRoute('costs', CostsSchema, 'Spend by channel and over time; cost per prescreen, PASS, booked visit, enrollment'), async (c) =>
    c.json(await service.tab(c.get('deps').db, c.get('scope'), 'costs', c.req.valid('query')), 200),
  )
  .openapi(
    tabRoute('customer-overview', CustomerOverviewSchema, 'Per organization: activity, recruiting trials, last sign-in, health flags (Cohortly admins only)'),
    async (c) => c.json(await service.tab(c.get('deps').db, c.get('scope'), 'customer-overview', c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/export',
      operationId: 'exportDashboard',
      tags,
      summary: `One tab as CSV (section, group, metric, value), with the same filters: tab, ${filtersText}`,
      request: { query: DashboardExportQuerySchema },
      responses: { 200: { content: { 'text/csv': { schema: z.string() } }, description: 'CSV' }, 400: errors[400], 401: errors[401], 403: errors[403] },
    }),
    async (c) => {
      const { tab, ...query } = c.req.valid('query');
      const data = await service.tab(c.get('deps').db, c.get('scope'), tab, query);
      const day = data.filters.to;
      return c.body(toCsv(tab, data), 200, {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="cohortly-${tab}-${day}.csv"`,
      });
    },
  );
