import { createRoute } from '@hono/zod-openapi';
import { ApiErrorSchema } from '../../../contract/common';
import {
  BookingOutcomeSchema,
  BookingSchema,
  CreateBookingSchema,
  DecisionBodySchema,
  ListPrescreenResultsQuerySchema,
  PrescreenResultListSchema,
  PrescreenResultSchema,
  PrescreenReviewSchema,
  ReviewQuerySchema,
  RunManualPrescreenSchema,
} from '../../../contract/prescreen';
import { createRouter, errorResponses as errors, jsonBody, jsonContent as json, pathParams } from '../../http/openapi';
import * as bookings from './bookings';
import { decide } from './decide';
import { recordPrescreenResult } from './record-result';
import * as service from './service';

const tags = ['Prescreen'];

export const prescreenRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/results',
      operationId: 'listPrescreenResults',
      tags,
      summary:
        'Prescreen results, newest first: filter by organizations, candidate search (name, phone, email), candidate, source, AI recommendation, review status',
      request: { query: ListPrescreenResultsQuerySchema },
      responses: { 200: json(PrescreenResultListSchema, 'A page of results'), 400: errors[400], 401: errors[401] },
    }),
    async (c) => c.json(await service.listResults(c.get('deps').db, c.get('scope'), c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/results',
      operationId: 'recordPrescreenResult',
      tags,
      summary:
        "Run a prescreen by hand: answers to the current version of a published form of the candidate's trial; the engine's result, the candidate moved along the funnel",
      request: jsonBody(RunManualPrescreenSchema),
      responses: {
        201: json(PrescreenResultSchema, 'The recorded result'),
        ...errors,
        409: json(ApiErrorSchema, 'The form is not published'),
      },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const result = await recordPrescreenResult(c.get('deps').db, c.get('scope'), { ...body, sourceType: 'manual', sourceId: null });
      return c.json(result, 201);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/review',
      operationId: 'listPrescreenReview',
      tags,
      summary:
        "Everything a reviewer needs about a candidate: contact basics, results (answers, evaluations, recommendation, reasons), the form's wording, decisions, bookings and the trials' sites",
      request: { query: ReviewQuerySchema },
      responses: { 200: json(PrescreenReviewSchema, 'The review'), 400: errors[400], 401: errors[401], 404: errors[404] },
    }),
    async (c) => c.json(await service.review(c.get('deps').db, c.get('scope'), c.req.valid('query').candidateId), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/review/decision',
      operationId: 'decidePrescreenReview',
      tags,
      summary:
        'Approve or reject a result (a reason is required to reject or to override the AI recommendation); a new decision replaces the previous one, which stays in the history',
      request: jsonBody(DecisionBodySchema),
      responses: { 200: json(PrescreenResultSchema, 'The decided result'), ...errors },
    }),
    async (c) => c.json(await decide(c.get('deps').db, c.get('scope'), c.req.valid('json')), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/bookings',
      operationId: 'bookPrescreenVisit',
      tags,
      summary:
        "Book a screening visit for an approved result at one of the trial's sites, at a local time in the site's time zone; moves the candidate to visit_scheduled",
      request: jsonBody(CreateBookingSchema),
      responses: {
        201: json(BookingSchema, 'Booked'),
        ...errors,
        409: json(ApiErrorSchema, 'Not approved, or the slot is taken'),
      },
    }),
    async (c) => c.json(await bookings.createBooking(c.get('deps'), c.get('scope'), c.req.valid('json')), 201),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/bookings/{id}/outcome',
      operationId: 'recordBookingOutcome',
      tags,
      summary: 'Record what happened at a booked visit: completed (attended), no_show (starts sequences listening for no-shows), or cancelled',
      request: { params: pathParams('id'), ...jsonBody(BookingOutcomeSchema) },
      responses: { 200: json(BookingSchema, 'The booking'), ...errors, 409: json(ApiErrorSchema, 'The visit was cancelled') },
    }),
    async (c) => c.json(await bookings.recordBookingOutcome(c.get('deps').db, c.get('scope'), c.req.valid('param').id, c.req.valid('json').status), 200),
  );
