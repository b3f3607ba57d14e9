import { useNavigate } from '@tanstack/react-router';
import { AlertTriangle, CheckCircle2, Loader2, RotateCcw, Send } from 'lucide-react';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { CHAT_MESSAGE_MAX, VerifyChatSchema, type ChatAwaiting, type ChatMessage, type ChatTurn, type ConversationStatus } from '../../../contract/chat';
import type { PublicOrganization } from '../../../contract/organizations';
import type { Language } from '../../../contract/prescreen-forms';
import { Logo } from '../../components/Logo';
import { Button, Input } from '../../components/ui';
import { FormError } from '../../components/FormError';
import { Bubble } from '../../components/Transcript';
import { ApiRequestError } from '../../lib/api';
import { cn } from '../../lib/utils';
import { maxLengthOf } from '../../lib/limits';
import { publicChatApi } from './queries';

/** The longest phone number the verification accepts (src/contract/chat.ts). */
const PHONE_MAX = maxLengthOf(VerifyChatSchema.shape.phone);

/**
 * The public chat page of an organization (no sign-in, no app shell). It resumes the conversation named by
 * `conversation-id` and `token`, or starts one and writes both into the URL (replace), so a reload resumes it.
 * The dialogue itself runs on the server: the page shows its messages and offers what it awaits next.
 */

const TEXTS = {
  en: {
    subtitle: 'Find out whether a clinical trial could be right for you',
    fallbackName: 'Research site chat',
    language: 'Language',
    loading: 'Starting the chat',
    resuming: 'Loading your conversation',
    you: 'You',
    assistant: 'Assistant',
    messages: 'Conversation',
    log: 'Messages',
    messageLabel: 'Your message',
    placeholder: 'Type your answer…',
    hint: 'Enter sends, Shift+Enter adds a new line.',
    counter: (count: number) => `${count} of ${CHAT_MESSAGE_MAX} characters`,
    send: 'Send',
    typing: 'The assistant is typing…',
    suggested: 'Suggested answers',
    yes: 'Yes',
    no: 'No',
    phoneLabel: 'Mobile phone number',
    phoneHint: 'We will text a 6-digit code to this number.',
    sendCode: 'Text me a code',
    codeLabel: '6-digit code',
    codeHint: 'Enter the code from the text message.',
    confirm: 'Confirm',
    otherNumber: 'Use a different number',
    codeRequired: 'Enter the 6-digit code',
    phoneRequired: 'Enter your mobile phone number',
    completeTitle: 'Chat complete',
    completeBody: 'Thank you for your time. You can close this page now.',
    notFoundTitle: "This conversation can't be found",
    notFoundBody: 'The link may be incomplete or out of date. You can start a new conversation instead.',
    startOver: 'Start over',
    unavailableTitle: 'Chat is not available right now',
    unavailableBody: 'Please try again later, or contact the research site directly.',
    errorTitle: 'Something went wrong',
    retry: 'Try again',
    network: 'We could not reach the server. Check your connection and try again.',
    tooMany: 'Too many attempts. Please wait a minute and try again.',
    server: 'Something went wrong on our side. Please try again.',
    tooLong: `A message has at most ${CHAT_MESSAGE_MAX} characters.`,
  },
  es: {
    subtitle: 'Averigüe si un estudio clínico podría ser adecuado para usted',
    fallbackName: 'Chat del centro de investigación',
    language: 'Idioma',
    loading: 'Iniciando el chat',
    resuming: 'Cargando su conversación',
    you: 'Usted',
    assistant: 'Asistente',
    messages: 'Conversación',
    log: 'Mensajes',
    messageLabel: 'Su mensaje',
    placeholder: 'Escriba su respuesta…',
    hint: 'Enter envía, Mayús+Enter agrega una línea.',
    counter: (count: number) => `${count} de ${CHAT_MESSAGE_MAX} caracteres`,
    send: 'Enviar',
    typing: 'El asistente está escribiendo…',
    suggested: 'Respuestas sugeridas',
    yes: 'Sí',
    no: 'No',
    phoneLabel: 'Número de teléfono móvil',
    phoneHint: 'Le enviaremos un código de 6 dígitos a este número.',
    sendCode: 'Enviarme un código',
    codeLabel: 'Código de 6 dígitos',
    codeHint: 'Escriba el código del mensaje de texto.',
    confirm: 'Confirmar',
    otherNumber: 'Usar otro número',
    codeRequired: 'Escriba el código de 6 dígitos',
    phoneRequired: 'Escriba su número de teléfono móvil',
    completeTitle: 'Chat terminado',
    completeBody: 'Gracias por su tiempo. Ya puede cerrar esta página.',
    notFoundTitle: 'No encontramos esta conversación',
    notFoundBody: 'Es posible que el enlace esté incompleto o vencido. Puede empezar una conversación nueva.',
    startOver: 'Empezar de nuevo',
    unavailableTitle: 'El chat no está disponible ahora',
    unavailableBody: 'Inténtelo más tarde o comuníquese directamente con el centro de investigación.',
    errorTitle: 'Algo salió mal',
    retry: 'Intentar de nuevo',
    network: 'No pudimos conectar con el servidor. Revise su conexión e inténtelo de nuevo.',
    tooMany: 'Demasiados intentos. Espere un minuto e inténtelo de nuevo.',
    server: 'Algo salió mal de nuestro lado. Inténtelo de nuevo.',
    tooLong: `Un mensaje tiene como máximo ${CHAT_MESSAGE_MAX} caracteres.`,
  },
} as const;
type Texts = (typeof TEXTS)[Language];

