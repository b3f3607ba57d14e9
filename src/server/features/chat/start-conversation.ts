import type { ChatPreview, InitiateChatInput, StartedChat } from '../../../contract/chat';
import type { Language } from '../../../contract/prescreen-forms';
import type { Transaction } from '../../db/scoped';
import { systemDb } from '../../db/system';
import type { AppDeps } from '../../http/context';
import { conflict, notFound } from '../../http/errors';
import { recordActivity } from '../../activity';
import { findOrganizationById, findOrganizationByPublicId, type OrganizationRow } from '../../tenancy/organizations';
import { awaitingOf, startDialogue } from './dialogue';
import { activeAgentsWithPublishedForm, findAgentRow, insertConversationRow, insertMessageRows, type AgentRow } from './queries';
import { CHAT_LIMITS, enforce } from './throttle';
import { loadContext } from './dialogue-context';
import { hashToken, newToken, publicState, replyRows, runInOrganization, toMessage, unsavedMessage } from './conversation-record';

/**
 * Starting a conversation: the visitor's (POST /initiate, on the system path until the organization is known,
 * then in it under row-level security) and staff's "Try it" (staff-conversations.ts) alike.
 */

export async function createConversation(
  tx: Transaction,
  organization: OrganizationRow,
  agent: AgentRow,
  language: Language | undefined,
  isTest: boolean,
): Promise<StartedChat> {
  const { ctx } = await loadContext(tx, agent, !isTest);
  const turn = startDialogue(ctx, language ?? ctx.agent.languages[0] ?? 'en');
  const token = newToken();
  const row = await insertConversationRow(tx, {
    organizationId: agent.organizationId,
    chatAgentId: agent.id,
    status: 'ONGOING',
    language: turn.state.language,
    isTest,
    tokenHash: hashToken(token),
    state: turn.state as unknown as Record<string, unknown>,
  });
  const messages = await insertMessageRows(tx, replyRows(row, turn.replies));
  // Staff "Try it" conversations are not activity: they would inflate the funnel.
  if (!isTest)
    await recordActivity(tx, [
      { organizationId: row.organizationId, trialId: agent.trialId, kind: 'chat_started', source: 'chat', agentId: agent.id, referenceId: row.id },
    ]);
  return {
    ...publicState(row),
    token,
    isTest,
    agent: { id: agent.id, name: agent.name },
    organization: { id: organization.id, publicId: organization.publicId, name: organization.name },
    messages: messages.map(toMessage),
  };
}

/** The chat's organization by public id (or id) and its agent by id, or its first active one with a published form. */
async function organizationAndAgent(tx: Transaction, organization: OrganizationRow, chatAgentId: string | undefined): Promise<AgentRow> {
  if (chatAgentId) {
    const agent = await findAgentRow(tx, chatAgentId);
    if (!agent || agent.organizationId !== organization.id) throw notFound('Chat agent not found');
    if (!agent.active) throw conflict('This chat is not available right now');
    return agent;
  }
  const [agent] = await activeAgentsWithPublishedForm(tx, organization.id);
  if (!agent) throw conflict('This organization has no chat available right now');
  return agent;
}

async function publicOrganization(deps: AppDeps, id: string): Promise<OrganizationRow> {
  const organization = (await findOrganizationByPublicId(systemDb(deps.db), id)) ?? (await findOrganizationById(systemDb(deps.db), id));
  if (!organization) throw notFound('Organization not found');
  return organization;
}

/** POST /initiate: creates the conversation; the page calls it with the visitor's first message (issue 32). */
export async function initiate(deps: AppDeps, input: InitiateChatInput, address: string): Promise<StartedChat> {
  await enforce(systemDb(deps.db), CHAT_LIMITS.entryPerAddress, address, 'Too many chats started from this address; please wait a minute and try again');
  const organization = await publicOrganization(deps, input.organizationId);
  return runInOrganization(deps, organization.id, async (tx) =>
    createConversation(tx, organization, await organizationAndAgent(tx, organization, input.chatAgentId), input.language, false),
  );
}

/**
 * POST /preview: the greeting and first prompt a visit to the chat page shows, with nothing stored, so a visit
 * that never writes leaves no conversation behind (issue 32). Throttled like resuming.
 */
export async function preview(deps: AppDeps, input: InitiateChatInput, address: string): Promise<ChatPreview> {
  await enforce(systemDb(deps.db), CHAT_LIMITS.publicPerAddress, address, 'Too many requests from this address; please wait a minute and try again');
  const organization = await publicOrganization(deps, input.organizationId);
  return runInOrganization(deps, organization.id, async (tx) => {
    const agent = await organizationAndAgent(tx, organization, input.chatAgentId);
    const { ctx } = await loadContext(tx, agent, true);
    const turn = startDialogue(ctx, input.language ?? ctx.agent.languages[0] ?? 'en');
    const now = new Date();
    return {
      language: turn.state.language,
      languages: ctx.agent.languages,
      awaiting: awaitingOf(turn.state.phase),
      agent: { id: agent.id, name: agent.name },
      organization: { id: organization.id, publicId: organization.publicId, name: organization.name },
      messages: turn.replies.map((reply, index) => unsavedMessage(reply, index, now)),
    };
  });
}
