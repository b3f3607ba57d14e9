import { useNavigate } from '@tanstack/react-router';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { CHAT_MESSAGE_MAX, type ChatAwaiting, type ChatMessage, type ChatTurn, type ConversationStatus, type PublicConversation } from '../../../contract/chat';
import type { PublicOrganization } from '../../../contract/organizations';
import type { Language } from '../../../contract/prescreen-forms';
import { ApiRequestError } from '../../lib/api';
import { browserLanguage, friendlyError, readDraft, retryAfterMs, serverMessage, TEXTS, writeDraft } from './public-chat-texts';
import { publicChatApi } from './queries';

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

export type Load =
  | { kind: 'loading'; resuming: boolean }
  | { kind: 'ready' }
  | { kind: 'not-found' }
  | { kind: 'unavailable'; message?: string }
  | { kind: 'error'; message: string; retry: () => void };

/** The page's copy of a conversation, from what the server answered (start, resume, a turn). */
const fromServer = (state: Omit<PublicConversation, 'agent' | 'messages'> & { messages: ChatMessage[] }, token: string): Conversation => ({
  id: state.conversationId,
  token,
  status: state.status,
  language: state.language,
  awaiting: state.awaiting,
  phoneVerified: state.phoneVerified,
  rated: state.rated,
  messages: state.messages,
});

/** What the page (and so the hook) is given: the organization as the route read it, and the URL's search. */
export interface PublicChatProps {
  organization: PublicOrganization | null;
  organizationId: string;
  search: { 'conversation-id'?: string; token?: string };
}

/**
 * The public chat's state and actions: start or resume the conversation the URL names, send messages (waiting
 * out a 429), verify the phone, rate the finished chat; the page (PublicChatPage.tsx) only shows it.
 */
