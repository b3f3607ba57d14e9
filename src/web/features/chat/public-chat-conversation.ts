import type { ChatAwaiting, ChatMessage, ChatTurn, ConversationStatus, PublicConversation } from '../../../contract/chat';
import type { PublicOrganization } from '../../../contract/organizations';
import type { Language } from '../../../contract/prescreen-forms';
import { ApiRequestError } from '../../lib/api';
import { retryAfterMs } from './public-chat-texts';
import { publicChatApi } from './queries';

/** What the page (and so the hook) is given: the organization as the route read it, and the URL's search. */
export interface PublicChatProps {
  organization: PublicOrganization | null;
  organizationId: string;
  search: { 'conversation-id'?: string; token?: string };
}

/** The public chat page's copy of a conversation; an empty id until the visitor's first message stores it. */
export interface Conversation {
  id: string;
  token: string;
  status: ConversationStatus;
  language: Language;
  awaiting: ChatAwaiting;
  phoneVerified: boolean;
  rated: boolean;
  messages: ChatMessage[];
}

/** Where loading the page's conversation stands. */
export type Load =
  | { kind: 'loading'; resuming: boolean }
  | { kind: 'ready' }
  | { kind: 'not-found' }
  | { kind: 'unavailable'; message?: string }
  | { kind: 'error'; message: string; retry: () => void };

/** The page's copy of a conversation, from what the server answered (start, resume, a turn). */
export const fromServer = (state: Omit<PublicConversation, 'agent' | 'messages'> & { messages: ChatMessage[] }, token: string): Conversation => ({
  id: state.conversationId,
  token,
  status: state.status,
  language: state.language,
  awaiting: state.awaiting,
  phoneVerified: state.phoneVerified,
  rated: state.rated,
  messages: state.messages,
});

/** The page before the visitor's first message: the greeting shown, no conversation stored yet. */
export const NOT_STARTED: Conversation = {
  id: '',
  token: '',
  status: 'ONGOING',
  language: 'en',
  awaiting: 'text',
  phoneVerified: false,
  rated: false,
  messages: [],
};

/** The conversation after a turn: its new step and status, and the turn's messages not already shown. */
export const withTurn = (current: Conversation, turn: ChatTurn): Conversation => ({
  ...current,
  status: turn.status,
  language: turn.language,
  awaiting: turn.awaiting,
  phoneVerified: turn.phoneVerified,
  rated: turn.rated,
  messages: [...current.messages, ...turn.messages.filter((message) => !current.messages.some((known) => known.id === message.id))],
});

/**
 * Sends a message; when the server asks to slow down (429), waits as long as it says (Retry-After) and
 * sends again, so the page shows the typing dots meanwhile rather than an error (issue 15).
 */
export async function sendWithRetry(current: Conversation, text: string): Promise<ChatTurn> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await publicChatApi.send(current.id, current.token, text);
    } catch (error) {
      if (!(error instanceof ApiRequestError) || error.status !== 429 || attempt >= 8) throw error;
      await new Promise((resolve) => window.setTimeout(resolve, retryAfterMs(error)));
    }
  }
}
