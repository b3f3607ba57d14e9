import { Hono, type Context } from 'hono';
import { normalizePhone } from '../../../contract/candidates';
import { runAsOrganization, type Transaction } from '../../db/scoped';
import { systemDb } from '../../db/system';
import type { AppDeps, AppEnv } from '../../http/context';
import { errorBody } from '../../http/errors';
import { VOICE_TOOLS, type CallbackToolName, type VoiceToolName } from '../../integrations/voice/port';
import { recordAudit } from '../audit/audit';
import { candidatesWithPhone } from '../callbacks/queries';
import { queueCallbackJobs } from '../callbacks/service';
import { CallbackToolError, isCallbackTool, runCallbackTool, toolAction } from '../callbacks/tools';
import { findCandidate, updateCandidateRow } from '../candidates/queries';
import { systemFindNumberOwner } from '../phone-numbers/queries';
import { findVoiceAgent } from '../voice-agents/queries';
import { findCall, latestCallOfCandidate, updateCall, type CallRow } from './queries';
import {  } from './service';
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
      const wanted = language(args.language ?? args.switchLanguage);
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
 * Runs any agent tool in `tx`. `method` is the HTTP method of a direct call, or 'TOOL' inside a Vapi
 * tool-calls message; only the callback tools read it.
 */
export async function runAgentTool(tx: Transaction, name: VoiceToolName | CallbackToolName, method: string, args: Record<string, unknown>, call: CallRow | undefined, candidateId: string | null, organizationId: string): Promise<ToolOutcome> {
  if (!isCallbackTool(name)) return runTool(tx, name, args, call, candidateId);
  try {
    return { call, result: await runCallbackTool(tx, toolAction(name, method, args), organizationId, args, call) };
  } catch (error) {
    if (error instanceof CallbackToolError) throw new ToolError(error.message);
    throw error;
  }
}


/**
 * Which organization, call and candidate a direct tool request is about: ?callId=, ?candidateId= (their
 * latest call), or a phone number (candidatePhoneNumber / subjectPhoneNumber) narrowed by the agent's own
 * number (agentPhoneNumber: its owner in the phone-number registry). The endpoint has no session, so a phone number known in several organizations
 * without an agent number is refused rather than guessed.
 */
async function locateDirect(deps: AppDeps, params: Record<string, unknown>): Promise<{ organizationId: string; callId: string | null; candidateId: string | null } | { status: 404 | 409; message: string }> {
  const callId = text(params.callId);
  const candidateId = text(params.candidateId);
  if (callId) {
    const row = await findCall(systemDb(deps.db), callId);
    return row ? { organizationId: row.organizationId, callId: row.id, candidateId: row.candidateId } : { status: 404, message: 'No call with that callId' };
  }
  if (candidateId) {
    const latest = await latestCallOfCandidate(systemDb(deps.db), candidateId);
    if (latest) return { organizationId: latest.organizationId, callId: latest.id, candidateId: latest.candidateId };
    const person = await findCandidate(systemDb(deps.db), candidateId).catch(() => undefined);
    return person ? { organizationId: person.organizationId, callId: null, candidateId: person.id } : { status: 404, message: 'No candidate with that candidateId' };
  }
  const phone = normalizePhone(text(params.candidatePhoneNumber ?? params.subjectPhoneNumber ?? params.phoneNumber));
  if (!phone) return { status: 404, message: 'Give callId, candidateId or candidatePhoneNumber' };
  const agentPhone = normalizePhone(text(params.agentPhoneNumber));
  // The agent's own number names its organization through the phone-number registry (system path: no session).
  const owner = agentPhone ? await systemFindNumberOwner(systemDb(deps.db), agentPhone) : undefined;
  const agentOrganizationIds = agentPhone ? (owner ? [owner.organizationId] : []) : null;
  const people = (await candidatesWithPhone(systemDb(deps.db), phone)).filter((person) => !agentOrganizationIds || agentOrganizationIds.includes(person.organizationId));
  const organizations = new Set(people.map((person) => person.organizationId));
  if (organizations.size === 0) return { status: 404, message: 'No candidate with that phone number' };
  if (organizations.size > 1) return { status: 409, message: 'That phone number belongs to candidates of several organizations: give agentPhoneNumber or callId' };
  const latest = await latestCallOfCandidate(systemDb(deps.db), people[0].id);
  return { organizationId: people[0].organizationId, callId: latest?.id ?? null, candidateId: people[0].id };
}

/**
 * /api/functions/vapi/<name>, authenticated like the webhook. POST with a Vapi tool-calls body is handled by
 * the webhook's code (answer: { results: [{ toolCallId, result }] }); any other JSON body is the tool's
 * arguments for a direct call (answer { ok, tool, result }), located by locateDirect from the query string
 * and the body. The callback tools also answer GET (read) and DELETE (cancel), with their arguments in the
 * query string.
 */
async function directTool(c: Context<AppEnv>) {
  if (!vapiAuthorized(c)) return c.json(errorBody(401, 'Invalid or missing Vapi secret'), 401);
  const name = c.req.param('name') ?? '';
  const method = c.req.method.toUpperCase();
  if (!isAgentTool(name) || (method !== 'POST' && !isCallbackTool(name))) return c.json(errorBody(404, `No such tool: ${method} ${name}`), 404);
  let body: unknown = {};
  const raw = method === 'POST' ? await c.req.text() : '';
  if (raw.trim()) {
    try {
      body = JSON.parse(raw);
    } catch {
      return c.json(errorBody(400, 'The body is not JSON'), 400);
    }
  }
  const deps = c.get('deps');
  if (asRecord(asRecord(body).message).type === 'tool-calls') {
    const answer = await handleVapiMessage(deps, raw);
    return c.json(answer.body as object, answer.status as 200);
  }
  const args = { ...c.req.query(), ...asRecord(body) };
  const located = await locateDirect(deps, args);
  if ('status' in located) return c.json(errorBody(located.status, located.message), located.status);
  try {
    const outcome = await runAsOrganization(deps.db, located.organizationId, async (tx) => {
      const row = located.callId ? await findCall(tx, located.callId, true) : undefined;
      return runAgentTool(tx, name, method, args, row, located.candidateId, located.organizationId);
    });
    if (isCallbackTool(name)) await queueCallbackJobs(deps, located.organizationId);
    return c.json({ ok: true, tool: name, callId: outcome.call?.id ?? null, result: outcome.result }, 200);
  } catch (error) {
    if (error instanceof ToolError) return c.json({ ok: false, tool: name, error: error.message }, 400);
    throw error;
  }
}

export const vapiToolRoutes = new Hono<AppEnv>().post('/:name', directTool).get('/:name', directTool).delete('/:name', directTool);
