import { createRoute } from '@hono/zod-openapi';
import { ApiErrorSchema } from '../../../contract/common';
import {
  AutoGenRequestSchema,
  CreateTrialQuerySchema,
  CreateTrialSchema,
  ListTrialSitesQuerySchema,
  ListTrialsQuerySchema,
  ReparseResultSchema,
  SuggestionsResultSchema,
  TrialDraftSchema,
  TrialListSchema,
  TrialSchema,
  TrialSiteListSchema,
  TrialSiteSchema,
  UpdateTrialSchema,
  UpdateTrialSiteSchema,
} from '../../../contract/trials';
import { createRouter, errorResponses as errors, jsonBody, jsonContent as json, pathParams } from '../../http/openapi';
import * as service from './service';

const tags = ['Trials'];
const trialParams = pathParams('trialId');
const siteParams = pathParams('trialId', 'siteId');
const nctTaken = json(ApiErrorSchema, 'A trial with this NCT id already exists in the organization');

export const trialRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      operationId: 'listTrials',
      tags,
      summary: 'Trials of the organizations in scope, with criteria and candidate counts (organizationIds/orgs narrow)',
      request: { query: ListTrialsQuerySchema },
      responses: { 200: json(TrialListSchema, 'Trials'), 400: errors[400], 401: errors[401] },
    }),
    async (c) => {
      const query = c.req.valid('query');
      return c.json(await service.listTrials(c.get('deps').db, c.get('scope'), [query.organizationIds, query.orgs]), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/',
      operationId: 'createTrial',
      tags,
      summary: 'Create a draft trial by hand, in the one organization of organizationIds or else the active organization',
      request: { query: CreateTrialQuerySchema, ...jsonBody(CreateTrialSchema) },
      responses: { 201: json(TrialSchema, 'Created'), ...errors, 409: nctTaken },
    }),
    async (c) => c.json(await service.createTrial(c.get('deps').db, c.get('scope'), c.req.valid('query').organizationIds, c.req.valid('json')), 201),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/auto-gen',
      operationId: 'draftTrialFromRecord',
      tags,
      summary:
        'Draft a trial from a ClinicalTrials.gov API v2 study record. Body: the record itself (saved at once), or { study: <record>, save?: boolean }; save: false answers 200 with the draft (preview) and saves nothing',
      request: { query: CreateTrialQuerySchema, ...jsonBody(AutoGenRequestSchema) },
      responses: {
        200: json(TrialDraftSchema, 'Preview (save: false): the draft, not saved'),
        201: json(TrialSchema, 'Created as a draft trial'),
        ...errors,
        409: nctTaken,
      },
    }),
    async (c) => {
      const result = await service.autoGenerate(c.get('deps').db, c.get('scope'), c.req.valid('query').organizationIds, c.req.valid('json'));
      return result.saved ? c.json(result.trial, 201) : c.json(result.draft, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/{trialId}',
      operationId: 'getTrial',
      tags,
      summary: 'Get a trial with its criteria',
      request: { params: trialParams },
      responses: { 200: json(TrialSchema, 'The trial'), 401: errors[401], 404: errors[404] },
    }),
    async (c) => c.json(await service.getTrial(c.get('deps').db, c.get('scope'), c.req.valid('param').trialId), 200),
  )
  .openapi(
    createRoute({
      method: 'patch',
      path: '/{trialId}',
      operationId: 'updateTrial',
      tags,
      summary: 'Change a trial: any fields, its status (following the lifecycle) and its ordered criteria (the list given replaces it)',
      request: { params: trialParams, ...jsonBody(UpdateTrialSchema) },
      responses: { 200: json(TrialSchema, 'Updated'), ...errors, 409: nctTaken },
    }),
    async (c) => c.json(await service.updateTrial(c.get('deps').db, c.get('scope'), c.req.valid('param').trialId, c.req.valid('json')), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/{trialId}/sites',
      operationId: 'listTrialSites',
      tags,
      summary: "A page of the trial's sites, our sites first; q searches facility, city, state, postal code and country; ownOnly=true lists only ours",
      request: { params: trialParams, query: ListTrialSitesQuerySchema },
      responses: { 200: json(TrialSiteListSchema, 'Sites'), 400: errors[400], 401: errors[401], 404: errors[404] },
    }),
    async (c) => c.json(await service.listSites(c.get('deps').db, c.get('scope'), c.req.valid('param').trialId, c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'patch',
      path: '/{trialId}/sites/{siteId}',
      operationId: 'updateTrialSite',
      tags,
      summary: 'Mark a site as one the organization runs (isOwnSite), or set its IANA time zone (null goes back to the one its location tells)',
      request: { params: siteParams, ...jsonBody(UpdateTrialSiteSchema) },
      responses: { 200: json(TrialSiteSchema, 'Updated'), ...errors },
    }),
    async (c) => {
      const { trialId, siteId } = c.req.valid('param');
      return c.json(await service.updateSite(c.get('deps').db, c.get('scope'), trialId, siteId, c.req.valid('json')), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/{trialId}/reparse',
      operationId: 'reparseTrialCriteria',
      tags,
      summary: "Re-read the criteria's text with the current reader: keeps rules set by a person, reports what changed",
      request: { params: trialParams },
      responses: { 200: json(ReparseResultSchema, 'What changed'), 401: errors[401], 404: errors[404] },
    }),
    async (c) => c.json(await service.reparseTrial(c.get('deps').db, c.get('scope'), c.req.valid('param').trialId), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/{trialId}/suggestions',
      operationId: 'suggestTrialCriteria',
      tags,
      summary: 'Ask the configured language model for rules for the criteria no reader could read; stored as proposals that need review',
      request: { params: trialParams },
      responses: {
        200: json(SuggestionsResultSchema, 'The proposals stored, and the criteria left unread'),
        401: errors[401],
        404: errors[404],
        409: json(ApiErrorSchema, 'No language model is configured (LLM_NOT_CONFIGURED)'),
        502: json(ApiErrorSchema, 'The language model failed or answered out of shape (LLM_ERROR)'),
      },
    }),
    async (c) =>
      c.json(
        await service.suggestRules(c.get('deps').db, c.get('deps').criteriaReader, c.get('scope'), c.req.valid('param').trialId, c.get('deps').config.rates),
        200,
      ),
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/{trialId}',
      operationId: 'deleteTrial',
      tags,
      summary: 'Delete a trial and its criteria (owners and admins)',
      request: { params: trialParams },
      responses: { 204: { description: 'Deleted' }, ...errors },
    }),
    async (c) => {
      await service.deleteTrial(c.get('deps').db, c.get('scope'), c.req.valid('param').trialId);
      return c.body(null, 204);
    },
  );
