import { Hono } from 'hono';
import type { Transaction } from '../../db/scoped';
import type { AppEnv } from '../../http/context';
import { errorBody } from '../../http/errors';
import { VOICE_TOOLS, type VoiceToolName } from '../../integrations/voice/port';
import { recordAudit } from '../audit/audit';
import { findCandidate, updateCandidateRow } from '../candidates/queries';
import { findVoiceAgent } from '../voice-agents/queries';
import { findCall, latestCallOfCandidate, updateCall, type CallRow } from './queries';
import { asOrganization } from './service';
import { handleVapiMessage, vapiAuthorized } from './webhook';

/**
 * The voice agent's tools (POST /api/functions/vapi/<name>). Each changes our records and answers a short
 * sentence the agent may read; the webhook runs the same functions for Vapi's tool-calls messages.
 */

const asRecord = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
const text = (value: unknown) => (typeof value === 'string' ? value.trim() : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '');
const language = (value: unknown): 'en' | 'es' | null => {
  const raw = text(value).toLowerCase();
  if (['es', 'spanish', 'español', 'espanol'].includes(raw) || raw.startsWith('es-')) return 'es';
  if (['en', 'english', 'inglés', 'ingles'].includes(raw) || raw.startsWith('en-')) return 'en';
  return null;
};

export const isVoiceTool = (name: string): name is VoiceToolName => (VOICE_TOOLS as readonly string[]).includes(name);

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
export async function runTool(tx: Transaction, name: VoiceToolName, args: Record<string, unknown>, call: CallRow | undefined, candidateId: string | null): Promise<ToolOutcome> {
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
        const entries = key ? { [key]: args.value ?? null } : Object.fromEntries(Object.entries(args).filter(([field]) => !['callId', 'candidateId'].includes(field)));
        next.metadata = { ...asRecord(next.metadata), ...entries };
      }
      return { call: await updateCall(tx, row.id, { structuredData: next }), result: 'Recorded.' };
    }
    case 'set-sms-metadata': {
      const row = needCall();
      const next = data();
      const key = text(args.key);
      const entries = key ? { [key]: args.value ?? null } : Object.fromEntries(Object.entries(args).filter(([field]) => !['callId', 'candidateId'].includes(field)));
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
        await recordAudit(tx, { organizationId: candidateRow.organizationId, actorUserId: null, action: 'candidate.update', entityType: 'candidate', entityId: candidateRow.id, changes: { preferredLanguage: { from: candidateRow.preferredLanguage, to: wanted }, source: 'voice_agent' } });
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
      const wanted = language(args.language);
      if (!wanted) throw new ToolError('language must be en or es');
      const agent = row.voiceAgentId ? await findVoiceAgent(tx, row.voiceAgentId) : undefined;
      const updated = await updateCall(tx, row.id, { language: wanted });
      const greeting = agent ? (wanted === 'es' ? (agent.firstMessage.es ?? agent.firstMessage.en) : agent.firstMessage.en) : wanted === 'es' ? 'De acuerdo, continuemos en español.' : "Okay, let's continue in English.";
      return { call: updated, result: greeting };
    }
    case 'switch-transcriber-from-multi-to-current': {
      const row = needCall();
      const current = language(args.language) ?? (row.language === 'es' ? 'es' : 'en');
      return { call: await updateCall(tx, row.id, { structuredData: { ...data(), transcriberLanguage: current } }), result: `Transcriber set to ${current}.` };
    }
    case 'end-prescreen-chat': {
      const row = needCall();
      return { call: await updateCall(tx, row.id, { structuredData: { ...data(), prescreenComplete: true } }), result: 'Prescreen marked complete. Thank the person and end the call.' };
    }
  }
}

/** A tool could not do what was asked: answered to the agent as the tool's result, never a 500. */
export class ToolError extends Error {}


/**
 * POST /api/functions/vapi/<name>, authenticated like the webhook. A Vapi tool-calls body is handled by the
 * webhook's code (answer: { results: [{ toolCallId, result }] }); any other JSON body is the tool's arguments
 * for a direct call naming the call (?callId=) or the candidate (?candidateId=, their latest call): answer
 * { ok, tool, result }.
 */
export const vapiToolRoutes = new Hono<AppEnv>().post('/:name', async (c) => {
  if (!vapiAuthorized(c)) return c.json(errorBody(401, 'Invalid or missing Vapi secret'), 401);
  const name = c.req.param('name');
  if (!isVoiceTool(name)) return c.json(errorBody(404, `No such tool: ${name}`), 404);
  const raw = await c.req.text();
  let body: unknown = {};
  if (raw.trim()) {
    try {
      body = JSON.parse(raw);
    } catch {
      return c.json(errorBody(400, 'The body is not JSON'), 400);
    }
  }
  if (asRecord(asRecord(body).message).type === 'tool-calls') {
    const answer = await handleVapiMessage(c.get('deps'), raw);
    return c.json(answer.body as object, answer.status as 200);
  }
  const deps = c.get('deps');
  const args = asRecord(body);
  const callId = c.req.query('callId') ?? text(args.callId);
  const candidateId = c.req.query('candidateId') ?? text(args.candidateId);
  const located = callId ? await findCall(deps.db, callId) : candidateId ? await latestCallOfCandidate(deps.db, candidateId) : undefined;
  const candidateRow = !located && candidateId && name === 'update-preferred-language' ? await findCandidate(deps.db, candidateId).catch(() => undefined) : undefined;
  const organizationId = located?.organizationId ?? candidateRow?.organizationId;
  if (!organizationId) return c.json(errorBody(404, 'No call or candidate found: give ?callId= or ?candidateId='), 404);
  try {
    const outcome = await asOrganization(deps.db, organizationId, async (tx) => {
      const row = located ? await findCall(tx, located.id, true) : undefined;
      return runTool(tx, name, args, row, candidateRow?.id ?? null);
    });
    return c.json({ ok: true, tool: name, callId: outcome.call?.id ?? null, result: outcome.result }, 200);
  } catch (error) {
    if (error instanceof ToolError) return c.json({ ok: false, tool: name, error: error.message }, 400);
    throw error;
  }
});
