import type { ConversationDetail, ConversationList, ConversationSummary, ListConversationsQuery, StartedChat } from '../../../contract/chat';
import { normalizePhone } from '../../../contract/candidates';
import type { Language } from '../../../contract/prescreen-forms';
import { canReach, runScoped, selectOrganizations, type RequestScope } from '../../auth/scope';
import type { Transaction } from '../../db/scoped';
import type { AppDeps } from '../../http/context';
import { notFound } from '../../http/errors';
import { recordAudit, rowChange } from '../../audit';
import { findOrganizationById } from '../../tenancy/organizations';
import { agentInScope } from './agent-service';
import { NOT_FOUND, toMessage } from './conversation-record';
import { createConversation } from './start-conversation';
import {
  countConversationRows,
  deleteConversationRow,
  findAgentRow,
  listConversationRows,
  listedConversation,
  listMessageRows,
  type ListedConversationRow,
} from './queries';
import { isUuid } from '../../../contract/ids';

/** Conversations as staff see them: the list with its filters, one transcript, deleting one, and trying an agent. */

function toSummary(row: ListedConversationRow): ConversationSummary {
  const { conversation } = row;
  const name = [row.candidateFirstName, row.candidateLastName].filter(Boolean).join(' ');
  return {
    id: conversation.id,
    organizationId: conversation.organizationId,
    status: conversation.status,
    language: conversation.language,
    isTest: conversation.isTest,
    agent: conversation.chatAgentId ? { id: conversation.chatAgentId, name: row.agentName ?? '' } : null,
    candidate: conversation.candidateId ? { id: conversation.candidateId, name } : null,
    messageCount: row.messageCount,
    prescreenResult: conversation.prescreenResultId && row.recommendation ? { id: conversation.prescreenResultId, aiRecommendation: row.recommendation } : null,
    phoneVerified: conversation.phoneVerifiedAt !== null,
    completedAt: conversation.completedAt?.toISOString() ?? null,
    createdAt: conversation.createdAt.toISOString(),
    updatedAt: conversation.updatedAt.toISOString(),
  };
}

/** POST /admin/start: staff try an agent as a visitor would; the conversation is marked as a test. */
export async function startTest(deps: AppDeps, scope: RequestScope, input: { chatAgentId: string; language?: Language }): Promise<StartedChat> {
  return runScoped(deps.db, scope, async (tx) => {
    const agent = await agentInScope(tx, scope, input.chatAgentId);
    const organization = await findOrganizationById(tx, agent.organizationId);
    if (!organization) throw notFound('Chat agent not found');
    const started = await createConversation(tx, organization, agent, input.language, true);
    await recordAudit(tx, {
      organizationId: agent.organizationId,
      actorUserId: scope.userId,
      action: 'chat_conversation.test_start',
      entityType: 'chat_conversation',
      entityId: started.conversationId,
      changes: { chatAgentId: agent.id },
    });
    return started;
  });
}

function dayStart(date: string): Date {
  return new Date(`${date}T00:00:00.000Z`);
}

export async function listConversations(deps: AppDeps, scope: RequestScope, query: ListConversationsQuery): Promise<ConversationList> {
  const organizationIds = selectOrganizations(scope, query.organizationId, query.organizationIds, query.orgs);
  if (query.chatAgentId !== undefined && !isUuid(query.chatAgentId)) return { conversations: [], total: 0 };
  const term = query.search?.trim();
  const filter = {
    organizationIds,
    status: query.status,
    chatAgentId: query.chatAgentId,
    search: term,
    searchPhone: term && /^[\d\s()+.-]{7,}$/.test(term) ? normalizePhone(term) : null,
    from: query.dateFrom ? dayStart(query.dateFrom) : undefined,
    to: query.dateTo ? new Date(dayStart(query.dateTo).getTime() + 86_400_000) : undefined,
    isTest: query.isTest === undefined ? undefined : query.isTest === 'true',
  };
  return runScoped(deps.db, scope, async (tx) => {
    const rows = await listConversationRows(tx, filter, { sortBy: query.sortBy, limit: query.limit, offset: query.offset });
    return { conversations: rows.map(toSummary), total: await countConversationRows(tx, filter) };
  });
}

async function conversationInScope(tx: Transaction, scope: RequestScope, id: string): Promise<ListedConversationRow> {
  const row = await listedConversation(tx, id);
  if (!row || !canReach(scope, row.conversation.organizationId)) throw notFound(NOT_FOUND);
  return row;
}

export async function getConversation(deps: AppDeps, scope: RequestScope, id: string): Promise<ConversationDetail> {
  return runScoped(deps.db, scope, async (tx) => {
    const row = await conversationInScope(tx, scope, id);
    const messages = await listMessageRows(tx, row.conversation.id);
    const agent = row.conversation.chatAgentId ? await findAgentRow(tx, row.conversation.chatAgentId) : undefined;
    return {
      ...toSummary(row),
      prescreenResultId: row.conversation.prescreenResultId,
      trialId: agent?.trialId ?? null,
      messages: messages.map(toMessage),
    };
  });
}

export async function deleteConversation(deps: AppDeps, scope: RequestScope, id: string): Promise<void> {
  await runScoped(deps.db, scope, async (tx) => {
    const row = await conversationInScope(tx, scope, id);
    await deleteConversationRow(tx, row.conversation.id);
    await recordAudit(
      tx,
      rowChange(scope.userId, row.conversation, 'chat_conversation.delete', 'chat_conversation', {
        status: row.conversation.status,
        messageCount: row.messageCount,
        candidateId: row.conversation.candidateId,
        prescreenResultId: row.conversation.prescreenResultId,
      }),
    );
  });
}
