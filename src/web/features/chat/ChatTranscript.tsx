import { CheckCircle2 } from 'lucide-react';
import type { ChatMessage } from '../../../contract/chat';
import { Bubble } from '../../components/Transcript';
import { cn } from '../../lib/utils';
import { ChatRating } from './ChatRating';
import type { Conversation } from './public-chat-conversation';
import type { Texts } from './public-chat-texts';
import type { PublicChat } from './usePublicChat';

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

/** While a message is on its way: the visitor's text, pending, and the agent's typing dots (the status line tells screen readers). */
function PendingTurn({ text }: { text: string }) {
  return (
    <div className="mx-auto mt-2.5 grid w-full max-w-2xl gap-2.5" aria-hidden="true">
      <div className="flex justify-end">
        <Bubble side="end" size="roomy" tone="pending">
          {text}
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
  );
}

/** The finished chat: the next step the agent gave, and the rating until the visitor has given one. */
function ChatComplete({ chat, conversation }: { chat: PublicChat; conversation: Conversation }) {
  const { texts, language, rate } = chat;
  const nextStep = conversation.messages.filter((message) => message.kind === 'next_step').at(-1);
  return (
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
  );
}

/** The conversation's messages, kept scrolled to the newest, the turn on its way, and the closing note once finished. */
export function ChatTranscript({ chat, conversation, completed }: { chat: PublicChat; conversation: Conversation; completed: boolean }) {
  const { scroller, texts, pendingText } = chat;
  return (
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
      {pendingText !== null && <PendingTurn text={pendingText} />}
      {completed && <ChatComplete chat={chat} conversation={conversation} />}
    </div>
  );
}
