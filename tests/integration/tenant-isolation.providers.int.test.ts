import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../support/endpoints';
import { BASE_URL, createTestApp, type SignedUp, type TestApp } from '../support/test-app';

/**
 * Provider webhooks and agent tools take no session: a Twilio signature or the Vapi secret is their only
 * authentication. In production configuration every one of them refuses an unsigned request (and one with a
 * wrong signature or secret, or only another organization's session cookie) with 401/403 and changes nothing,
 * even when the request names organization A's candidate. Every 'provider' operation of the inventory is probed.
 */

let t: TestApp;
let a: SignedUp;
let b: SignedUp;
let aCandidateId: string;
const aPhone = '+12125550144';

async function snapshot() {
  const rows = (await t.deps.db.execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not in ('rate_limit', 'request_throttle', 'session') order by table_name`,
  )) as unknown as { rows: Array<{ table_name: string }> };
  const query = rows.rows
    .map(({ table_name: table }) => `select '${table}' as t, count(*)::text || ':' || coalesce(sum(hashtext(x::text)::bigint), 0)::text as v from "${table}" x`)
    .join(' union all ');
  return ((await t.deps.db.execute(sql.raw(query))) as unknown as { rows: Array<{ t: string; v: string }> }).rows;
}

beforeAll(async () => {
  // Production, with provider secrets configured: signatures are checked, nothing is waved through.
  t = await createTestApp({ NODE_ENV: 'production', TWILIO_AUTH_TOKEN: 'twilio-auth-token-for-tests', VAPI_SERVER_SECRET: 'vapi-server-secret-for-tests' });
  a = await t.signUp({ organizationName: 'Tenant A Research' });
  b = await t.signUp({ organizationName: 'Tenant B Research' });
  aCandidateId = (await a.actor.post('/api/candidates/', { firstName: 'Alice', phone: aPhone, consent: { sms: true } })).body.id;
});
afterAll(() => t?.close());

/** A request a provider would send about A's candidate, with `headers` as its only credentials. */
function providerRequest(operation: string, headers: Record<string, string>) {
  const [method, path] = operation.split(' ');
  const base = { origin: BASE_URL, 'x-forwarded-for': '10.88.0.1', ...headers };
  if (path.startsWith('/api/inbound') && path !== '/api/inbound/vapi') {
    const form = new URLSearchParams({
      From: aPhone,
      To: '+12125550100',
      Body: 'STOP',
      MessageSid: 'SM00000000000000000000000000000001',
      MessageStatus: 'failed',
      CallSid: 'CA00000000000000000000000000000001',
    });
    return t.app.request(path, { method, headers: { ...base, 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
  }
  if (path === '/api/inbound/vapi') {
    const message = {
      message: {
        type: 'tool-calls',
        toolCallList: [{ id: 'tc1', function: { name: 'update-preferred-language', arguments: { candidateId: aCandidateId, language: 'es' } } }],
      },
    };
    return t.app.request(path, { method, headers: { ...base, 'content-type': 'application/json' }, body: JSON.stringify(message) });
  }
  const query = `?candidateId=${aCandidateId}&candidatePhoneNumber=${encodeURIComponent(aPhone)}`;
  if (method !== 'POST') return t.app.request(`${path}${query}`, { method, headers: base });
  const args = { candidateId: aCandidateId, candidatePhoneNumber: aPhone, language: 'es', status: 'not_interested', inMinutes: 30 };
  return t.app.request(`${path}${query}`, { method, headers: { ...base, 'content-type': 'application/json' }, body: JSON.stringify(args) });
}

const providerOperations = Object.entries(ENDPOINTS)
  .filter(([, kind]) => kind === 'provider')
  .map(([operation]) => operation);

describe('provider webhooks and agent tools refuse unsigned requests in production', () => {
  it('covers the webhooks and the tools', () => {
    expect(providerOperations).toEqual(
      expect.arrayContaining([
        'POST /api/inbound/vapi',
        'POST /api/inbound/sms',
        'POST /api/inbound/sms/status',
        'POST /api/inbound',
        'POST /api/functions/vapi/schedule-callback',
        'DELETE /api/functions/vapi/scheduled-callback',
      ]),
    );
  });

  const credentials: Array<[string, () => Record<string, string>]> = [
    ['no signature or secret', () => ({})],
    [
      'a wrong signature or secret',
      () => ({ 'x-twilio-signature': 'bm90IGEgc2lnbmF0dXJl', 'x-vapi-secret': 'not-the-secret', authorization: 'Bearer not-the-secret' }),
    ],
    ["only organization B's session", () => ({ cookie: b.actor.cookie })],
  ];
  for (const operation of providerOperations) {
    for (const [label, headers] of credentials) {
      it(`${operation} with ${label}: 401/403, nothing changed`, async () => {
        const before = await snapshot();
        const answer = await providerRequest(operation, headers());
        expect([401, 403]).toContain(answer.status);
        expect(await snapshot()).toEqual(before);
      });
    }
  }
});
