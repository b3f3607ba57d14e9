import { z } from '@hono/zod-openapi';
import { TimestampSchema } from './common';

/**
 * The mail outbox (issue 32): without a mail server (SMTP_URL unset) mail is kept in the database instead of sent,
 * and Cohortly's internal admins read it here, so an invitation or a sign-up link can still reach its person.
 */
export const MAIL_DELIVERIES = ['outbox', 'smtp'] as const;

export const MailOutboxQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) });

/** A kept mail as the list shows it: the address masked, no body. */
export const MailOutboxItemSchema = z.object({ id: z.string(), to: z.string(), subject: z.string(), createdAt: TimestampSchema }).openapi('MailOutboxItem');

export const MailOutboxListSchema = z
  .object({
    /** outbox: mail is kept here, not sent; smtp: mail goes through the mail server and nothing new is kept. */
    delivery: z.enum(MAIL_DELIVERIES),
    messages: z.array(MailOutboxItemSchema),
  })
  .openapi('MailOutboxList');
export type MailOutboxList = z.infer<typeof MailOutboxListSchema>;

/** One kept mail in full, asked for by an admin: the address and the text with its links. */
export const MailOutboxMessageSchema = z
  .object({ id: z.string(), to: z.string(), subject: z.string(), body: z.string(), createdAt: TimestampSchema })
  .openapi('MailOutboxMessage');
export type MailOutboxMessage = z.infer<typeof MailOutboxMessageSchema>;

/** "j•••@example.org": enough to tell mails apart, not enough to read the address over a shoulder. */
export function maskedEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at <= 0) return '•••';
  return `${address[0]}•••${address.slice(at)}`;
}
