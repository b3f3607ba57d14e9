import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ChatMessage, ChatSendMessageInput, ChatTurn, InitiateChatInput, PublicConversation, StartedChat, VerifyChatInput } from '../../../contract/chat';
import { normalizePhone } from '../../../contract/candidates';
import type { AiRecommendation } from '../../../contract/prescreen';
import type { Language } from '../../../contract/prescreen-forms';
import { runAsOrganization, type Transaction } from '../../db/scoped';
import { systemDb } from '../../db/system';
import type { AppDeps } from '../../http/context';
import { AppError, conflict, notFound } from '../../http/errors';
import { recordActivity } from '../../activity';
import { recordSatisfaction } from '../satisfaction/service';
import type { RateChatInput } from '../../../contract/satisfaction';
import { findCandidate, insertContactEvents } from '../candidates/service';
import { findOrganizationById, findOrganizationByPublicId, type OrganizationRow } from '../../tenancy/organizations';
import { findForm, findFormVersion, recordPrescreenResultInTransaction } from '../prescreen/service';
import { findTrialRow } from '../trials/service';

import {
  advanceDialogue,
  afterCodeChecked,
  afterCodeSent,
  awaitingOf,
  closing,
  flatQuestions,
  startDialogue,
  type AgentReply,
  type DialogueState,
  type Effect,
  type Turn,
} from './dialogue';
import {
  activeAgentsWithPublishedForm,
  findAgentRow,
  findConversationRow,
  insertConversationRow,
  insertMessageRows,
  listMessageRows,
  updateConversationRow,
  type AgentRow,
  type ConversationRow,
  type MessageRow,
} from './queries';
import { CHAT_LIMITS, enforce } from './throttle';
import { checkCode, sendCode } from './phone-verification';
import { CHAT_ACTOR, languageOf, type Loaded, type TurnContext } from './turn';
import { findOrCreateCandidate, saveProfileAnswers } from './visitor-candidate';
import { isUuid } from '../../../contract/ids';

/**
 * Conversations as the visitor has them: the public chat page's API (no session: a conversation id plus its
 * resume token). Staff's view is in staff-conversations.ts, phone verification in phone-verification.ts, the
 * visitor's candidate record in visitor-candidate.ts. Public calls find the conversation on the system path, check the token, then run in the
 * conversation's organization under row-level security. Message texts, phones and codes are never logged.
 */

export const NOT_FOUND = 'Conversation not found';

// ---- secrets ----

export const newToken = () => randomBytes(32).toString('base64url');
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