interface Conversation {
  id: string;
  token: string;
  status: ConversationStatus;
  language: Language;
  awaiting: ChatAwaiting;
  phoneVerified: boolean;
  messages: ChatMessage[];
}

type Load = { kind: 'loading'; resuming: boolean } | { kind: 'ready' } | { kind: 'not-found' } | { kind: 'unavailable'; message?: string } | { kind: 'error'; message: string; retry: () => void };

/** The server's own message of an API error, when it gave one. */
function serverMessage(error: unknown): string | undefined {
  if (!(error instanceof ApiRequestError)) return undefined;
  const body = error.body as { error?: { message?: unknown } } | undefined;
  return typeof body?.error?.message === 'string' ? body.error.message : undefined;
}

/** A visitor-friendly message for a failed call. */
/** How long a 429 asks to wait: the server's retryAfterSeconds (its Retry-After), else 2 s; at most 30 s. */
function retryAfterMs(error: ApiRequestError): number {
  const details = (error.body as { error?: { details?: Array<{ path: string; message: string }> } } | undefined)?.error?.details ?? [];
  const seconds = Number(details.find((detail) => detail.path === 'retryAfterSeconds')?.message);
  return Math.min(30, Number.isFinite(seconds) && seconds > 0 ? seconds : 2) * 1000 + Math.floor(Math.random() * 250);
}

function friendlyError(error: unknown, texts: Texts): string {
  if (error instanceof ApiRequestError) {
    if (error.status === 429) return texts.tooMany;
    if (error.status >= 500) return texts.server;
    return serverMessage(error) ?? texts.server;
  }
  return texts.network;
}

/** The unsent text, kept per conversation for this tab: a reload or a remount never loses it. */
const draftKey = (conversationId: string) => `cohortly-chat-draft:${conversationId}`;
function readDraft(conversationId: string): string {
  try {
    return window.sessionStorage.getItem(draftKey(conversationId)) ?? '';
  } catch {
    return '';
  }
}
function writeDraft(conversationId: string, text: string) {
  try {
    if (text) window.sessionStorage.setItem(draftKey(conversationId), text);
    else window.sessionStorage.removeItem(draftKey(conversationId));
  } catch {
    // Storage may be unavailable (private mode): the text then lives in the page only.
  }
}

const browserLanguage = (): Language | undefined => (typeof navigator !== 'undefined' && navigator.language?.toLowerCase().startsWith('es') ? 'es' : undefined);

function MessageBubble({ message, texts }: { message: ChatMessage; texts: Texts }) {
  const visitor = message.role === 'visitor';
  return (
    <div className={cn('flex', visitor ? 'justify-end' : 'justify-start')} data-testid="chat-message" data-role={message.role} data-kind={message.kind ?? undefined}>
      <Bubble side={visitor ? 'end' : 'start'} size="roomy" tone={message.kind === 'safety' ? 'safety' : undefined} className={visitor ? undefined : 'bg-white'}>
        <span className="sr-only">{visitor ? texts.you : texts.assistant}: </span>
        {message.text}
      </Bubble>
    </div>
  );
}

