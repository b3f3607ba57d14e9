import { Logo } from '../../components/Logo';
import { cn } from '../../lib/utils';
import { ChatComposer } from './ChatComposer';
import { ChatLoadState } from './ChatLoadState';
import { ChatTranscript } from './ChatTranscript';
import type { PublicChatProps } from './public-chat-conversation';
import { type PublicChat, usePublicChat } from './usePublicChat';

/** English or Spanish: before the first message the greeting changes language, after it the agent is told. */
function LanguageSwitch({ chat }: { chat: PublicChat }) {
  const { texts, language, busy } = chat;
  return (
    <div role="group" aria-label={texts.language} className="flex shrink-0 rounded-lg border border-slate-300 p-0.5">
      {(['en', 'es'] as const).map((option) => (
        <button
          key={option}
          type="button"
          lang={option}
          aria-pressed={language === option}
          disabled={busy}
          onClick={() => chat.switchLanguage(option)}
          className={cn(
            'rounded-md px-2.5 py-0.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:opacity-70',
            language === option ? 'bg-blue-700 text-white' : 'text-slate-800 hover:bg-slate-100',
          )}
        >
          {option === 'es' ? 'Español' : 'English'}
        </button>
      ))}
    </div>
  );
}

/**
 * The public chat page of an organization (no sign-in, no app shell). It resumes the conversation named by
 * `conversation-id` and `token`, or starts one and writes both into the URL (replace), so a reload resumes it.
 * The dialogue itself runs on the server: the page shows its messages and offers what it awaits next.
 */
export function PublicChatPage(props: PublicChatProps) {
  // One object from the hook: the parts read its fields rather than listing them all again.
  const chat = usePublicChat(props);
  const { conversation, load, language, texts } = chat;
  const title = chat.orgName ?? props.organization?.name ?? texts.fallbackName;
  const completed = conversation !== null && (conversation.awaiting === 'none' || conversation.status === 'COMPLETED');

  let body;
  if (load.kind !== 'ready') body = <ChatLoadState load={load} texts={texts} onStartOver={chat.startOver} />;
  else if (conversation) {
    body = (
      <>
        <ChatTranscript chat={chat} conversation={conversation} completed={completed} />
        <div role="status" className="sr-only">
          {chat.busy ? texts.typing : ''}
        </div>
        {!completed && <ChatComposer chat={chat} conversation={conversation} />}
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
            {canSwitch && <LanguageSwitch chat={chat} />}
          </div>
          <h1 className="text-lg font-semibold leading-tight text-slate-900">{title}</h1>
          <p className="text-xs text-slate-700">{texts.subtitle}</p>
        </div>
      </header>
      <main className="flex min-h-0 flex-1 flex-col">{body}</main>
    </div>
  );
}
