import { createRoute } from '@hono/zod-openapi';
import { ContactHistoryQuerySchema, ContactHistorySchema } from '../../../contract/candidates';
import { createRouter, errorResponses as errors, jsonContent as json } from '../../http/openapi';
import * as service from './service';

export const contactHistoryRoutes = createRouter().openapi(
  createRoute({
    method: 'get',
    path: '/',
    operationId: 'listContactHistory',
    tags: ['Contact history'],
    summary: "A candidate's time-ordered feed of touches: status changes, notes, imports, consent (later calls, SMS, chats, bookings)",
    request: { query: ContactHistoryQuerySchema },
    responses: { 200: json(ContactHistorySchema, 'The feed'), 400: errors[400], 401: errors[401], 404: errors[404] },
  }),
  async (c) => c.json(await service.contactHistory(c.get('deps').db, c.get('scope'), c.req.valid('query')), 200),
);
