import { useState } from 'react';
import { SATISFACTION_COMMENT_MAX } from '../../../contract/satisfaction';
import { Button } from '../../components/ui';
import { FormError } from '../../components/FormError';
import { cn } from '../../lib/utils';

const TEXTS = {
  en: {
    question: 'How was this chat?',
    scale: (value: number) => `${value} of 5${value === 1 ? ', very poor' : value === 5 ? ', excellent' : ''}`,
    poor: 'Very poor',
    excellent: 'Excellent',
    comment: 'Anything we could do better? (optional)',
    send: 'Send rating',
    sending: 'Sending…',
    chooseFirst: 'Choose a number from 1 to 5 first.',
    failed: 'Your rating could not be sent. Please try again.',
  },
  es: {
    question: '¿Qué le pareció este chat?',
    scale: (value: number) => `${value} de 5${value === 1 ? ', muy malo' : value === 5 ? ', excelente' : ''}`,
    poor: 'Muy malo',
    excellent: 'Excelente',
    comment: '¿Algo que podamos mejorar? (opcional)',
    send: 'Enviar calificación',
    sending: 'Enviando…',
    chooseFirst: 'Elija primero un número del 1 al 5.',
    failed: 'No se pudo enviar su calificación. Inténtelo de nuevo.',
  },
} as const;

/** The 1-5 rating a finished chat asks for (decision 067): five buttons in a radio group, an optional comment. */
export function ChatRating({ language, onRate }: { language: 'en' | 'es'; onRate: (rating: number, comment: string) => Promise<void> }) {
  const texts = TEXTS[language];
  const [rating, setRating] = useState<number | null>(null);
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="mt-3 grid gap-2 border-t border-green-200 pt-3"
      data-testid="chat-rating"
      onSubmit={async (event) => {
        event.preventDefault();
        if (rating === null) return setError(texts.chooseFirst);
        setBusy(true);
        setError(null);
        try {
          await onRate(rating, comment.trim());
        } catch {
          setError(texts.failed);
        } finally {
          setBusy(false);
        }
      }}
    >
      <fieldset>
        <legend className="text-sm font-medium text-green-950">{texts.question}</legend>
        <div className="mt-2 flex items-center gap-1.5" role="radiogroup" aria-label={texts.question}>
          {[1, 2, 3, 4, 5].map((value) => (
            <button
              key={value}
              type="button"
              role="radio"
              aria-checked={rating === value}
              aria-label={texts.scale(value)}
              onClick={() => setRating(value)}
              className={cn(
                'h-10 w-10 rounded-lg border text-base font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700',
                rating === value ? 'border-blue-700 bg-blue-700 text-white' : 'border-slate-400 bg-white text-slate-900 hover:bg-slate-100',
              )}
            >
              {value}
            </button>
          ))}
        </div>
        <div className="mt-1 flex w-[13.5rem] justify-between text-xs text-green-950" aria-hidden="true">
          <span>{texts.poor}</span>
          <span>{texts.excellent}</span>
        </div>
      </fieldset>
      <label className="grid gap-1 text-sm text-green-950">
        {texts.comment}
        <textarea
          value={comment}
          maxLength={SATISFACTION_COMMENT_MAX}
          rows={2}
          onChange={(event) => setComment(event.target.value)}
          className="rounded-lg border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
        />
      </label>
      {error && <FormError>{error}</FormError>}
      <div>
        <Button type="submit" disabled={busy}>
          {busy ? texts.sending : texts.send}
        </Button>
      </div>
    </form>
  );
}
