import { useState } from 'react';
import type { ChatTurn } from '../../../contract/chat';
import { ApiRequestError } from '../../lib/api';
import type { Conversation } from './public-chat-conversation';
import { friendlyError, type Texts } from './public-chat-texts';
import { publicChatApi } from './queries';

/** What the verification needs from the chat around it. */
interface VerificationContext {
  conversation: Conversation | null;
  busy: boolean;
  texts: Texts;
  /** What the pending bubble shows while the step is sent (masked); null once answered. */
  setPendingText: (text: string | null) => void;
  ensureStarted: (current: Conversation) => Promise<Conversation>;
  applyTurn: (turn: ChatTurn) => void;
  resync: (current: Conversation) => Promise<void>;
}

/** The last thing the agent said in a turn: why a number or a code was refused. */
const lastAgentText = (turn: ChatTurn) => [...turn.messages].reverse().find((message) => message.role === 'agent')?.text ?? null;

/** The public chat's phone verification: the number, then the code, their fields and the error to show. */
export function usePhoneVerification({ conversation, busy, texts, setPendingText, ensureStarted, applyTurn, resync }: VerificationContext) {
  const [verifyError, setVerifyError] = useState<string | null>(null);
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [changingPhone, setChangingPhone] = useState(false);

  /** After a turn: the code field next, the verified chat with emptied fields, or the agent's refusal as the error. */
  const afterTurn = (isPhone: boolean, turn: ChatTurn) => {
    if (isPhone) {
      if (turn.awaiting === 'code') {
        setChangingPhone(false);
        setCode('');
      } else setVerifyError(lastAgentText(turn));
    } else if (!turn.phoneVerified) {
      setCode('');
      setVerifyError(lastAgentText(turn));
    } else {
      setPhone('');
      setCode('');
    }
  };

  const verify = async (input: { phone: string } | { code: string }) => {
    if (!conversation || busy) return;
    const isPhone = 'phone' in input;
    const value = isPhone ? input.phone.trim() : input.code.trim();
    if (!value) {
      setVerifyError(isPhone ? texts.phoneRequired : texts.codeRequired);
      return;
    }
    setPendingText(isPhone ? `•••• ${value.replace(/\D/g, '').slice(-4)}` : '••••••');
    setVerifyError(null);
    let active = conversation;
    try {
      active = await ensureStarted(conversation);
      const turn = await publicChatApi.verify({
        conversationId: active.id,
        token: active.token,
        ...(isPhone ? { phone: value } : { code: value }),
      });
      applyTurn(turn);
      afterTurn(isPhone, turn);
    } catch (error) {
      console.error(error);
      setVerifyError(friendlyError(error, texts));
      if (error instanceof ApiRequestError && error.status === 409 && active.id) void resync(active);
    } finally {
      setPendingText(null);
    }
  };

  return { verifyError, setVerifyError, phone, setPhone, code, setCode, changingPhone, setChangingPhone, verify };
}
