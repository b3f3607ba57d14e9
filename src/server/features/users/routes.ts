import { createRoute } from '@hono/zod-openapi';
import {
  AddUserResultSchema,
  AddUserSchema,
  InvitationPreviewSchema,
  ListUsersQuerySchema,
  UpdateUserSchema,
  UserListSchema,
  UserSchema,
} from '../../../contract/users';
import { ApiErrorSchema } from '../../../contract/common';
import { createRouter, errorResponses as errors, jsonBody, jsonContent as json, pathParams } from '../../http/openapi';
import * as service from './service';

const tags = ['Users'];

/** GET /api/invitations/{token}: the sign-up page's preview of an invitation link (no sign-in). */
export const publicInvitationRoutes = createRouter().openapi(
  createRoute({
    method: 'get',
    path: '/{token}',
    operationId: 'getInvitation',
    security: [],
    tags,
    summary: 'Preview an invitation by its token (no sign-in)',
    request: { params: pathParams('token') },
    responses: { 200: json(InvitationPreviewSchema, 'The invitation'), 404: errors[404] },
  }),
  async (c) => c.json(await service.previewInvitation(c.get('deps').db, c.req.valid('param').token), 200),
);

export const userRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/me',
      operationId: 'getCurrentUser',
      tags,
      summary: 'The signed-in user',
      responses: { 200: json(UserSchema, 'You'), 401: errors[401] },
    }),
    async (c) => c.json(await service.getMe(c.get('deps').db, c.get('scope')), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      operationId: 'listUsers',
      tags,
      summary: 'Users and pending invitations of the organizations in scope',
      request: { query: ListUsersQuerySchema },
      responses: { 200: json(UserListSchema, 'Users'), 400: errors[400], 401: errors[401] },
    }),
    async (c) => {
      const query = c.req.valid('query');
      return c.json(await service.listUsers(c.get('deps').db, c.get('scope'), [query.orgId, query.organizationIds, query.orgs]), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/',
      operationId: 'inviteUser',
      tags,
      summary: 'Invite a user by email, or add one with a first password',
      request: jsonBody(AddUserSchema),
      responses: { 201: json(AddUserResultSchema, 'Invited or added'), ...errors, 409: json(ApiErrorSchema, 'Email already in use') },
    }),
    async (c) => c.json(await service.addUser(c.get('deps'), c.get('scope'), c.req.valid('json')), 201),
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/invitations/{invitationId}',
      operationId: 'revokeInvitation',
      tags,
      summary: 'Revoke a pending invitation',
      request: { params: pathParams('invitationId') },
      responses: { 204: { description: 'Revoked' }, ...errors },
    }),
    async (c) => {
      await service.revokeInvitation(c.get('deps').db, c.get('scope'), c.req.valid('param').invitationId);
      return c.body(null, 204);
    },
  )
  .openapi(
    createRoute({
      method: 'patch',
      path: '/{userId}',
      operationId: 'updateUser',
      tags,
      summary: "Change a user's name or role",
      request: { params: pathParams('userId'), ...jsonBody(UpdateUserSchema) },
      responses: { 200: json(UserSchema, 'Updated'), ...errors },
    }),
    async (c) => {
      const { userId } = c.req.valid('param');
      const updated = await service.updateUser(c.get('deps').db, c.get('scope'), userId, c.req.valid('json'));
      // A new role (or name) must show in this user's next request, not after the session cache ages out.
      c.get('deps').sessions.invalidateUser(userId);
      return c.json(updated, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/{userId}',
      operationId: 'removeUser',
      tags,
      summary: 'Remove a user from their organization (their account is deleted)',
      request: { params: pathParams('userId') },
      responses: { 204: { description: 'Removed' }, ...errors },
    }),
    async (c) => {
      await service.removeUser(c.get('deps').db, c.get('scope'), c.req.valid('param').userId);
      c.get('deps').sessions.invalidateUser(c.req.valid('param').userId);
      return c.body(null, 204);
    },
  );
