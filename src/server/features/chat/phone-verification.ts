import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { normalizePhone } from '../../../contract/candidates';
import type { AppDeps } from '../../http/context';
import { sendSms } from '../sms/service';
import type { CodeCheckOutcome, CodeSendOutcome, DialogueState } from './dialogue';
import { updateConversationRow } from './queries';
import { CHAT_LIMITS, hit } from './throttle';
import { languageOf, type TurnContext } from './turn';
import { findOrCreateCandidate } from './visitor-candidate';

/** Phone verification in a chat: a 6-digit code by SMS, kept as an HMAC for 10 minutes, a few tries per code. */

const CODE_TTL_MS = 10 * 60_000;
export const MAX_CODE_ATTEMPTS = 5;

const hashCode = (deps: AppDeps, conversationId: string, code: string) =>
  createHmac('sha256', deps.config.authSecret).update(`${conversationId}:${code}`).digest('hex');

export const verificationText = (language: 'en' | 'es', code: string) =>
  language === 'es' ? `Su código de verificación es ${code}. Vence en 10 minutos.` : `Your verification code is ${code}. It expires in 10 minutes.`;

/** Sends a verification code by SMS to the (normalized) phone; the code is stored hashed, for 10 minutes. */
export async function sendCode(turn: TurnContext, rawPhone: string): Promise<CodeSendOutcome> {
  const phone = normalizePhone(rawPhone);
  if (!phone) return 'invalid_phone';
  const { deps, tx, conversation } = turn;
  if (!(await hit(tx, CHAT_LIMITS.codesPerConversation, conversation.id)).allowed) return 'throttled';
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const language = languageOf(conversation);
  const body = verificationText(language, code);
  const sent = await sendSms(deps, { organizationId: conversation.organizationId, to: phone, body, purpose: 'verification' }, tx);
  if (sent.status === 'blocked' || sent.status === 'failed' || sent.status === 'undelivered') return 'failed';
  // No real phone receives a simulated text: the page shows it instead, labelled as a simulation (issue 32).
  if (deps.sms.provider === 'simulator') turn.simulatedText = body;
  turn.conversation = await updateConversationRow(tx, conversation.id, {
    phone,
    verificationCodeHash: hashCode(deps, conversation.id, code),
    verificationExpiresAt: new Date(Date.now() + CODE_TTL_MS),
    verificationAttempts: 0,
  });
  return 'sent';
}

/** Checks a code: at most MAX_CODE_ATTEMPTS tries per code; right: the phone is confirmed and the candidate linked. */
export async function checkCode(turn: TurnContext, state: DialogueState, code: string): Promise<CodeCheckOutcome> {
  const { deps, tx } = turn;
  const conversation = turn.conversation;
  if (
    !conversation.verificationCodeHash ||
    !conversation.verificationExpiresAt ||
    conversation.verificationExpiresAt.getTime() < Date.now() ||
    conversation.verificationAttempts >= MAX_CODE_ATTEMPTS
  ) {
    turn.conversation = await updateConversationRow(tx, conversation.id, { verificationCodeHash: null, verificationExpiresAt: null });
    return { result: 'expired' };
  }
  const given = Buffer.from(hashCode(deps, conversation.id, code.trim()), 'hex');
  const stored = Buffer.from(conversation.verificationCodeHash, 'hex');
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) {
    const attempts = conversation.verificationAttempts + 1;
    const left = MAX_CODE_ATTEMPTS - attempts;
    turn.conversation = await updateConversationRow(
      tx,
      conversation.id,
      left > 0 ? { verificationAttempts: attempts } : { verificationAttempts: attempts, verificationCodeHash: null, verificationExpiresAt: null },
    );
    return left > 0 ? { result: 'wrong', attemptsLeft: left } : { result: 'expired' };
  }
  const candidateRow = await findOrCreateCandidate(turn, state, conversation.phone!, true);
  turn.conversation = await updateConversationRow(tx, conversation.id, {
    phoneVerifiedAt: new Date(),
    verificationCodeHash: null,
    verificationExpiresAt: null,
    candidateId: candidateRow.id,
  });
  return { result: 'verified' };
}