function tokenMatches(row: ConversationRow, token: string): boolean {
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

const stateOf = (row: ConversationRow) => row.state as unknown as DialogueState;

function publicState(row: ConversationRow) {
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

/** Shown in a transcript instead of a phone number typed into the verify step: the last 4 digits. */
const maskedPhone = (phone: string) => `•••• ${phone.replace(/\D/g, '').slice(-4)}`;

// ---- the dialogue's context ----

const today = () => new Date().toISOString().slice(0, 10);

/**
 * The agent's published form (current version) and its trial's public description; 409 when not runnable.
 * A visitor starts a chat only for a recruiting trial (`mustRecruit`); staff may try one before the trial
 * starts recruiting, and a chat already started may finish.
 */
async function loadContext(tx: Transaction, agent: AgentRow, mustRecruit = false): Promise<Loaded> {
  const form = agent.prescreenFormId ? await findForm(tx, agent.prescreenFormId) : undefined;
  if (form?.status !== 'published' || form.organizationId !== agent.organizationId) throw conflict('This chat is not available right now');
  const version = await findFormVersion(tx, form.id, form.currentVersion);
  const trial = await findTrialRow(tx, form.trialId);
  if (!version || !trial) throw conflict('This chat is not available right now');
  if (mustRecruit && trial.status !== 'recruiting') throw new AppError(409, 'This study is not enrolling right now', 'TRIAL_NOT_RECRUITING');
  return {
    formId: form.id,
    trialId: trial.id,
    ctx: {
      agent: {
        greeting: agent.greeting,
        closingMessage: agent.closingMessage,
        languages: (agent.languages.length ? agent.languages : ['en']) as Language[],
        requirePhoneVerification: agent.requirePhoneVerification,
        nextStep: agent.nextStep,
      },
      blocks: version.blocks,
      study: { title: trial.publicTitle?.trim() || trial.title, summary: trial.summary, conditions: trial.conditions, sites: trial.sites },
      today: today(),
    },
  };
}

function replyRows(conversation: Pick<ConversationRow, 'id' | 'organizationId'>, replies: AgentReply[]) {
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

const runInOrganization = <T>(deps: AppDeps, organizationId: string, work: (tx: Transaction) => Promise<T>) => runAsOrganization(deps.db, organizationId, work);

// ---- starting ----

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

/** POST /initiate: the organization by public id (or id); its agent by id, or its first active one. */
export async function initiate(deps: AppDeps, input: InitiateChatInput, address: string): Promise<StartedChat> {
  await enforce(systemDb(deps.db), CHAT_LIMITS.entryPerAddress, address, 'Too many chats started from this address; please wait a minute and try again');
  const organization =
    (await findOrganizationByPublicId(systemDb(deps.db), input.organizationId)) ?? (await findOrganizationById(systemDb(deps.db), input.organizationId));
  if (!organization) throw notFound('Organization not found');
  return runInOrganization(deps, organization.id, async (tx) => {
    let agent: AgentRow | undefined;
    if (input.chatAgentId) {
      agent = await findAgentRow(tx, input.chatAgentId);
      if (!agent || agent.organizationId !== organization.id) throw notFound('Chat agent not found');
      if (!agent.active) throw conflict('This chat is not available right now');
    } else {
      [agent] = await activeAgentsWithPublishedForm(tx, organization.id);
      if (!agent) throw conflict('This organization has no chat available right now');
    }
    return createConversation(tx, organization, agent, input.language, false);
  });
}

// ---- opening a conversation with its token ----

/** The conversation whose id and token match, or 404 (wrong token, unknown id and malformed id alike). */
async function openConversation(deps: AppDeps, conversationId: string, token: string): Promise<ConversationRow> {
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

// ---- one turn ----

/** Locks the conversation for the turn, checks it can go on, loads its agent and form. */
async function beginTurn(deps: AppDeps, tx: Transaction, conversationId: string): Promise<TurnContext> {
  const conversation = await findConversationRow(tx, conversationId, true);
  if (!conversation) throw notFound(NOT_FOUND);
  if (conversation.status === 'COMPLETED') throw conflict('This conversation has ended');
  const agent = conversation.chatAgentId ? await findAgentRow(tx, conversation.chatAgentId) : undefined;
  if (!agent) throw conflict('This chat is not available any more');
  return { deps, tx, conversation, agent, loaded: await loadContext(tx, agent) };
}

/**
 * The end of a chat: the candidate (created now when verification is off and the visitor gave a name or an
 * answer), the prescreen result through the prescreen service (source chat, source id = the conversation),
 * the conversation COMPLETED, the contact event, and the closing messages.
 */
async function finishConversation(turn: TurnContext, state: DialogueState): Promise<AgentReply[]> {
  const { tx, loaded } = turn;
  let candidateId = turn.conversation.candidateId;
  const answered = state.answers.some((answer) => answer.value !== null);
  if (!candidateId && !turn.agent.requirePhoneVerification && (state.firstName || answered)) {
    const row = await findOrCreateCandidate(turn, state, state.contactPhone, false);
    candidateId = row.id;
  }
  let recommendation: AiRecommendation | null = null;
  let resultId: string | null = null;
  if (candidateId) await saveProfileAnswers(turn, candidateId, state);
  if (candidateId) {
    const candidateRow = await findCandidate(tx, candidateId);
    const asked = new Set(flatQuestions(loaded.ctx.blocks).map((question) => question.id));
    const answers = state.answers
      .filter((answer) => asked.has(answer.questionId))
      .map((answer) => ({ questionId: answer.questionId, value: answer.value, ...(answer.evidence ? { evidence: answer.evidence } : {}) }));
    if (candidateRow) {
      try {
        const result = await recordPrescreenResultInTransaction(tx, [turn.conversation.organizationId], CHAT_ACTOR, {
          candidateId,
          formId: loaded.formId,
          sourceType: 'chat',
          sourceId: turn.conversation.id,
          answers,
          actor: CHAT_ACTOR,
        });
        recommendation = result.aiRecommendation;
        resultId = result.id;
      } catch (error) {
        // The checks run before any write: a form unpublished or changed mid-chat leaves no result, not a broken chat.
        if (!(error instanceof AppError)) throw error;
        turn.deps.logger.warn({ conversationId: turn.conversation.id, status: error.status }, 'chat result not recorded');
      }
      await insertContactEvents(tx, [
        {
          organizationId: turn.conversation.organizationId,
          candidateId,
          kind: 'chat',
          summary: recommendation ? `Chat completed: ${recommendation}` : state.ended === 'stopped' ? 'Chat stopped by the visitor' : 'Chat completed',
          details: {
            conversationId: turn.conversation.id,
            resultId,
            stopped: state.ended === 'stopped',
            answered: state.answers.filter((answer) => answer.value !== null).length,
          },
          referenceId: turn.conversation.id,
          actorLabel: CHAT_ACTOR.label,
        },
      ]);
    }
  }
  if (!turn.conversation.isTest) {
    await recordActivity(tx, [
      {
        organizationId: turn.conversation.organizationId,
        trialId: loaded.trialId,
        candidateId,
        kind: 'chat_completed',
        source: 'chat',
        label: state.ended === 'stopped' ? 'stopped' : (recommendation ?? 'completed'),
        agentId: turn.conversation.chatAgentId,
        referenceId: turn.conversation.id,
      },
    ]);
  }
  turn.conversation = await updateConversationRow(tx, turn.conversation.id, {
    status: 'COMPLETED',
    completedAt: new Date(),
    candidateId,
    prescreenResultId: resultId,
  });
  return closing(loaded.ctx, state, recommendation);
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
  return { ...publicState(turn.conversation), messages: saved.map(toMessage) };
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
