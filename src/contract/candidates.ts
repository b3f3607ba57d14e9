import { z } from '@hono/zod-openapi';
import { TimestampSchema } from './common';

/** The recruitment funnel (guide §1). A candidate's status and its history are the truth dashboards use. */
export const CANDIDATE_STATUSES = [
  'new',
  'contacted',
  'prescreening',
  'prescreen_passed',
  'prescreen_failed',
  'visit_scheduled',
  'enrolled',
  'not_interested',
  'unreachable',
  'do_not_contact',
] as const;
export const CandidateStatusSchema = z.enum(CANDIDATE_STATUSES);
export type CandidateStatus = z.infer<typeof CandidateStatusSchema>;

export const CANDIDATE_SOURCES = ['manual', 'referral', 'campaign', 'import', 'web_chat', 'inbound_call', 'ehr'] as const;

export const PrescreenNoteSchema = z
  .object({
    text: z.string(),
    authorUserId: z.string().nullable(),
    authorName: z.string().nullable(),
    createdAt: TimestampSchema,
  })
  .openapi('PrescreenNote');
export type PrescreenNote = z.infer<typeof PrescreenNoteSchema>;

export const CONTACT_EVENT_KINDS = ['status_change', 'note', 'created', 'updated', 'import', 'consent', 'call', 'sms', 'chat', 'callback', 'booking'] as const;
