import { createHash, timingSafeEqual } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { normalizePhone } from '../../../contract/candidates';
import { runAsOrganization } from '../../db/scoped';
import { systemDb } from '../../db/system';
import type { AppDeps, AppEnv } from '../../http/context';
import { errorBody } from '../../http/errors';
import { candidatesWithPhone, queueCallbackJobs } from '../callbacks/service';
import { isCallbackTool } from '../callbacks/tools';
import { findCandidate } from '../candidates/service';
import { systemFindNumberOwner } from '../phone-numbers/service';
import { findCall, latestCallOfCandidate } from './queries';
import { isAgentTool, runAgentTool, ToolError } from './tools';
import { handleVapiMessage } from './webhook';

/**
 * Vapi's HTTP entries: the webhook (POST /api/inbound/vapi, handled by webhook.ts's handleVapiMessage) and the
 * direct tool endpoints (/api/functions/vapi/<name>, run by tools.ts). Routes only: tools.ts and webhook.ts
 * hold the logic and no longer import each other in a circle.
 */

const asRecord = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const text = (value: unknown) => (typeof value === 'string' ? value.trim() : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '');

/** The secret from X-Vapi-Secret or Authorization: Bearer, compared in constant time. No secret configured: accepted outside production only. */
export function vapiAuthorized(c: Context<AppEnv>): boolean {
  const { config } = c.get('deps');
  const secret = config.voice.vapiServerSecret;
  if (!secret) return !config.isProduction;
  const bearer = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
  const given = c.req.header('x-vapi-secret') ?? bearer;
  if (!given) return false;
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(secret));
}

/**
 * Which organization, call and candidate a direct tool request is about: ?callId=, ?candidateId= (their
 * latest call), or a phone number (candidatePhoneNumber / subjectPhoneNumber) narrowed by the agent's own
 * number (agentPhoneNumber: its owner in the phone-number registry). The endpoint has no session, so a phone number known in several organizations
 * without an agent number is refused rather than guessed.
 */
async function locateDirect(
  deps: AppDeps,
  params: Record<string, unknown>,
): Promise<{ organizationId: string; callId: string | null; candidateId: string | null } | { status: 404 | 409; message: string }> {
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
    return person
      ? { organizationId: person.organizationId, callId: null, candidateId: person.id }
      : { status: 404, message: 'No candidate with that candidateId' };
  }
  const phone = normalizePhone(text(params.candidatePhoneNumber ?? params.subjectPhoneNumber ?? params.phoneNumber));
  if (!phone) return { status: 404, message: 'Give callId, candidateId or candidatePhoneNumber' };
  const agentPhone = normalizePhone(text(params.agentPhoneNumber));
  // The agent's own number names its organization through the phone-number registry (system path: no session).
  const owner = agentPhone ? await systemFindNumberOwner(systemDb(deps.db), agentPhone) : undefined;
  const agentOrganizationIds = agentPhone ? (owner ? [owner.organizationId] : []) : null;
  const people = (await candidatesWithPhone(systemDb(deps.db), phone)).filter(
    (person) => !agentOrganizationIds || agentOrganizationIds.includes(person.organizationId),
  );
  const organizations = new Set(people.map((person) => person.organizationId));
  if (organizations.size === 0) return { status: 404, message: 'No candidate with that phone number' };
  if (organizations.size > 1)
    return { status: 409, message: 'That phone number belongs to candidates of several organizations: give agentPhoneNumber or callId' };
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

export const vapiWebhookRoutes = new Hono<AppEnv>().post('/', async (c) => {
  if (!vapiAuthorized(c)) return c.json(errorBody(401, 'Invalid or missing Vapi secret'), 401);
  const answer = await handleVapiMessage(c.get('deps'), await c.req.text());
  return c.json(answer.body as object, answer.status as 200);
});
