/**
 * Keywords of an inbound SMS, matched on the whole message, case- and punctuation-insensitive
 * ("Stop!", " stop. " and "STOP" are the same). Opt-out words follow Twilio's defaults and the CTIA list;
 * the plain phrases catch people who do not know the keywords.
 */
export type KeywordAction = 'opt_out' | 'opt_in' | 'help' | 'none';

const OPT_OUT = new Set([
  'stop',
  'stopall',
  'stop all',
  'unsubscribe',
  'cancel',
  'end',
  'quit',
  'revoke',
  'optout',
  'opt out',
  'stop texting me',
  'stop texting',
  'stop messaging me',
  'stop sending me texts',
  'stop texting me please',
  'please stop',
  'please stop texting me',
  'stop please',
  'no more texts',
  'no more messages',
  'no more texts please',
  'unsubscribe me',
  'remove me',
  'remove me from your list',
  'do not text me',
  'dont text me',
  'don t text me',
  'leave me alone',
  // Spanish
  'alto',
  'parar',
  'basta',
  'cancelar',
  'no mas mensajes',
  'no mas textos',
  'no me escriban',
  'no me envien mensajes',
]);
/** Always re-subscribe. */
const OPT_IN = new Set(['start', 'unstop', 'subscribe']);
/** Re-subscribe only someone who opted out; otherwise an ordinary answer (e.g. to "Can you come Tuesday?"). */
const OPT_IN_WHEN_OPTED_OUT = new Set(['yes', 'y', 'si']);
const HELP = new Set(['help', 'info', 'ayuda']);

/** Lowercase, accents and punctuation removed, whitespace collapsed. */
export function normalizeKeywordText(body: string): string {
  return body
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** What a whole inbound message asks for. `optedOut`: whether the sender is opted out now (YES then re-subscribes). */
export function classifyInbound(body: string, optedOut = false): KeywordAction {
  const text = normalizeKeywordText(body);
  if (OPT_OUT.has(text)) return 'opt_out';
  if (OPT_IN.has(text)) return 'opt_in';
  if (optedOut && OPT_IN_WHEN_OPTED_OUT.has(text)) return 'opt_in';
  if (HELP.has(text)) return 'help';
  return 'none';
}

/** Whether a message is an opt-out or an opt-in keyword of any kind (used to read a number's opt-out state from history). */
export function consentKeyword(body: string): 'opt_out' | 'opt_in' | undefined {
  const action = classifyInbound(body, true);
  return action === 'opt_out' || action === 'opt_in' ? action : undefined;
}
