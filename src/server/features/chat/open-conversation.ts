import type { PublicConversation } from '../../../contract/chat';
import { systemDb } from '../../db/system';
import type { AppDeps } from '../../http/context';
import { notFound } from '../../http/errors';
import { findAgentRow, findConversationRow, listMessageRows, type ConversationRow } from './queries';
import { CHAT_LIMITS, enforce } from './throttle';
import { isUuid } from '../../../contract/ids';
import { NOT_FOUND, publicState, runInOrganization, tokenMatches, toMessage } from './conversation-record';

/**
 * A public call's conversation: found on the system path by its id, its token checked, before its organization is
 * known; and the visitor's resume, which shows it.
 */

/** The conversation whose id and token match, or 404 (wrong token, unknown id and malformed id alike). */
export async function openConversation(deps: AppDeps, conversationId: string, token: string): Promise<ConversationRow> {
  const row = isUuid(conversationId) ? await findConversationRow(systemDb(deps.db), conversationId) : undefined;
  if (!row || !tokenMatches(row, token)) throw notFound(NOT_FOUND);
  return row;
}

/** GET /{conversationId}/public?token=: resume: every message so far and what to show next. */
export async function resume(deps: AppDeps, conversationId: string, token: string, address: string): Promise<PublicConversation> {
  await enforce(systemDb(deps.db), CHAT_LIMITS.publicPerAddress, address, 'Too many requests from this address; please wait a minute and try again');
  const opened = await openConversation(deps, conversationId, token);
  return runInOrganization(deps, opened.organizationId, async (tx) => {
    const row = await findConversationRow(tx, opened.id);
    if (!row) throw notFound(NOT_FOUND);
    const agent = row.chatAgentId ? await findAgentRow(tx, row.chatAgentId) : undefined;
    const messages = await listMessageRows(tx, row.id);
    return { ...publicState(row), agent: agent ? { id: agent.id, name: agent.name } : null, messages: messages.map(toMessage) };
  });
}
