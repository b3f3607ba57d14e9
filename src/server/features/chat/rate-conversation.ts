import type { ChatTurn } from '../../../contract/chat';
import { systemDb } from '../../db/system';
import type { AppDeps } from '../../http/context';
import { conflict, notFound } from '../../http/errors';
import { recordSatisfaction } from '../satisfaction/service';
import type { RateChatInput } from '../../../contract/satisfaction';
import { insertContactEvents } from '../candidates/service';
import { findAgentRow, findConversationRow, insertMessageRows, updateConversationRow } from './queries';
import { CHAT_LIMITS, enforce } from './throttle';
import { CHAT_ACTOR, languageOf } from './turn';
import { NOT_FOUND, publicState, replyRows, runInOrganization, toMessage } from './conversation-record';
import { openConversation } from './open-conversation';

const RATING_THANKS = { en: 'Thank you for your feedback!', es: '¡Gracias por su opinión!' } as const;

/**
 * POST /{conversationId}/rating: the visitor rates a finished chat 1-5, once (decision 067). Staff test chats
 * take the rating but it is not counted.
 */
export async function rateConversation(deps: AppDeps, conversationId: string, input: RateChatInput, address: string): Promise<ChatTurn> {
  await enforce(systemDb(deps.db), CHAT_LIMITS.publicPerAddress, address, 'Too many requests from this address; please wait a minute and try again');
  const opened = await openConversation(deps, conversationId, input.token);
  return runInOrganization(deps, opened.organizationId, async (tx) => {
    const row = await findConversationRow(tx, opened.id, true);
    if (!row) throw notFound(NOT_FOUND);
    if (row.status !== 'COMPLETED') throw conflict('The chat can be rated once it has finished');
    if ((row.state as { rated?: boolean }).rated === true) throw conflict('This chat has already been rated');
    if (!row.isTest) {
      const agent = row.chatAgentId ? await findAgentRow(tx, row.chatAgentId) : undefined;
      await recordSatisfaction(tx, {
        organizationId: row.organizationId,
        channel: 'chat',
        referenceId: row.id,
        rating: input.rating,
        comment: input.comment,
        candidateId: row.candidateId,
        trialId: agent?.trialId ?? null,
        agentId: row.chatAgentId,
      });
      if (row.candidateId) {
        await insertContactEvents(tx, [
          {
            organizationId: row.organizationId,
            candidateId: row.candidateId,
            kind: 'chat',
            summary: `Chat rated ${input.rating}/5${input.comment?.trim() ? ' with a comment' : ''}`,
            details: { conversationId: row.id, rating: input.rating },
            referenceId: row.id,
            actorLabel: CHAT_ACTOR.label,
            channel: 'chat',
          },
        ]);
      }
    }
    const updated = await updateConversationRow(tx, row.id, { state: { ...row.state, rated: true } });
    const language = languageOf(updated);
    const saved = await insertMessageRows(tx, replyRows(updated, [{ kind: 'closing', text: RATING_THANKS[language] }]));
    return { ...publicState(updated), messages: saved.map(toMessage) };
  });
}
