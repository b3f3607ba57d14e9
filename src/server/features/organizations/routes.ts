import { createRoute } from '@hono/zod-openapi';
import {
  CreateOrganizationSchema,
  OrganizationListSchema,
  OrganizationSchema,
  PublicOrganizationSchema,
  UpdateOrganizationSchema,
} from '../../../contract/organizations';
import { ApiErrorSchema } from '../../../contract/common';
import { createRouter, errorResponses, jsonBody, jsonContent, pathParams } from '../../http/openapi';
import * as service from './service';

const errors = errorResponses;
const idParams = pathParams('id');
const json = jsonContent;
const tags = ['Organizations'];

/** GET /api/organizations/public/{publicId}: no sign-in; the public chat page checks its organization. */
export const publicOrganizationRoutes = createRouter().openapi(
  createRoute({
    method: 'get',
    path: '/{publicId}',
    operationId: 'getPublicOrganization',
    security: [],
    tags,
    summary: 'Look up an organization by its public id (no sign-in)',
    request: { params: pathParams('publicId') },
    responses: { 200: json(PublicOrganizationSchema, 'The organization'), 404: errors[404] },
  }),
  async (c) => c.json(await service.getPublicOrganization(c.get('deps').db, c.req.valid('param').publicId), 200),
);

export const organizationRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      operationId: 'listOrganizations',
      tags,
      summary: "List organizations (all for an internal admin, one's own otherwise)",
      responses: { 200: json(OrganizationListSchema, 'Organizations'), 401: errors[401] },
    }),
    async (c) => c.json({ organizations: await service.listOrganizations(c.get('deps').db, c.get('scope')) }, 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/',
      operationId: 'createOrganization',
      tags,
      summary: 'Create an organization (internal admins)',
      request: jsonBody(CreateOrganizationSchema),
      responses: { 201: json(OrganizationSchema, 'Created'), 400: errors[400], 401: errors[401], 403: errors[403], 409: json(ApiErrorSchema, 'Slug taken') },
    }),
    async (c) => {
      const created = await service.createOrganization(c.get('deps').db, c.get('scope'), c.req.valid('json'));
      c.get('deps').sessions.organizationsChanged();
      return c.json(created, 201);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/{id}',
      operationId: 'getOrganization',
      tags,
      summary: 'Get an organization',
      request: { params: idParams },
      responses: { 200: json(OrganizationSchema, 'The organization'), 401: errors[401], 404: errors[404] },
    }),
    async (c) => c.json(await service.getOrganization(c.get('deps').db, c.get('scope'), c.req.valid('param').id), 200),
  )
  .openapi(
    createRoute({
      method: 'patch',
      path: '/{id}',
      operationId: 'updateOrganization',
      tags,
      summary: 'Rename an organization',
      request: { params: idParams, ...jsonBody(UpdateOrganizationSchema) },
      responses: { 200: json(OrganizationSchema, 'Updated'), ...errors, 409: json(ApiErrorSchema, 'Slug taken') },
    }),
    async (c) => {
      const updated = await service.updateOrganization(c.get('deps').db, c.get('scope'), c.req.valid('param').id, c.req.valid('json'));
      // Sessions carry their organization's name and slug: drop them all (organizations change rarely).
      c.get('deps').sessions.clear();
      return c.json(updated, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/{id}',
      operationId: 'deleteOrganization',
      tags,
      summary: 'Delete an organization and its staff accounts (internal admins)',
      request: { params: idParams },
      responses: { 204: { description: 'Deleted' }, ...errors },
    }),
    async (c) => {
      await service.deleteOrganization(c.get('deps').db, c.get('scope'), c.req.valid('param').id);
      c.get('deps').sessions.clear();
      return c.body(null, 204);
    },
  );
