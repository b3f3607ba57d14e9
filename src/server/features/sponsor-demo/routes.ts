import { createRoute } from '@hono/zod-openapi';
import { SponsorDashboardQuerySchema, SponsorDashboardSchema, SponsorSiteListSchema, SponsorTrialListSchema } from '../../../contract/sponsor-demo';
import { createRouter, errorResponses as errors, jsonContent as json, pathParams } from '../../http/openapi';
import * as service from './service';

const tags = ['Sponsor demo'];
const idParams = pathParams('id');

/** /api/sponsor-demo: the demo organization's trials, sites and dashboard as a sponsor sees them (internal admins, decision 069). */
export const sponsorDemoRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/trials',
      operationId: 'listSponsorDemoTrials',
      tags,
      summary: "The demo organization's recruiting trials (internal admins)",
      responses: { 200: json(SponsorTrialListSchema, 'Trials'), ...errors },
    }),
    async (c) => c.json(await service.listTrials(c.get('deps').db, c.get('scope')), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/trials/{id}/sites',
      operationId: 'listSponsorDemoTrialSites',
      tags,
      summary: "A demo trial's sites ranked by pool, speed and diversity",
      request: { params: idParams },
      responses: { 200: json(SponsorSiteListSchema, 'Ranked sites'), ...errors },
    }),
    async (c) => c.json(await service.listSites(c.get('deps').db, c.get('scope'), c.req.valid('param').id), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/trials/{id}/dashboard',
      operationId: 'getSponsorDemoTrialDashboard',
      tags,
      summary: 'The sponsor dashboard over the chosen sites: funnel, site performance, forecast (with sites needed by a deadline), demographics',
      request: { params: idParams, query: SponsorDashboardQuerySchema },
      responses: { 200: json(SponsorDashboardSchema, 'The dashboard'), ...errors },
    }),
    async (c) => c.json(await service.dashboard(c.get('deps').db, c.get('scope'), c.req.valid('param').id, c.req.valid('query')), 200),
  );
