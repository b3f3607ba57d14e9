import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { CHAT_MESSAGE_MAX, type ChatTurn } from '../../../contract/chat';
import type { Language } from '../../../contract/prescreen-forms';
import { ApiRequestError } from '../../lib/api';
import { type Conversation, fromServer, type PublicChatProps, sendWithRetry, withTurn } from './public-chat-conversation';
import { browserLanguage, friendlyError, TEXTS, writeDraft } from './public-chat-texts';
import { publicChatApi } from './queries';
import { useChatConversation } from './useChatConversation';
import { usePhoneVerification } from './usePhoneVerification';

/**
 * The public chat's state and actions: start or resume the conversation the URL names (useChatConversation),
 * send messages (waiting out a 429), verify the phone (usePhoneVerification), rate the finished chat; the page
 * (PublicChatPage.tsx) only shows it.
 */
export function usePublicChat(props: PublicChatProps) {
  const [draft, setDraft] = useState('');
  const { conversation, setConversation, orgName, load, start, ensureStarted, restart } = useChatConversation(props, setDraft);
  const [pendingText, setPendingText] = useState<string | null>(null);
  const [sendError, setSendError] = useState<string | null>(null);
  /** With the SMS simulator only: the text a real phone would have received (the code), shown until it is used. */
  const [simulatedText, setSimulatedText] = useState<string | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);

  const language: Language = conversation?.language ?? browserLanguage() ?? 'en';
  const texts = TEXTS[language];
  const busy = pendingText !== null;

  const currentId = conversation?.id;
  useEffect(() => {
    if (currentId) writeDraft(currentId, draft);
  }, [currentId, draft]);

  // Keep the newest message in view.
  const messageCount = conversation?.messages.length ?? 0;
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [messageCount, pendingText, sendError, conversation?.awaiting]);

  const applyTurn = (turn: ChatTurn) => {
    if (turn.simulatedText) setSimulatedText(turn.simulatedText);
    else if (turn.awaiting !== 'code') setSimulatedText(null);
    setConversation((current) => (current ? withTurn(current, turn) : current));
  };

  /** After a 409 (the step or the status moved on elsewhere): read the conversation again. */
  const resync = async (current: Conversation) => {
    try {
      const resumed = await publicChatApi.resume(current.id, current.token);
      setConversation(fromServer(resumed, current.token));
    } catch (error) {
      console.error(error);
    }
  };

  const verification = usePhoneVerification({ conversation, busy, texts, setPendingText, ensureStarted, applyTurn, resync });

  const startOver = () => {
    setDraft('');
    setSendError(null);
    verification.setVerifyError(null);
    setSimulatedText(null);
    restart();
  };

  const sendText = async (raw: string) => {
    if (!conversation || busy) return;
    const text = raw.trim();
    if (!text) return;
    if (text.length > CHAT_MESSAGE_MAX) {
      setSendError(texts.tooLong);
      return;
    }
    setPendingText(text);
    setSendError(null);
    setDraft('');
    let active = conversation;
    try {
      active = await ensureStarted(conversation);
      applyTurn(await sendWithRetry(active, text));
    } catch (error) {
      console.error(error);
      // Never lose what the visitor typed: it goes back into the box.
      setDraft((current) => (current.trim() ? current : raw));
      setSendError(friendlyError(error, texts));
      if (error instanceof ApiRequestError && error.status === 409 && active.id) void resync(active);
    } finally {
      setPendingText(null);
      window.requestAnimationFrame(() => textarea.current?.focus());
    }
  };

  /** Before the first message the greeting is shown again in the other language; after it, the agent is told. */
  const switchLanguage = (option: Language) => {
    if (!conversation || conversation.language === option || busy) return;
    if (!conversation.id) void start(option);
    else void sendText(option === 'es' ? 'Español' : 'English');
  };

  const rate = async (rating: number, comment: string) => {
    if (!conversation) return;
    applyTurn(await publicChatApi.rate(conversation.id, conversation.token, rating, comment));
  };

  return {
    ...verification,
    conversation,
    orgName,
    load,
    draft,
    setDraft,
    pendingText,
    sendError,
    setSendError,
    simulatedText,
    scroller,
    textarea,
    language,
    texts,
    busy,
    startOver,
    switchLanguage,
    sendText,
    rate,
  };
}

/** The public chat's state and actions, as the page's parts read them. */
export type PublicChat = ReturnType<typeof usePublicChat>;
