import { Loader2, RotateCcw, Send } from 'lucide-react';
import type { FormEvent, KeyboardEvent } from 'react';
import { CHAT_MESSAGE_MAX } from '../../../contract/chat';
import { FormError } from '../../components/FormError';
import { Button } from '../../components/ui';
import { cn } from '../../lib/utils';
import { CodeStep, PhoneStep } from './ChatVerifySteps';
import type { Conversation } from './public-chat-conversation';
import type { Texts } from './public-chat-texts';
import type { PublicChat } from './usePublicChat';

/** The answers offered as buttons for the agent's last question: its options, or yes and no. */
function suggestedAnswers(conversation: Conversation, texts: Texts): string[] {
  const lastMessage = conversation.messages.at(-1);
  if (lastMessage?.role !== 'agent') return [];
  if (lastMessage.options?.length) return lastMessage.options.map((option) => option.label);
  return lastMessage.inputType === 'yes_no' ? [texts.yes, texts.no] : [];
}

/** The message box: Enter sends, Shift+Enter breaks the line; a counter shows the length against the limit. */
function MessageForm({ chat }: { chat: PublicChat }) {
  const { texts, draft, setDraft, sendError, setSendError, busy, sendText, textarea } = chat;
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
  return (
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
  );
}

/**
 * The foot of an unfinished chat: the send error with Retry, the suggested answers, and the field the
 * conversation awaits (the phone number, the code, or a message).
 */
export function ChatComposer({ chat, conversation }: { chat: PublicChat; conversation: Conversation }) {
  const { texts, draft, sendError, busy, sendText, changingPhone } = chat;
  const { awaiting } = conversation;
  const suggestions = awaiting === 'text' ? suggestedAnswers(conversation, texts) : [];
  const showPhoneForm = awaiting === 'phone' || (awaiting === 'code' && changingPhone);
  const showCodeForm = awaiting === 'code' && !changingPhone;
  return (
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
        {showPhoneForm ? <PhoneStep chat={chat} /> : showCodeForm ? <CodeStep chat={chat} /> : <MessageForm chat={chat} />}
      </div>
    </div>
  );
}
