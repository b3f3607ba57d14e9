import { createRoute } from '@hono/zod-openapi';
import { ApiErrorSchema } from '../../../contract/common';
import {
  CreateOnboardingAgentsSchema,
  CreateStarterSequenceSchema,
  ImportOnboardingTrialSchema,
  InviteOwnerSchema,
  ListOnboardingsQuerySchema,
  OnboardingChecklistSchema,
  OnboardingListSchema,
  OnboardingSchema,
  SaveOrganizationSitesSchema,
  StartOnboardingSchema,
  UpdateOnboardingSchema,
} from '../../../contract/onboarding';
import { createRouter, errorResponses as errors, jsonBody, jsonContent as json, pathParams } from '../../http/openapi';
import * as service from './service';

const tags = ['Onboarding'];
const idParams = pathParams('id');
const done = (description: string) => ({ 200: json(OnboardingSchema, description), ...errors });
const conflict = (description: string) => ({ 409: json(ApiErrorSchema, description) });

/** /api/onboarding: Cohortly's internal admins (the Cohortly organization active) onboard a customer organization. */
export const onboardingRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      operationId: 'listOnboardings',
      tags,
      summary: 'Onboardings, most recently worked on first (status: open (default), completed or all); internal admins in global scope',
      request: { query: ListOnboardingsQuerySchema },
      responses: { 200: json(OnboardingListSchema, 'Onboardings'), 400: errors[400], 401: errors[401], 403: errors[403] },
    }),
    async (c) => c.json(await service.listOnboardings(c.get('deps').db, c.get('scope'), c.req.valid('query').status), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/',
      operationId: 'createOnboarding',
      tags,
      summary: 'Start onboarding a new organization: creates the organization (name, optional slug) and its onboarding',
      request: jsonBody(StartOnboardingSchema),
      responses: { 201: json(OnboardingSchema, 'Started'), 400: errors[400], 401: errors[401], 403: errors[403], ...conflict('Slug taken') },
    }),
    async (c) => {
      const started = await service.startOnboarding(c.get('deps').db, c.get('scope'), c.req.valid('json'));
      // The next request's scope must reach the new organization.
      c.get('deps').sessions.organizationsChanged();
      return c.json(started, 201);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/{id}',
      operationId: 'getOnboarding',
      tags,
      summary: "An onboarding: each step's status and what it made",
      request: { params: idParams },
      responses: { 200: json(OnboardingSchema, 'The onboarding'), 401: errors[401], 403: errors[403], 404: errors[404] },
    }),
    async (c) => c.json(await service.getOnboarding(c.get('deps').db, c.get('scope'), c.req.valid('param').id), 200),
  )
  .openapi(
    createRoute({
      method: 'patch',
      path: '/{id}',
      operationId: 'updateOnboarding',
      tags,
      summary: 'Move to a step (where "Continue" opens next time)',
      request: { params: idParams, ...jsonBody(UpdateOnboardingSchema) },
      responses: done('Updated'),
    }),
    async (c) => c.json(await service.updateOnboarding(c.get('deps').db, c.get('scope'), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/{id}/owner',
      operationId: 'setOnboardingOwner',
      tags,
      summary: "Invite the organization's first owner by email (an earlier open owner invitation is revoked)",
      request: { params: idParams, ...jsonBody(InviteOwnerSchema) },
      responses: { ...done('Invited'), ...conflict('The organization has an owner already, or the email has an account') },
    }),
    async (c) => c.json(await service.inviteOwner(c.get('deps'), c.get('scope'), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(
    createRoute({
      method: 'put',
      path: '/{id}/sites',
      operationId: 'setOnboardingSites',
      tags,
      summary: "Replace the organization's sites (name, address, time zone); the onboarding's trial gets them marked as ours",
      request: { params: idParams, ...jsonBody(SaveOrganizationSitesSchema) },
      responses: done('Saved'),
    }),
    async (c) => c.json(await service.saveSites(c.get('deps').db, c.get('scope'), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/{id}/trial',
      operationId: 'setOnboardingTrial',
      tags,
      summary: "Import the organization's first trial from a ClinicalTrials.gov API v2 study record; optionally start recruiting",
      request: { params: idParams, ...jsonBody(ImportOnboardingTrialSchema) },
      responses: { ...done('Imported'), ...conflict('A trial was imported already, or the NCT id exists in the organization') },
    }),
    async (c) => c.json(await service.importTrial(c.get('deps').db, c.get('scope'), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/{id}/agents',
      operationId: 'setOnboardingAgents',
      tags,
      summary: 'Create a published prescreen form of the trial and the default chat agent and prescreen voice agent (what exists is kept)',
      request: { params: idParams, ...jsonBody(CreateOnboardingAgentsSchema) },
      responses: { ...done('Created'), ...conflict('No trial imported yet'), 502: json(ApiErrorSchema, 'The voice provider did not save the assistant') },
    }),
    async (c) => c.json(await service.createAgents(c.get('deps'), c.get('scope'), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/{id}/sequence',
      operationId: 'setOnboardingSequence',
      tags,
      summary: "Create the starter sequence from a template (invite-follow-up or call-first), for the onboarding's trial when there is one",
      request: { params: idParams, ...jsonBody(CreateStarterSequenceSchema) },
      responses: { ...done('Created'), ...conflict('The starter sequence exists already') },
    }),
    async (c) => c.json(await service.createStarterSequence(c.get('deps').db, c.get('scope'), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/{id}/checklist',
      operationId: 'getOnboardingChecklist',
      tags,
      summary: 'What is done and what is missing for the organization to recruit, each with where to fix it',
      request: { params: idParams },
      responses: { 200: json(OnboardingChecklistSchema, 'The checklist'), 401: errors[401], 403: errors[403], 404: errors[404] },
    }),
    async (c) => c.json(await service.checklist(c.get('deps'), c.get('scope'), c.req.valid('param').id), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/{id}/complete',
      operationId: 'completeOnboarding',
      tags,
      summary: 'Finish the onboarding (it leaves the list of open onboardings)',
      request: { params: idParams },
      responses: done('Completed'),
    }),
    async (c) => c.json(await service.completeOnboarding(c.get('deps').db, c.get('scope'), c.req.valid('param').id), 200),
  );
