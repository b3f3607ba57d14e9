import { AlertTriangle, Loader2, RotateCcw } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../components/ui';
import { cn } from '../../lib/utils';
import type { Load } from './public-chat-conversation';
import type { Texts } from './public-chat-texts';

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

/** The public chat before it is ready: loading or resuming, a conversation not found, chat unavailable, or an error to retry. */
export function ChatLoadState({ load, texts, onStartOver }: { load: Exclude<Load, { kind: 'ready' }>; texts: Texts; onStartOver: () => void }) {
  if (load.kind === 'loading') {
    return (
      <div role="status" className="flex flex-1 items-center justify-center gap-2 p-8 text-slate-700">
        <Loader2 aria-hidden="true" className="h-6 w-6 animate-spin text-blue-700" />
        {load.resuming ? texts.resuming : texts.loading}
      </div>
    );
  }
  if (load.kind === 'not-found') {
    return (
      <Notice title={texts.notFoundTitle} action={<Button onClick={onStartOver}>{texts.startOver}</Button>}>
        {texts.notFoundBody}
      </Notice>
    );
  }
  if (load.kind === 'unavailable') {
    return (
      <Notice tone="info" title={texts.unavailableTitle}>
        {texts.unavailableBody}
      </Notice>
    );
  }
  return (
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
}