function Notice({ tone = 'error', title, children, action }: { tone?: 'error' | 'info'; title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={cn('mx-auto mt-8 grid max-w-md gap-3 rounded-xl border bg-white p-6 text-center shadow-sm', tone === 'error' ? 'border-red-200' : 'border-slate-200')}>
      <AlertTriangle aria-hidden="true" className={cn('mx-auto h-8 w-8', tone === 'error' ? 'text-red-700' : 'text-amber-700')} />
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      {children && <p className="text-sm text-slate-700">{children}</p>}
      {action && <div className="flex justify-center">{action}</div>}
    </div>
  );
}

export function PublicChatPage({ organization, organizationId, search }: { organization: PublicOrganization | null; organizationId: string; search: { 'conversation-id'?: string; token?: string } }) {
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
      setConversation({ id: started.conversationId, token: started.token, status: started.status, language: started.language, awaiting: started.awaiting, phoneVerified: started.phoneVerified, messages: started.messages });
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
      setConversation({ id: resumed.conversationId, token, status: resumed.status, language: resumed.language, awaiting: resumed.awaiting, phoneVerified: resumed.phoneVerified, messages: resumed.messages });
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
        ? { ...current, status: turn.status, language: turn.language, awaiting: turn.awaiting, phoneVerified: turn.phoneVerified, messages: [...current.messages, ...turn.messages.filter((message) => !current.messages.some((known) => known.id === message.id))] }
        : current,
    );

  /** After a 409 (the step or the status moved on elsewhere): read the conversation again. */
  const resync = async (current: Conversation) => {
    try {
      const resumed = await publicChatApi.resume(current.id, current.token);
      setConversation({ ...current, status: resumed.status, language: resumed.language, awaiting: resumed.awaiting, phoneVerified: resumed.phoneVerified, messages: resumed.messages });
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
      const turn = await publicChatApi.verify({ conversationId: conversation.id, token: conversation.token, ...(isPhone ? { phone: value } : { code: value }) });
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

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void sendText(draft);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void sendText(draft);
    }
  };

  const title = orgName ?? organization?.name ?? texts.fallbackName;
  const awaiting = conversation?.awaiting ?? 'text';
  const completed = conversation !== null && (awaiting === 'none' || conversation.status === 'COMPLETED');
  const lastMessage = conversation?.messages.at(-1);
  const lastAgent = lastMessage?.role === 'agent' ? lastMessage : undefined;
  const suggestions = !completed && awaiting === 'text' && lastAgent
    ? lastAgent.options?.length
      ? lastAgent.options.map((option) => option.label)
      : lastAgent.inputType === 'yes_no'
        ? [texts.yes, texts.no]
        : []
    : [];
  const nextStep = conversation?.messages.filter((message) => message.kind === 'next_step').at(-1);
  const showPhoneForm = !completed && (awaiting === 'phone' || (awaiting === 'code' && changingPhone));
  const showCodeForm = !completed && awaiting === 'code' && !changingPhone;

  let body;
  if (load.kind === 'loading') {
    body = (
      <div role="status" className="flex flex-1 items-center justify-center gap-2 p-8 text-slate-700">
        <Loader2 aria-hidden="true" className="h-6 w-6 animate-spin text-blue-700" />
        {load.resuming ? texts.resuming : texts.loading}
      </div>
    );
  } else if (load.kind === 'not-found') {
    body = (
      <Notice title={texts.notFoundTitle} action={<Button onClick={startOver}>{texts.startOver}</Button>}>
        {texts.notFoundBody}
      </Notice>
    );
  } else if (load.kind === 'unavailable') {
    body = (
      <Notice tone="info" title={texts.unavailableTitle}>
        {texts.unavailableBody}
      </Notice>
    );
  } else if (load.kind === 'error') {
    body = (
      <Notice
        title={texts.errorTitle}
        action={
          <Button variant="secondary" onClick={load.retry}>
            <RotateCcw aria-hidden="true" className="h-4 w-4" />
            {texts.retry}
          </Button>
        }
      >
        {load.message}
      </Notice>
    );
  } else if (conversation) {
    body = (
      <>
        <div ref={scroller} tabIndex={0} role="region" aria-label={texts.messages} className="flex-1 overflow-y-auto px-4 py-4 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-blue-700">
          <div role="log" aria-live="polite" aria-relevant="additions" aria-label={texts.log} className="mx-auto grid w-full max-w-2xl gap-2.5" data-testid="chat-log">
            {conversation.messages.map((message) => (
              <MessageBubble key={message.id} message={message} texts={texts} />
            ))}
          </div>
          {pendingText !== null && (
            <div className="mx-auto mt-2.5 grid w-full max-w-2xl gap-2.5" aria-hidden="true">
              <div className="flex justify-end">
                <Bubble side="end" size="roomy" tone="pending">
                  {pendingText}
                </Bubble>
              </div>
              <div className="flex justify-start">
                <Bubble side="start" size="roomy" className="flex items-center gap-1 bg-white py-3 shadow-none">
                  <span className="h-2 w-2 animate-bounce rounded-full bg-slate-500 [animation-delay:-0.3s]" />
                  <span className="h-2 w-2 animate-bounce rounded-full bg-slate-500 [animation-delay:-0.15s]" />
                  <span className="h-2 w-2 animate-bounce rounded-full bg-slate-500" />
                </Bubble>
              </div>
            </div>
          )}
          {completed && (
            <section aria-labelledby="chat-complete" className="mx-auto mt-4 w-full max-w-2xl rounded-xl border border-green-200 bg-green-50 p-4" data-testid="chat-complete">
              <h2 id="chat-complete" className="flex items-center gap-2 font-semibold text-green-900">
                <CheckCircle2 aria-hidden="true" className="h-5 w-5" />
                {texts.completeTitle}
              </h2>
              <p className="mt-1 text-sm text-green-900">{nextStep?.text ?? texts.completeBody}</p>
            </section>
          )}
        </div>
        <div role="status" className="sr-only">
          {busy ? texts.typing : ''}
        </div>
        {!completed && (
          <div className="border-t border-slate-200 bg-white px-4 pb-[max(0.75rem,env(safe-area-inset-bottom))] pt-3">
            <div className="mx-auto grid w-full max-w-2xl gap-2">
              {sendError && (
                <FormError className="flex flex-wrap items-center justify-between gap-2">
                  <span>{sendError}</span>
                  {draft.trim() && (
                    <Button variant="secondary" size="sm" onClick={() => void sendText(draft)} disabled={busy}>
                      <RotateCcw aria-hidden="true" className="h-4 w-4" />
                      {texts.retry}
                    </Button>
                  )}
                </FormError>
              )}
              {suggestions.length > 0 && (
                <div role="group" aria-label={texts.suggested} className="flex flex-wrap gap-2">
                  {suggestions.map((label) => (
                    <Button key={label} variant="secondary" size="sm" className="rounded-full" disabled={busy} onClick={() => void sendText(label)}>
                      {label}
                    </Button>
                  ))}
                </div>
              )}
              {showPhoneForm ? (
                <form
                  className="grid gap-1.5"
                  noValidate
                  onSubmit={(event) => {
                    event.preventDefault();
                    void verify({ phone });
                  }}
                >
                  <label htmlFor="chat-phone" className="text-sm font-medium text-slate-800">
                    {texts.phoneLabel}
                  </label>
                  <div className="flex gap-2">
                    <Input
                      id="chat-phone"
                      type="tel"
                      inputMode="tel"
                      autoComplete="tel"
                      autoFocus
                      maxLength={PHONE_MAX}
                      value={phone}
                      placeholder="+1 212 555 0123"
                      aria-invalid={verifyError ? true : undefined}
                      aria-describedby={verifyError ? 'chat-verify-error' : 'chat-phone-hint'}
                      onChange={(event) => setPhone(event.target.value)}
                      className="h-11 text-base"
                    />
                    <Button type="submit" size="lg" disabled={busy}>
                      {texts.sendCode}
                    </Button>
                  </div>
                  {verifyError ? (
                    <p id="chat-verify-error" role="alert" className="text-sm text-red-700">
                      {verifyError}
                    </p>
                  ) : (
                    <p id="chat-phone-hint" className="text-xs text-slate-700">
                      {texts.phoneHint}
                    </p>
                  )}
                </form>
              ) : showCodeForm ? (
                <form
                  className="grid gap-1.5"
                  noValidate
                  onSubmit={(event) => {
                    event.preventDefault();
                    void verify({ code });
                  }}
                >
                  <label htmlFor="chat-code" className="text-sm font-medium text-slate-800">
                    {texts.codeLabel}
                  </label>
                  <div className="flex gap-2">
                    <Input
                      id="chat-code"
                      inputMode="numeric"
                      autoComplete="one-time-code"
                      autoFocus
                      maxLength={6}
                      pattern="[0-9]*"
                      value={code}
                      aria-invalid={verifyError ? true : undefined}
                      aria-describedby={verifyError ? 'chat-verify-error' : 'chat-code-hint'}
                      onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 6))}
                      className="h-11 font-mono text-base tracking-[0.3em]"
                    />
                    <Button type="submit" size="lg" disabled={busy}>
                      {texts.confirm}
                    </Button>
                  </div>
                  {verifyError ? (
                    <p id="chat-verify-error" role="alert" className="text-sm text-red-700">
                      {verifyError}
                    </p>
                  ) : (
                    <p id="chat-code-hint" className="text-xs text-slate-700">
                      {texts.codeHint}
                    </p>
                  )}
                  <div>
                    <Button
                      variant="link"
                      size="sm"
                      onClick={() => {
                        setChangingPhone(true);
                        setVerifyError(null);
                      }}
                    >
                      {texts.otherNumber}
                    </Button>
                  </div>
                </form>
              ) : (
                <form onSubmit={onSubmit} className="grid gap-1">
                  <label htmlFor="chat-input" className="sr-only">
                    {texts.messageLabel}
                  </label>
                  <div className="flex items-end gap-2">
                    <textarea
                      id="chat-input"
                      ref={textarea}
                      rows={1}
                      value={draft}
                      maxLength={CHAT_MESSAGE_MAX}
                      placeholder={texts.placeholder}
                      aria-describedby="chat-input-hint chat-input-count"
                      onChange={(event) => {
                        setDraft(event.target.value);
                        if (sendError && !busy) setSendError(null);
                      }}
                      onKeyDown={onKeyDown}
                      className="max-h-40 min-h-11 w-full resize-none rounded-xl border border-slate-400 bg-white px-3 py-2.5 text-base text-slate-900 placeholder:text-slate-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 [field-sizing:content]"
                    />
                    <Button type="submit" size="lg" className="h-11 shrink-0 px-4" disabled={busy || !draft.trim()} aria-label={texts.send}>
                      {busy ? <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" /> : <Send aria-hidden="true" className="h-4 w-4" />}
                      <span className="hidden sm:inline">{texts.send}</span>
                    </Button>
                  </div>
                  <div className="flex justify-between gap-2 text-xs text-slate-700">
                    <span id="chat-input-hint" className="hidden sm:inline">
                      {texts.hint}
                    </span>
                    <span id="chat-input-count" className={cn('ml-auto tabular-nums', draft.length > CHAT_MESSAGE_MAX - 100 && 'font-medium text-amber-800')} data-testid="chat-counter">
                      <span aria-hidden="true">
                        {draft.length}/{CHAT_MESSAGE_MAX}
                      </span>
                      <span className="sr-only">{texts.counter(draft.length)}</span>
                    </span>
                  </div>
                </form>
              )}
            </div>
          </div>
        )}
      </>
    );
  }

  const canSwitch = load.kind === 'ready' && conversation !== null && !completed;
  return (
    <div className="flex h-dvh flex-col bg-slate-50" lang={language}>
      <header className="border-b border-slate-200 bg-white px-4 py-2.5">
        <div className="mx-auto grid w-full max-w-2xl gap-0.5">
          <div className="flex min-h-8 items-center justify-between gap-3">
            <Logo size="xs" />
            {canSwitch && (
              <div role="group" aria-label={texts.language} className="flex shrink-0 rounded-lg border border-slate-300 p-0.5">
                {(['en', 'es'] as const).map((option) => (
                  <button
                    key={option}
                    type="button"
                    lang={option}
                    aria-pressed={language === option}
                    disabled={busy}
                    onClick={() => {
                      if (language !== option) void sendText(option === 'es' ? 'Español' : 'English');
                    }}
                    className={cn(
                      'rounded-md px-2.5 py-0.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:opacity-70',
                      language === option ? 'bg-blue-700 text-white' : 'text-slate-800 hover:bg-slate-100',
                    )}
                  >
                    {option === 'es' ? 'Español' : 'English'}
                  </button>
                ))}
              </div>
            )}
          </div>
          <h1 className="text-lg font-semibold leading-tight text-slate-900">{title}</h1>
          <p className="text-xs text-slate-700">{texts.subtitle}</p>
        </div>
      </header>
      <main className="flex min-h-0 flex-1 flex-col">{body}</main>
    </div>
  );
}
