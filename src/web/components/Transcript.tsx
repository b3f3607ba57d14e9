import type { HTMLAttributes, ReactNode } from 'react';
import { cn, formatDateTime } from '../lib/utils';

const bubbleSides = {
  start: 'rounded-bl-md border border-slate-200 bg-slate-50 text-slate-900',
  end: 'rounded-br-md bg-blue-700 text-white',
} as const;
const bubbleSizes = { compact: 'px-3.5 py-2 text-sm', roomy: 'px-4 py-2.5 text-[15px] leading-relaxed shadow-sm' } as const;
const bubbleTones = {
  /** A safety message (crisis lines): it must stand out from the conversation. */
  safety: 'border-amber-300 bg-amber-50',
  /** An SMS the consent rules refused. */
  blocked: 'border border-dashed border-red-300 bg-red-50 text-slate-900',
  /** Sent, not yet answered by the server. */
  pending: 'bg-blue-700/70 shadow-none',
} as const;

export type BubbleSide = keyof typeof bubbleSides;
export type BubbleTone = keyof typeof bubbleTones;

/**
 * One message of a conversation (call, chat, SMS): `end` on the right in blue (the candidate or visitor in a
 * transcript, our side in an SMS thread), `start` on the left. `roomy` is the public chat page's size.
 */
export function Bubble({
  side,
  size = 'compact',
  tone,
  as: Tag = 'p',
  className,
  children,
}: {
  side: BubbleSide;
  size?: keyof typeof bubbleSizes;
  tone?: BubbleTone;
  as?: 'p' | 'div';
  className?: string;
  children: ReactNode;
}) {
  return (
    <Tag className={cn('max-w-[85%] whitespace-pre-line break-words rounded-2xl', bubbleSizes[size], bubbleSides[side], className, tone && bubbleTones[tone])}>
      {children}
    </Tag>
  );
}

export interface TranscriptTurn {
  key: string | number;
  side: BubbleSide;
  speaker: string;
  /** ISO time the turn was said, when known. */
  at?: string | null;
  text: string;
  tone?: BubbleTone;
}

/** A conversation as staff read it afterwards: each turn's speaker and time above its bubble, oldest first. */
export function Transcript({ turns, className, ...props }: { turns: TranscriptTurn[] } & HTMLAttributes<HTMLOListElement>) {
  return (
    <ol className={cn('grid gap-2.5', className)} {...props}>
      {turns.map((turn) => (
        <li key={turn.key} className={cn('flex flex-col', turn.side === 'end' ? 'items-end' : 'items-start')}>
          <span className="mb-0.5 text-xs text-slate-700">
            {turn.speaker}
            {/* A time that is not a date (a provider's offset) is left out, not shown as a dash. */}
            {turn.at && formatDateTime(turn.at) !== '—' ? ` · ${formatDateTime(turn.at)}` : ''}
          </span>
          <Bubble side={turn.side} tone={turn.tone}>
            {turn.text}
          </Bubble>
        </li>
      ))}
    </ol>
  );
}
