import type { SequenceStep } from '../../../contract/sequences';
import { fillPlaceholders, STOP_EN, STOP_ES, templateLanguage } from '../sms/templates';

type MessageStep = Extract<SequenceStep, { type: 'sms' | 'email' }>;

export interface RenderedStep {
  language: 'en' | 'es';
  subject: string | null;
  text: string;
  /** Variables without a value: such a message is not sent. */
  missing: string[];
}

/** An opt-out line unless the message already tells how to stop (carriers expect one on outreach texts). */
function withOptOut(text: string, language: 'en' | 'es'): string {
  return /\bSTOP\b/.test(text) ? text : `${text}${language === 'es' ? STOP_ES : STOP_EN}`;
}

/**
 * A message step in the candidate's language (Spanish when they prefer it and the step has it), with the
 * variables filled. SMS gets the opt-out line.
 */
export function renderStep(
  step: MessageStep,
  preferredLanguage: string | null | undefined,
  variables: Record<string, string | null | undefined>,
  language?: 'en' | 'es',
): RenderedStep {
  const wanted = language ?? templateLanguage(preferredLanguage);
  if (step.type === 'sms') {
    const chosen = wanted === 'es' && step.message.es ? 'es' : 'en';
    const filled = fillPlaceholders(step.message[chosen]!, variables);
    return { language: chosen, subject: null, text: withOptOut(filled.text, chosen), missing: filled.missing };
  }
  const chosen = wanted === 'es' && step.body.es ? 'es' : 'en';
  const subject = fillPlaceholders(step.subject[chosen] ?? step.subject.en, variables);
  const body = fillPlaceholders(step.body[chosen]!, variables);
  const footer =
    chosen === 'es' ? '\n\nSi no desea recibir más mensajes, responda a este correo.' : '\n\nIf you would rather not hear from us, reply to this email.';
  return { language: chosen, subject: subject.text, text: `${body.text}${footer}`, missing: [...new Set([...subject.missing, ...body.missing])] };
}
