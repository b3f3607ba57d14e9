import type { Language } from '../../../contract/prescreen-forms';
import { CHAT_MESSAGE_MAX } from '../../../contract/chat';
import { ApiRequestError } from '../../lib/api';

/** What the public chat page says, in each language it speaks; the helpers that turn errors into these words. */
export const TEXTS = {
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
    simulatedTextTitle: 'Simulated text message',
    simulatedTextNote: 'This site sends no real texts yet. A real phone would receive:',
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
    simulatedTextTitle: 'Mensaje de texto simulado',
    simulatedTextNote: 'Este centro todavía no envía mensajes reales. Un teléfono real recibiría:',
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
export type Texts = (typeof TEXTS)[Language];

/** The server's own message of an API error, when it gave one. */
export function serverMessage(error: unknown): string | undefined {
  if (!(error instanceof ApiRequestError)) return undefined;
  const body = error.body as { error?: { message?: unknown } } | undefined;
  return typeof body?.error?.message === 'string' ? body.error.message : undefined;
}

/** How long a 429 asks to wait: the server's retryAfterSeconds (its Retry-After), else 2 s; at most 30 s. */
export function retryAfterMs(error: ApiRequestError): number {
  const details = (error.body as { error?: { details?: Array<{ path: string; message: string }> } } | undefined)?.error?.details ?? [];
  const seconds = Number(details.find((detail) => detail.path === 'retryAfterSeconds')?.message);
  return Math.min(30, Number.isFinite(seconds) && seconds > 0 ? seconds : 2) * 1000 + Math.floor(Math.random() * 250);
}

/** A visitor-friendly message for a failed call. */
export function friendlyError(error: unknown, texts: Texts): string {
  if (error instanceof ApiRequestError) {
    if (error.status === 429) return texts.tooMany;
    if (error.status >= 500) return texts.server;
    return serverMessage(error) ?? texts.server;
  }
  return texts.network;
}

/** The unsent text, kept per conversation for this tab: a reload or a remount never loses it. */
const draftKey = (conversationId: string) => `cohortly-chat-draft:${conversationId}`;
export function readDraft(conversationId: string): string {
  try {
    return window.sessionStorage.getItem(draftKey(conversationId)) ?? '';
  } catch {
    return '';
  }
}
export function writeDraft(conversationId: string, text: string) {
  try {
    if (text) window.sessionStorage.setItem(draftKey(conversationId), text);
    else window.sessionStorage.removeItem(draftKey(conversationId));
  } catch {
    // Storage may be unavailable (private mode): the text then lives in the page only.
  }
}

export const browserLanguage = (): Language | undefined =>
  typeof navigator !== 'undefined' && navigator.language?.toLowerCase().startsWith('es') ? 'es' : undefined;
