import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ChatMessage } from '../../../contract/chat';
import { runAsOrganization, type Transaction } from '../../db/scoped';
import type { AppDeps } from '../../http/context';
import { awaitingOf, type AgentReply, type DialogueState } from './dialogue';
import type { ConversationRow, MessageRow } from './queries';
import { languageOf } from './turn';

/**
 * One public conversation as the visitor's API shows it, and its secret: the resume token (only its hash is
 * stored), the messages and the conversation's public state, the agent's replies as rows. The visitor's calls
 * are in start-conversation.ts, open-conversation.ts, take-turn.ts and rate-conversation.ts; staff's view is in
 * staff-conversations.ts. Message texts, phones and codes are never logged.
 */

export const NOT_FOUND = 'Conversation not found';

// ---- secrets ----

export const newToken = () => randomBytes(32).toString('base64url');
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function tokenMatches(row: ConversationRow, token: string): boolean {
  const given = Buffer.from(hashToken(token), 'hex');
  const stored = Buffer.from(row.tokenHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
// ---- mapping ----

export function toMessage(row: MessageRow): ChatMessage {
  const meta = (row.meta ?? {}) as { kind?: string; questionId?: string; inputType?: string; options?: Array<{ value: string; label: string }> };
  return {
    id: row.id,
    role: row.role,
    text: row.text,
    kind: row.role === 'visitor' ? null : (meta.kind ?? null),
    questionId: meta.questionId ?? null,
    inputType: row.role === 'visitor' ? null : (meta.inputType ?? null),
    options: row.role === 'visitor' ? null : (meta.options ?? null),
    createdAt: row.createdAt.toISOString(),
  };
}

/** A reply shown before anything is stored (the chat page's preview): a message's shape with an id of its own. */
export function unsavedMessage(reply: AgentReply, index: number, at: Date): ChatMessage {
  const { text, kind, questionId, inputType, options } = reply;
  return {
    id: `preview-${index}`,
    role: 'agent',
    text,
    kind,
    questionId: questionId ?? null,
    inputType: inputType ?? null,
    options: options ?? null,
    createdAt: at.toISOString(),
  };
}

export const stateOf = (row: ConversationRow) => row.state as unknown as DialogueState;

export function publicState(row: ConversationRow) {
  const state = stateOf(row);
  return {
    conversationId: row.id,
    status: row.status,
    language: languageOf(row),
    awaiting: row.status === 'COMPLETED' ? ('none' as const) : awaitingOf(state.phase ?? 'done'),
    phoneVerified: row.phoneVerifiedAt !== null,
    rated: (row.state as { rated?: boolean }).rated === true,
  };
}

export function replyRows(conversation: Pick<ConversationRow, 'id' | 'organizationId'>, replies: AgentReply[]) {
  return replies.map((reply) => ({
    organizationId: conversation.organizationId,
    conversationId: conversation.id,
    role: 'agent' as const,
    text: reply.text,
    meta: {
      kind: reply.kind,
      ...(reply.questionId ? { questionId: reply.questionId } : {}),
      ...(reply.inputType ? { inputType: reply.inputType } : {}),
      ...(reply.options ? { options: reply.options } : {}),
    },
  }));
}

export const runInOrganization = <T>(deps: AppDeps, organizationId: string, work: (tx: Transaction) => Promise<T>) =>
  runAsOrganization(deps.db, organizationId, work);
