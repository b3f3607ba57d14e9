import type { AppDeps } from '../../http/context';
import type { Transaction } from '../../db/scoped';
import type { Language } from '../../../contract/prescreen-forms';
import type { PrescreenActor } from '../prescreen/service';
import type { DialogueContext } from './dialogue';
import type { AgentRow, ConversationRow } from './queries';

/** The agent's published form and its trial, as one chat turn needs them. */
export interface Loaded {
  ctx: DialogueContext;
  formId: string;
  trialId: string;
}

/** One turn of a visitor's chat: the locked conversation, its agent and form, in the organization's transaction. */
export interface TurnContext {
  deps: AppDeps;
  tx: Transaction;
  conversation: ConversationRow;
  agent: AgentRow;
  loaded: Loaded;
  /** With the SMS simulator only: the text just "sent" (the code), for the page to show as a simulation. */
  simulatedText?: string;
}

/** Who the chat's own writes (contact events, prescreen results) are by. */
export const CHAT_ACTOR: PrescreenActor = { userId: null, label: 'Chat agent' };

export const languageOf = (row: ConversationRow): Language => (row.language === 'es' ? 'es' : 'en');
