import { createRoute } from '@hono/zod-openapi';
import { MailOutboxListSchema, MailOutboxMessageSchema, MailOutboxQuerySchema } from '../../../contract/mail';
import { createRouter, errorResponses as errors, jsonContent as json, pathParams } from '../../http/openapi';
import * as service from './service';

const tags = ['Mail outbox'];

/** /api/mail-outbox: mail kept instead of sent when no mail server is configured (internal admins, issue 32). */
export const mailOutboxRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      operationId: 'listMailOutbox',
      tags,
      summary: "Kept mail, newest first, addresses masked (Cohortly's internal admins with the Cohortly organization active)",
      request: { query: MailOutboxQuerySchema },
      responses: { 200: json(MailOutboxListSchema, 'Kept mail and how mail is delivered'), 400: errors[400], 401: errors[401], 403: errors[403] },
    }),
    async (c) => c.json(await service.listOutbox(c.get('deps'), c.get('scope'), c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/{id}',
      operationId: 'getMailOutboxMessage',
      tags,
      summary: 'One kept mail in full: address, subject and text (internal admins)',
      request: { params: pathParams('id') },
      responses: { 200: json(MailOutboxMessageSchema, 'The mail'), ...errors },
    }),
    async (c) => c.json(await service.readMail(c.get('deps'), c.get('scope'), c.req.valid('param').id), 200),
  );
