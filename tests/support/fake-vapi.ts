import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeVapiRequest {
  method: string;
  path: string;
  body: any;
}

/**
 * A local stand-in for api.vapi.ai: Bearer API key; POST /assistant and PATCH /assistant/{id} (answer the
 * assistant with its id), POST /call (answers { id, status: 'queued' }; with phoneCallProviderBypassEnabled also
 * phoneCallProviderDetails.twiml, as for an inbound call Twilio carries), GET /call/{id} (the call as stored:
 * tests move it on with endCall), DELETE /call/{id}, GET /phone-number (the account's `phoneNumbers`, E.164,
 * as [{ id, number, provider }]). Checks the fields we rely on and answers Vapi-like 400/401/404 otherwise.
 */
export async function startFakeVapi(options: { apiKey: string; phoneNumbers?: string[] }) {
  const received: FakeVapiRequest[] = [];
  const phoneNumbers = new Set(options.phoneNumbers ?? []);
  const assistants = new Map<string, any>();
  const calls = new Map<string, any>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.headers.authorization !== `Bearer ${options.apiKey}`)
        return answer(401, {
          message: 'Invalid Key. Hot tip, you may be using the private key instead of the public key, or vice versa.',
          error: 'Unauthorized',
          statusCode: 401,
        });
      const text = Buffer.concat(chunks).toString('utf8');
      let body: any = null;
      if (text) {
        try {
          body = JSON.parse(text);
        } catch {
          return answer(400, { message: ['body must be JSON'], error: 'Bad Request', statusCode: 400 });
        }
      }
      const path = req.url ?? '';
      received.push({ method: req.method ?? '', path, body });
      if (req.method === 'GET' && (path === '/phone-number' || path.startsWith('/phone-number?'))) {
        return answer(
          200,
          [...phoneNumbers].map((number) => ({
            id: `pn_${number.slice(1)}`,
            orgId: 'org_fake',
            number,
            provider: 'twilio',
            createdAt: new Date().toISOString(),
          })),
        );
      }
      if (req.method === 'POST' && path === '/assistant') {
        if (!body?.name || !body?.server?.url || !Array.isArray(body?.model?.tools))
          return answer(400, { message: ['name, server.url and model.tools are required'], error: 'Bad Request', statusCode: 400 });
        const id = `asst_${randomBytes(6).toString('hex')}`;
        assistants.set(id, body);
        return answer(201, { id, orgId: 'org_fake', ...body });
      }
      const assistantMatch = /^\/assistant\/([^/]+)$/.exec(path);
      if (req.method === 'PATCH' && assistantMatch) {
        if (!assistants.has(assistantMatch[1])) return answer(404, { message: "Couldn't Find Assistant", error: 'Not Found', statusCode: 404 });
        assistants.set(assistantMatch[1], { ...assistants.get(assistantMatch[1]), ...body });
        return answer(200, { id: assistantMatch[1], ...assistants.get(assistantMatch[1]) });
      }
      if (req.method === 'POST' && path === '/call') {
        // Inbound calls carried by Twilio (phone call provider bypass): the customer is optional (withheld numbers).
        const bypass = body?.phoneCallProviderBypassEnabled === true;
        const customerOk = /^\+\d{8,15}$/.test(body?.customer?.number ?? '') || (bypass && body?.customer === undefined);
        if (!body?.assistantId || !body?.phoneNumberId || !customerOk)
          return answer(400, { message: ['assistantId, phoneNumberId and customer.number are required'], error: 'Bad Request', statusCode: 400 });
        const id = `call_${randomBytes(6).toString('hex')}`;
        const created = {
          id,
          orgId: 'org_fake',
          status: 'queued',
          type: bypass ? 'inboundPhoneCall' : 'outboundPhoneCall',
          assistantId: body.assistantId,
          phoneNumberId: body.phoneNumberId,
          metadata: body.metadata,
          createdAt: new Date().toISOString(),
          ...(bypass
            ? {
                phoneCallProviderBypassEnabled: true,
                phoneCallProviderDetails: {
                  twiml: `<?xml version="1.0" encoding="UTF-8"?><Response><Connect><Stream url="wss://phone-call-websocket.fake.vapi.ai/${id}/transport"/></Connect></Response>`,
                },
              }
            : {}),
        };
        calls.set(id, { ...created, request: body });
        return answer(201, created);
      }
      const callMatch = /^\/call\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && callMatch) {
        const found = calls.get(callMatch[1]);
        if (!found) return answer(404, { message: 'Call not found', error: 'Not Found', statusCode: 404 });
        const { request: _request, ...call } = found;
        return answer(200, call);
      }
      if (req.method === 'DELETE' && callMatch) {
        if (!calls.delete(callMatch[1])) return answer(404, { message: 'Call not found', error: 'Not Found', statusCode: 404 });
        return answer(200, { id: callMatch[1] });
      }
      answer(404, { message: `Cannot ${req.method} ${path}`, error: 'Not Found', statusCode: 404 });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    received,
    phoneNumbers,
    assistants,
    calls,
    /** What Vapi would say about the call once it ended (GET /call/{id} answers it from then on). */
    endCall(id: string, ended: Record<string, unknown>) {
      const found = calls.get(id);
      if (!found) throw new Error(`fake Vapi has no call ${id}`);
      calls.set(id, { ...found, status: 'ended', ...ended });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type FakeVapi = Awaited<ReturnType<typeof startFakeVapi>>;