export function usePublicChat({ organization, organizationId, search }: PublicChatProps) {
  const navigate = useNavigate();
  const [conversation, setConversation] = useState<Conversation | null>(null);
  const [orgName, setOrgName] = useState<string | null>(organization?.name ?? null);
  const [load, setLoad] = useState<Load>({ kind: 'loading', resuming: Boolean(search['conversation-id'] && search.token) });
  const [draft, setDraft] = useState('');
  const [pendingText, setPendingText] = useState<string | null>(null);
  const [sendError, setSendError] = useState<string | null>(null);
  const [verifyError, setVerifyError] = useState<string | null>(null);
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [changingPhone, setChangingPhone] = useState(false);
  /** What the page has loaded, so its own URL update (after starting) does not load again. */
  const loadedKey = useRef<string | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);

  const language: Language = conversation?.language ?? browserLanguage() ?? 'en';
  const texts = TEXTS[language];
  const busy = pendingText !== null;

  const writeUrl = useCallback(
    (next: { conversationId: string; token: string } | null) =>
      void navigate({
        to: '/chat/$organizationId',
        params: { organizationId },
        search: next ? { 'conversation-id': next.conversationId, token: next.token } : {},
        replace: true,
      }),
    [navigate, organizationId],
  );

  const start = useCallback(async () => {
    setLoad({ kind: 'loading', resuming: false });
    try {
      const started = await publicChatApi.initiate(organization?.publicId ?? organizationId, browserLanguage());
      loadedKey.current = `${started.conversationId}:${started.token}`;
      setConversation(fromServer(started, started.token));
      setOrgName((current) => current ?? started.organization.name);
      setLoad({ kind: 'ready' });
      writeUrl({ conversationId: started.conversationId, token: started.token });
    } catch (error) {
      console.error(error);
      const texts = TEXTS[browserLanguage() ?? 'en'];
      if (error instanceof ApiRequestError && (error.status === 409 || error.status === 404)) setLoad({ kind: 'unavailable', message: serverMessage(error) });
      else setLoad({ kind: 'error', message: friendlyError(error, texts), retry: () => void start() });
    }
  }, [organization?.publicId, organizationId, writeUrl]);

  const resume = useCallback(async (conversationId: string, token: string) => {
    setLoad({ kind: 'loading', resuming: true });
    try {
      const resumed = await publicChatApi.resume(conversationId, token);
      setConversation(fromServer(resumed, token));
      setDraft(readDraft(resumed.conversationId));
      setLoad({ kind: 'ready' });
    } catch (error) {
      if (error instanceof ApiRequestError && (error.status === 404 || error.status === 400)) {
        setLoad({ kind: 'not-found' });
        return;
      }
      console.error(error);
      setLoad({ kind: 'error', message: friendlyError(error, TEXTS[browserLanguage() ?? 'en']), retry: () => void resume(conversationId, token) });
    }
  }, []);

  // Load once per conversation named in the URL (or start one when none is). Starting writes the new
  // conversation into the URL after noting it as loaded, so that update loads nothing.
  const conversationId = search['conversation-id'];
  const token = search.token;
  const urlKey = conversationId && token ? `${conversationId}:${token}` : 'new';
  useEffect(() => {
    if (loadedKey.current === urlKey) return;
    loadedKey.current = urlKey;
    if (conversationId && token) void resume(conversationId, token);
    else void start();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [urlKey]);

  const startOver = () => {
    loadedKey.current = 'new';
    setConversation(null);
    setDraft('');
    setSendError(null);
    setVerifyError(null);
    writeUrl(null);
    void start();
  };

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

  const applyTurn = (turn: ChatTurn) =>
    setConversation((current) =>
      current
        ? {
            ...current,
            status: turn.status,
            language: turn.language,
            awaiting: turn.awaiting,
            phoneVerified: turn.phoneVerified,
            rated: turn.rated,
            messages: [...current.messages, ...turn.messages.filter((message) => !current.messages.some((known) => known.id === message.id))],
          }
        : current,
    );

  /** After a 409 (the step or the status moved on elsewhere): read the conversation again. */
  const resync = async (current: Conversation) => {
    try {
      const resumed = await publicChatApi.resume(current.id, current.token);
      setConversation(fromServer(resumed, current.token));
    } catch (error) {
      console.error(error);
    }
  };

  /**
   * Sends a message; when the server asks to slow down (429), waits as long as it says (Retry-After) and
   * sends again, showing the typing dots meanwhile rather than an error (issue 15).
   */
  const sendWithRetry = async (current: NonNullable<typeof conversation>, text: string) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await publicChatApi.send(current.id, current.token, text);
      } catch (error) {
        if (!(error instanceof ApiRequestError) || error.status !== 429 || attempt >= 8) throw error;
        await new Promise((resolve) => window.setTimeout(resolve, retryAfterMs(error)));
      }
    }
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
    try {
      applyTurn(await sendWithRetry(conversation, text));
    } catch (error) {
      console.error(error);
      // Never lose what the visitor typed: it goes back into the box.
      setDraft((current) => (current.trim() ? current : raw));
      setSendError(friendlyError(error, texts));
      if (error instanceof ApiRequestError && error.status === 409) void resync(conversation);
    } finally {
      setPendingText(null);
      window.requestAnimationFrame(() => textarea.current?.focus());
    }
  };

  const verify = async (input: { phone: string } | { code: string }) => {
    if (!conversation || busy) return;
    const isPhone = 'phone' in input;
    const value = isPhone ? input.phone.trim() : input.code.trim();
    if (!value) {
      setVerifyError(isPhone ? texts.phoneRequired : texts.codeRequired);
      return;
    }
    setPendingText(isPhone ? `•••• ${value.replace(/\D/g, '').slice(-4)}` : '••••••');
    setVerifyError(null);
    try {
      const turn = await publicChatApi.verify({
        conversationId: conversation.id,
        token: conversation.token,
        ...(isPhone ? { phone: value } : { code: value }),
      });
      applyTurn(turn);
      const lastAgent = [...turn.messages].reverse().find((message) => message.role === 'agent');
      if (isPhone) {
        if (turn.awaiting === 'code') {
          setChangingPhone(false);
          setCode('');
        } else setVerifyError(lastAgent?.text ?? null);
      } else if (!turn.phoneVerified) {
        setCode('');
        setVerifyError(lastAgent?.text ?? null);
      } else {
        setPhone('');
        setCode('');
      }
    } catch (error) {
      console.error(error);
      setVerifyError(friendlyError(error, texts));
      if (error instanceof ApiRequestError && error.status === 409) void resync(conversation);
    } finally {
      setPendingText(null);
    }
  };

  const rate = async (rating: number, comment: string) => {
    if (!conversation) return;
    applyTurn(await publicChatApi.rate(conversation.id, conversation.token, rating, comment));
  };

  return {
    conversation,
    orgName,
    load,
    draft,
    setDraft,
    pendingText,
    sendError,
    setSendError,
    verifyError,
    setVerifyError,
    phone,
    setPhone,
    code,
    setCode,
    changingPhone,
    setChangingPhone,
    scroller,
    textarea,
    language,
    texts,
    busy,
    startOver,
    sendText,
    verify,
    rate,
  };
}
