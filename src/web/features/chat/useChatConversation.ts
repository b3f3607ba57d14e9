import { useNavigate } from '@tanstack/react-router';
import { type Dispatch, type SetStateAction, useCallback, useEffect, useRef, useState } from 'react';
import type { Language } from '../../../contract/prescreen-forms';
import { ApiRequestError } from '../../lib/api';
import { type Conversation, fromServer, type Load, NOT_STARTED, type PublicChatProps } from './public-chat-conversation';
import { browserLanguage, friendlyError, readDraft, serverMessage, TEXTS } from './public-chat-texts';
import { publicChatApi } from './queries';

/**
 * The public chat's conversation as the URL names it: shown (greeting only) or resumed on a visit, created by the
 * visitor's first message (`ensureStarted`), dropped by `restart`. A resumed conversation's saved draft goes to
 * `setDraft`.
 */
export function useChatConversation({ organization, organizationId, search }: PublicChatProps, setDraft: Dispatch<SetStateAction<string>>) {
  const navigate = useNavigate();
  const [conversation, setConversation] = useState<Conversation | null>(null);
  const [orgName, setOrgName] = useState<string | null>(organization?.name ?? null);
  const [load, setLoad] = useState<Load>({ kind: 'loading', resuming: Boolean(search['conversation-id'] && search.token) });
  /** What the page has loaded, so its own URL update (after starting) does not load again. */
  const loadedKey = useRef<string | null>(null);

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

  // A visit shows the greeting and first prompt without storing anything; the conversation is created by the
  // visitor's first message (ensureStarted), so a visit that never writes leaves nothing behind (issue 32).
  const start = useCallback(
    async (wanted?: Language) => {
      setLoad({ kind: 'loading', resuming: false });
      try {
        const shown = await publicChatApi.preview(organization?.publicId ?? organizationId, wanted ?? browserLanguage());
        setConversation({ ...NOT_STARTED, language: shown.language, awaiting: shown.awaiting, messages: shown.messages });
        setOrgName((current) => current ?? shown.organization.name);
        setLoad({ kind: 'ready' });
      } catch (error) {
        console.error(error);
        const texts = TEXTS[browserLanguage() ?? 'en'];
        if (error instanceof ApiRequestError && (error.status === 409 || error.status === 404)) setLoad({ kind: 'unavailable', message: serverMessage(error) });
        else setLoad({ kind: 'error', message: friendlyError(error, texts), retry: () => void start(wanted) });
      }
    },
    [organization?.publicId, organizationId],
  );

  /** The conversation, created now if the visitor has not written before; written into the URL so a reload resumes it. */
  const ensureStarted = async (current: Conversation): Promise<Conversation> => {
    if (current.id) return current;
    const started = await publicChatApi.initiate(organization?.publicId ?? organizationId, current.language);
    const created = fromServer(started, started.token);
    loadedKey.current = `${started.conversationId}:${started.token}`;
    setConversation(created);
    writeUrl({ conversationId: started.conversationId, token: started.token });
    return created;
  };

  const resume = useCallback(
    async (conversationId: string, token: string) => {
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
    },
    [setDraft],
  );

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

  /** Drops the conversation from the page and the URL and shows the greeting again. */
  const restart = () => {
    loadedKey.current = 'new';
    setConversation(null);
    writeUrl(null);
    void start();
  };

  return { conversation, setConversation, orgName, load, start, ensureStarted, restart };
}
