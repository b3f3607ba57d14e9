import { maskedEmail, type MailOutboxList, type MailOutboxMessage } from '../../../contract/mail';
import { isUuid } from '../../../contract/ids';
import { runScoped, type RequestScope } from '../../auth/scope';
import type { AppDeps } from '../../http/context';
import { forbidden, notFound } from '../../http/errors';
import { findMail, newestMail } from './queries';

type MailDeps = Pick<AppDeps, 'db' | 'mail'>;

/**
 * Mail of every organization (invitations, sign-up links) kept when no mail server is configured: for Cohortly's
 * internal admins with the Cohortly organization active, as for unmatched texts (decision 119); everyone else 403.
 */
function requireGlobalAdmin(scope: RequestScope) {
  if (!scope.isAdmin || !scope.global) throw forbidden("Only Cohortly's internal admins (with the Cohortly organization active) see the mail outbox");
}

export async function listOutbox(deps: MailDeps, scope: RequestScope, query: { limit: number }): Promise<MailOutboxList> {
  requireGlobalAdmin(scope);
  const rows = await runScoped(deps.db, scope, (tx) => newestMail(tx, query.limit));
  return {
    delivery: deps.mail.kind,
    messages: rows.map((row) => ({ id: row.id, to: maskedEmail(row.to), subject: row.subject, createdAt: row.createdAt.toISOString() })),
  };
}

/** One mail in full: its address and text (with the link it carries), asked for on purpose. */
export async function readMail(deps: MailDeps, scope: RequestScope, id: string): Promise<MailOutboxMessage> {
  requireGlobalAdmin(scope);
  const row = isUuid(id) ? await runScoped(deps.db, scope, (tx) => findMail(tx, id)) : undefined;
  if (!row) throw notFound('Mail not found');
  return { id: row.id, to: row.toAddress, subject: row.subject, body: row.textBody, createdAt: row.createdAt.toISOString() };
}
