import type { ChatSendMessageInput, ChatTurn, VerifyChatInput } from '../../../contract/chat';
import { normalizePhone } from '../../../contract/candidates';
import type { Transaction } from '../../db/scoped';
import { systemDb } from '../../db/system';
import type { AppDeps } from '../../http/context';
import { conflict, notFound } from '../../http/errors';
import { advanceDialogue, afterCodeChecked, afterCodeSent, type AgentReply, type DialogueState, type Effect, type Turn } from './dialogue';
import { findAgentRow, findConversationRow, insertMessageRows, updateConversationRow } from './queries';
import { CHAT_LIMITS, enforce } from './throttle';
import { checkCode, sendCode } from './phone-verification';
import type { TurnContext } from './turn';
import { NOT_FOUND, publicState, replyRows, runInOrganization, stateOf, toMessage } from './conversation-record';
import { loadContext } from './dialogue-context';
import { finishConversation } from './finish-conversation';
import { openConversation } from './open-conversation';

/**
 * One turn of the visitor's chat: a message (POST /{conversationId}/messages) or a verification step
 * (POST /verify), in the conversation's organization with the conversation locked; its effects (a code sent or
 * checked, the chat finished) and the replies saved with the new state.
 */

/** Shown in a transcript instead of a phone number typed into the verify step: the last 4 digits. */
const maskedPhone = (phone: string) => `•••• ${phone.replace(/\D/g, '').slice(-4)}`;

/** Locks the conversation for the turn, checks it can go on, loads its agent and form. */
async function beginTurn(deps: AppDeps, tx: Transaction, conversationId: string): Promise<TurnContext> {
  const conversation = await findConversationRow(tx, conversationId, true);
  if (!conversation) throw notFound(NOT_FOUND);
  if (conversation.status === 'COMPLETED') throw conflict('This conversation has ended');
  const agent = conversation.chatAgentId ? await findAgentRow(tx, conversation.chatAgentId) : undefined;
  if (!agent) throw conflict('This chat is not available any more');
  return { deps, tx, conversation, agent, loaded: await loadContext(tx, agent) };
}

/** Performs a turn's effect (and any effect that follows from it), collecting the replies. */
async function runEffects(turn: TurnContext, first: Turn): Promise<{ state: DialogueState; replies: AgentReply[] }> {
  let state = first.state;
  const replies = [...first.replies];
  let effect: Effect | undefined = first.effect;
  const { ctx } = turn.loaded;
  for (let guard = 0; effect && guard < 4; guard++) {
    let next: Turn | null = null;
    if (effect.type === 'send_code') next = afterCodeSent(ctx, state, await sendCode(turn, effect.phone));
    else if (effect.type === 'check_code') next = afterCodeChecked(ctx, state, await checkCode(turn, state, effect.code));
    else {
      replies.push(...(await finishConversation(turn, state)));
      effect = undefined;
      break;
    }
    state = next.state;
    replies.push(...next.replies);
    effect = next.effect;
  }
  return { state, replies };
}

async function saveTurn(
  turn: TurnContext,
  state: DialogueState,
  visitor: { text: string; meta: Record<string, unknown> } | null,
  replies: AgentReply[],
): Promise<ChatTurn> {
  const { tx } = turn;
  const rows = [
    ...(visitor
      ? [
          {
            organizationId: turn.conversation.organizationId,
            conversationId: turn.conversation.id,
            role: 'visitor' as const,
            text: visitor.text,
            meta: visitor.meta,
          },
        ]
      : []),
    ...replyRows(turn.conversation, replies),
  ];
  const saved = await insertMessageRows(tx, rows);
  turn.conversation = await updateConversationRow(tx, turn.conversation.id, { state: state as unknown as Record<string, unknown>, language: state.language });
  return { ...publicState(turn.conversation), messages: saved.map(toMessage), ...(turn.simulatedText ? { simulatedText: turn.simulatedText } : {}) };
}

/** POST /{conversationId}/messages: the visitor's message, the agent's replies. */
export async function sendMessage(deps: AppDeps, conversationId: string, input: ChatSendMessageInput, address: string): Promise<ChatTurn> {
  await enforce(systemDb(deps.db), CHAT_LIMITS.publicPerAddress, address, 'Too many requests from this address; please wait a minute and try again');
  const opened = await openConversation(deps, conversationId, input.token);
  await enforce(
    systemDb(deps.db),
    CHAT_LIMITS.messagesPerConversation,
    opened.id,
    'Messages are coming faster than anyone types; please wait a moment and try again',
  );
  return runInOrganization(deps, opened.organizationId, async (tx) => {
    const turn = await beginTurn(deps, tx, opened.id);
    const advanced = advanceDialogue(turn.loaded.ctx, stateOf(turn.conversation), input.text);
    const visitorText = advanced.redact ? '••••••' : input.text;
    const contactField = advanced.understood?.field === 'contactPhone' || advanced.understood?.field === 'contactEmail';
    const understood =
      advanced.understood && !contactField ? advanced.understood : advanced.understood ? { field: advanced.understood.field, value: null } : undefined;
    const { state, replies } = await runEffects(turn, advanced);
    return saveTurn(turn, state, { text: visitorText, meta: understood ? { understood } : {} }, replies);
  });
}

/** POST /verify: { phone } sends a code by SMS; { code } confirms the phone and links or creates the candidate. */
export async function verify(deps: AppDeps, input: VerifyChatInput, address: string): Promise<ChatTurn> {
  await enforce(
    systemDb(deps.db),
    CHAT_LIMITS.entryPerAddress,
    address,
    'Too many verification requests from this address; please wait a minute and try again',
  );
  const opened = await openConversation(deps, input.conversationId, input.token);
  return runInOrganization(deps, opened.organizationId, async (tx) => {
    const turn = await beginTurn(deps, tx, opened.id);
    if (!turn.agent.requirePhoneVerification) throw conflict('This chat does not ask for phone verification');
    if (turn.conversation.phoneVerifiedAt) throw conflict('The phone number is already confirmed');
    const state = stateOf(turn.conversation);
    if (state.phase !== 'phone' && state.phase !== 'code') throw conflict('The chat is not at the phone verification step yet');
    let first: Turn;
    let visitorText: string;
    if (input.phone !== undefined) {
      first = { state, replies: [], effect: { type: 'send_code', phone: input.phone } };
      const normalized = normalizePhone(input.phone);
      visitorText = normalized ? maskedPhone(normalized) : '••••';
    } else {
      if (state.phase !== 'code' || !turn.conversation.verificationCodeHash) throw conflict('Ask for a code first');
      first = { state, replies: [], effect: { type: 'check_code', code: input.code! } };
      visitorText = '••••••';
    }
    const { state: next, replies } = await runEffects(turn, first);
    return saveTurn(turn, next, { text: visitorText, meta: { verification: input.phone !== undefined ? 'phone' : 'code' } }, replies);
  });
}
