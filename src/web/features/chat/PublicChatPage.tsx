import { AlertTriangle, CheckCircle2, Loader2, RotateCcw, Send } from 'lucide-react';
import type { FormEvent, KeyboardEvent, ReactNode } from 'react';
import { CHAT_MESSAGE_MAX, VerifyChatSchema, type ChatMessage } from '../../../contract/chat';
import { Logo } from '../../components/Logo';
import { Button, Input } from '../../components/ui';
import { FormError } from '../../components/FormError';
import { Bubble } from '../../components/Transcript';
import { cn } from '../../lib/utils';
import { maxLengthOf } from '../../lib/limits';
import { ChatRating } from './ChatRating';
import type { Texts } from './public-chat-texts';
import { type PublicChatProps, usePublicChat } from './usePublicChat';

/** The longest phone number the verification accepts (src/contract/chat.ts). */
const PHONE_MAX = maxLengthOf(VerifyChatSchema.shape.phone);

function MessageBubble({ message, texts }: { message: ChatMessage; texts: Texts }) {
  const visitor = message.role === 'visitor';
  return (
    <div
      className={cn('flex', visitor ? 'justify-end' : 'justify-start')}
      data-testid="chat-message"
      data-role={message.role}
      data-kind={message.kind ?? undefined}
    >
      <Bubble
        side={visitor ? 'end' : 'start'}
        size="roomy"
        tone={message.kind === 'safety' ? 'safety' : undefined}
        className={visitor ? undefined : 'bg-white'}
      >
        <span className="sr-only">{visitor ? texts.you : texts.assistant}: </span>
        {message.text}
      </Bubble>
    </div>
  );
}

function Notice({ tone = 'error', title, children, action }: { tone?: 'error' | 'info'; title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn(
        'mx-auto mt-8 grid max-w-md gap-3 rounded-xl border bg-white p-6 text-center shadow-sm',
        tone === 'error' ? 'border-red-200' : 'border-slate-200',
      )}
    >
      <AlertTriangle aria-hidden="true" className={cn('mx-auto h-8 w-8', tone === 'error' ? 'text-red-700' : 'text-amber-700')} />
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      {children && <p className="text-sm text-slate-700">{children}</p>}
      {action && <div className="flex justify-center">{action}</div>}
    </div>
  );
}

/**
 * One step of the phone verification (the number, then the code): a labelled field with its submit button, and
 * the error in place of the hint once there is one.
 */
function VerifyStep({
  field,
  label,
  hint,
  submit,
  error,
  busy,
  onSubmit,
  input,
  children,
}: {
  field: 'phone' | 'code';
  label: string;
  hint: string;
  submit: string;
  error: string | null;
  busy: boolean;
  onSubmit: () => void;
  input: (aria: { id: string; 'aria-invalid': true | undefined; 'aria-describedby': string }) => ReactNode;
  children?: ReactNode;
}) {
  const id = `chat-${field}`;
  return (
    <form
      className="grid gap-1.5"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="flex gap-2">
        {input({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? 'chat-verify-error' : `${id}-hint` })}
        <Button type="submit" size="lg" disabled={busy}>
          {submit}
        </Button>
      </div>
      {error ? (
        <p id="chat-verify-error" role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="text-xs text-slate-700">
          {hint}
        </p>
      )}
      {children}
    </form>
  );
}

/**
 * The public chat page of an organization (no sign-in, no app shell). It resumes the conversation named by
 * `conversation-id` and `token`, or starts one and writes both into the URL (replace), so a reload resumes it.
 * The dialogue itself runs on the server: the page shows its messages and offers what it awaits next.
 */
export function PublicChatPage(props: PublicChatProps) {
  // One object from the hook: the page reads its fields rather than listing them all again.
  const chat = usePublicChat(props);
  const { organization } = props;
  const { conversation, orgName, load, draft, setDraft, pendingText, sendError, setSendError, verifyError, setVerifyError } = chat;
  const { phone, setPhone, code, setCode, changingPhone, setChangingPhone, scroller, textarea, language, texts, busy, startOver, sendText, verify, rate } =
    chat;

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
  const suggestions =
    !completed && awaiting === 'text' && lastAgent
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
        <div
          ref={scroller}
          tabIndex={0}
          role="region"
          aria-label={texts.messages}
          className="flex-1 overflow-y-auto px-4 py-4 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-blue-700"
        >
          <div
            role="log"
            aria-live="polite"
            aria-relevant="additions"
            aria-label={texts.log}
            className="mx-auto grid w-full max-w-2xl gap-2.5"
            data-testid="chat-log"
          >
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
            <section
              aria-labelledby="chat-complete"
              className="mx-auto mt-4 w-full max-w-2xl rounded-xl border border-green-200 bg-green-50 p-4"
              data-testid="chat-complete"
            >
              <h2 id="chat-complete" className="flex items-center gap-2 font-semibold text-green-900">
                <CheckCircle2 aria-hidden="true" className="h-5 w-5" />
                {texts.completeTitle}
              </h2>
              <p className="mt-1 text-sm text-green-900">{nextStep?.text ?? texts.completeBody}</p>
              {conversation.status === 'COMPLETED' && !conversation.rated && <ChatRating language={language} onRate={rate} />}
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
                <VerifyStep
                  field="phone"
                  label={texts.phoneLabel}
                  hint={texts.phoneHint}
                  submit={texts.sendCode}
                  error={verifyError}
                  busy={busy}
                  onSubmit={() => void verify({ phone })}
                  input={(aria) => (
                    <Input
                      {...aria}
                      type="tel"
                      inputMode="tel"
                      autoComplete="tel"
                      autoFocus
                      maxLength={PHONE_MAX}
                      value={phone}
                      placeholder="+1 212 555 0123"
                      onChange={(event) => setPhone(event.target.value)}
                      className="h-11 text-base"
                    />
                  )}
                />
              ) : showCodeForm ? (
                <VerifyStep
                  field="code"
                  label={texts.codeLabel}
                  hint={texts.codeHint}
                  submit={texts.confirm}
                  error={verifyError}
                  busy={busy}
                  onSubmit={() => void verify({ code })}
                  input={(aria) => (
                    <Input
                      {...aria}
                      inputMode="numeric"
                      autoComplete="one-time-code"
                      autoFocus
                      maxLength={6}
                      pattern="[0-9]*"
                      value={code}
                      onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 6))}
                      className="h-11 font-mono text-base tracking-[0.3em]"
                    />
                  )}
                >
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
                </VerifyStep>
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
                    <span
                      id="chat-input-count"
                      className={cn('ml-auto tabular-nums', draft.length > CHAT_MESSAGE_MAX - 100 && 'font-medium text-amber-800')}
                      data-testid="chat-counter"
                    >
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
