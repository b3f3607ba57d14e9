import { createRoute } from '@hono/zod-openapi';
import { ApiErrorSchema } from '../../../contract/common';
import {
  AssignPhoneNumberSchema,
  ListPhoneNumbersQuerySchema,
  PhoneNumberListSchema,
  PhoneNumberSchema,
  UpdatePhoneNumberSchema,
} from '../../../contract/phone-numbers';
import { createRouter, errorResponses as errors, jsonBody, jsonContent as json, pathParams } from '../../http/openapi';
import * as service from './service';

const tags = ['Phone numbers'];
const idParams = pathParams('id');

/** The phone-number registry: staff list their organization's numbers; internal admins (Cohortly active) manage them. */
export const phoneNumberRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      operationId: 'listPhoneNumbers',
      tags,
      summary: 'Phone numbers in scope (organizationId, organizationIds, orgs, purpose), with the agents calling from each',
      request: { query: ListPhoneNumbersQuerySchema },
      responses: { 200: json(PhoneNumberListSchema, 'Numbers by organization, then number'), 400: errors[400], 401: errors[401] },
    }),
    async (c) => c.json(await service.listPhoneNumbers(c.get('deps'), c.get('scope'), c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/',
      operationId: 'createPhoneNumber',
      tags,
      summary: 'Assign a number to an organization (internal admins, Cohortly active); with Twilio or Vapi configured, the account must hold it',
      request: jsonBody(AssignPhoneNumberSchema),
      responses: {
        201: json(PhoneNumberSchema, 'Assigned'),
        ...errors,
        409: json(
          ApiErrorSchema,
          'The number is assigned already (NUMBER_TAKEN), not in the provider account (NUMBER_NOT_IN_ACCOUNT), or the provider is not configured',
        ),
        502: json(ApiErrorSchema, 'The provider could not be asked'),
      },
    }),
    async (c) => c.json(await service.assignPhoneNumber(c.get('deps'), c.get('scope'), c.req.valid('json')), 201),
  )
  .openapi(
    createRoute({
      method: 'patch',
      path: '/{id}',
      operationId: 'updatePhoneNumber',
      tags,
      summary: 'Change the label or purpose, or move the number to another organization (internal admins, Cohortly active)',
      request: { params: idParams, ...jsonBody(UpdatePhoneNumberSchema) },
      responses: { 200: json(PhoneNumberSchema, 'Updated'), ...errors, 409: json(ApiErrorSchema, 'Active voice agents call from it (PHONE_NUMBER_IN_USE)') },
    }),
    async (c) => c.json(await service.updatePhoneNumber(c.get('deps'), c.get('scope'), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/{id}',
      operationId: 'deletePhoneNumber',
      tags,
      summary: 'Release a number (internal admins, Cohortly active); refused while an active voice agent calls from it',
      request: { params: idParams },
      responses: {
        204: { description: 'Released' },
        401: errors[401],
        403: errors[403],
        404: errors[404],
        409: json(ApiErrorSchema, 'Active voice agents call from it (PHONE_NUMBER_IN_USE)'),
      },
    }),
    async (c) => {
      await service.releasePhoneNumber(c.get('deps'), c.get('scope'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );
