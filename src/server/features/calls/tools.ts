import type { Transaction } from '../../db/scoped';
import { VOICE_TOOLS, type CallbackToolName, type VoiceToolName } from '../../integrations/voice/port';
import { recordAudit, rowChange } from '../../audit';
import { CallbackToolError, isCallbackTool, runCallbackTool, toolAction } from '../callbacks/tools';
import { findCandidate, updateCandidateRow } from '../candidates/service';
import { findVoiceAgent } from '../voice-agents/service';
import { updateCall, type CallRow } from './queries';

/**
 * The voice agent's tools (POST /api/functions/vapi/<name>). Each changes our records and answers a short
 * sentence the agent may read; the webhook runs the same functions for Vapi's tool-calls messages.
 */

const asRecord = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const text = (value: unknown) => (typeof value === 'string' ? value.trim() : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '');
const language = (value: unknown): 'en' | 'es' | null => {
  const raw = text(value).toLowerCase();
  if (['es', 'spanish', 'español', 'espanol'].includes(raw) || raw.startsWith('es-')) return 'es';
  if (['en', 'english', 'inglés', 'ingles'].includes(raw) || raw.startsWith('en-')) return 'en';
  return null;
};

export const isVoiceTool = (name: string): name is VoiceToolName => (VOICE_TOOLS as readonly string[]).includes(name);
/** Every tool the agent may call: the call tools here and the callback tools (features/callbacks/tools.ts). */
export const isAgentTool = (name: string): name is VoiceToolName | CallbackToolName => isVoiceTool(name) || isCallbackTool(name);

export interface ToolOutcome {
  call: CallRow | undefined;
  result: string;
}

/** Tool arguments arrive as an object, or as a JSON string (some providers). */
export function toolArguments(raw: unknown): Record<string, unknown> {
  if (typeof raw === 'string') {
    try {
      return asRecord(JSON.parse(raw));
    } catch {
      return {};
    }
  }
  return asRecord(raw);
}

/**
 * Runs one tool in `tx` (row security for the call's organization). `call` is the locked call row, or
 * undefined for a direct call that named only a candidate (update-preferred-language needs no call).
 */
export async function runTool(
  tx: Transaction,
  name: VoiceToolName,
  args: Record<string, unknown>,
  call: CallRow | undefined,
  candidateId: string | null,
): Promise<ToolOutcome> {
  const data = () => ({ ...(call?.structuredData ?? {}) });
  const needCall = () => {
    if (!call) throw new ToolError('No call to record this on');
    return call;
  };
  switch (name) {
    case 'set-call-metadata': {
      const row = needCall();
      const next = data();
      const questionId = text(args.questionId);
      if (questionId) {
        next.answers = { ...asRecord(next.answers), [questionId]: args.answer ?? args.value ?? null };
      } else {
        const key = text(args.key);
        const entries = key
          ? { [key]: args.value ?? null }
          : Object.fromEntries(Object.entries(args).filter(([field]) => !['callId', 'candidateId'].includes(field)));
        next.metadata = { ...asRecord(next.metadata), ...entries };
      }
      return { call: await updateCall(tx, row.id, { structuredData: next }), result: 'Recorded.' };
    }
    case 'set-sms-metadata': {
      const row = needCall();
      const next = data();
      const key = text(args.key);
      const entries = key
        ? { [key]: args.value ?? null }
        : Object.fromEntries(Object.entries(args).filter(([field]) => !['callId', 'candidateId'].includes(field)));
      next.sms = { ...asRecord(next.sms), ...entries };
      return { call: await updateCall(tx, row.id, { structuredData: next }), result: 'Recorded.' };
    }
    case 'update-preferred-language': {
      const wanted = language(args.language ?? args.preferredLanguage);
      if (!wanted) throw new ToolError('language must be en or es');
      const id = call?.candidateId ?? candidateId;
      const candidateRow = id ? await findCandidate(tx, id, true) : undefined;
      if (!candidateRow) throw new ToolError('No candidate to update');
      if (candidateRow.preferredLanguage !== wanted) {
        await updateCandidateRow(tx, candidateRow.id, { preferredLanguage: wanted });
        await recordAudit(
          tx,
          rowChange(null, candidateRow, 'candidate.update', 'candidate', {
            preferredLanguage: { from: candidateRow.preferredLanguage, to: wanted },
            source: 'voice_agent',
          }),
        );
      }
      return { call, result: `Preferred language set to ${wanted}.` };
    }
    case 'mark-exit-status': {
      const row = needCall();
      const exitStatus = text(args.exitStatus ?? args.status ?? args.exit_status);
      if (!exitStatus) throw new ToolError('exitStatus is required');
      const next = { ...data(), exitStatus, ...(text(args.reason) ? { exitReason: text(args.reason) } : {}) };
      return { call: await updateCall(tx, row.id, { structuredData: next }), result: 'Exit status recorded.' };
    }
    case 'switch-language': {
      const row = needCall();
      const wanted = language(args.language ?? args.switchLanguage);
      if (!wanted) throw new ToolError('language must be en or es');
      const agent = row.voiceAgentId ? await findVoiceAgent(tx, row.voiceAgentId) : undefined;
      const updated = await updateCall(tx, row.id, { language: wanted });
      const greeting = agent
        ? wanted === 'es'
          ? (agent.firstMessage.es ?? agent.firstMessage.en)
          : agent.firstMessage.en
        : wanted === 'es'
          ? 'De acuerdo, continuemos en español.'
          : "Okay, let's continue in English.";
      return { call: updated, result: greeting };
    }
    case 'switch-transcriber-from-multi-to-current': {
      const row = needCall();
      const current = language(args.language) ?? (row.language === 'es' ? 'es' : 'en');
      return { call: await updateCall(tx, row.id, { structuredData: { ...data(), transcriberLanguage: current } }), result: `Transcriber set to ${current}.` };
    }
    case 'end-prescreen-chat': {
      const row = needCall();
      return {
        call: await updateCall(tx, row.id, { structuredData: { ...data(), prescreenComplete: true } }),
        result: 'Prescreen marked complete. Thank the person and end the call.',
      };
    }
  }
}

/** A tool could not do what was asked: answered to the agent as the tool's result, never a 500. */
export class ToolError extends Error {}

/**
 * Runs any agent tool in `tx`. `method` is the HTTP method of a direct call, or 'TOOL' inside a Vapi
 * tool-calls message; only the callback tools read it.
 */
export async function runAgentTool(
  tx: Transaction,
  name: VoiceToolName | CallbackToolName,
  method: string,
  args: Record<string, unknown>,
  call: CallRow | undefined,
  candidateId: string | null,
  organizationId: string,
): Promise<ToolOutcome> {
  if (!isCallbackTool(name)) return runTool(tx, name, args, call, candidateId);
  try {
    return { call, result: await runCallbackTool(tx, toolAction(name, method, args), organizationId, args, call) };
  } catch (error) {
    if (error instanceof CallbackToolError) throw new ToolError(error.message);
    throw error;
  }
}
