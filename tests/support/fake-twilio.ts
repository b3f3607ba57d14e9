import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeTwilioRequest {
  accountSid: string;
  params: Record<string, string>;
}

/**
 * A local stand-in for api.twilio.com: POST /2010-04-01/Accounts/{AccountSid}/Messages.json with Basic auth
 * (AccountSid:AuthToken) and form fields To, From or MessagingServiceSid, Body; answers 201 with JSON like
 * Twilio's ({ sid: 'SM…', status: 'queued', … }) or Twilio-shaped errors (401 20003, 400 21211/21604/21610).
 * GET /2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers.json?PhoneNumber=… lists the account's numbers
 * (`incomingNumbers`, E.164) matching it, as Twilio's paged list ({ incoming_phone_numbers: [{ sid, phone_number }] }).
 */
export async function startFakeTwilio(options: { accountSid: string; authToken: string; incomingNumbers?: string[] }) {
  const received: FakeTwilioRequest[] = [];
  const incomingNumbers = new Set(options.incomingNumbers ?? []);
  const numberLookups: string[] = [];
  /** Numbers that answer 21610 (the recipient replied STOP), as Twilio does. */
  const optedOut = new Set<string>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const expectedAuth = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;
      const url = new URL(req.url ?? '/', 'http://fake-twilio');
      const numbers = /^\/2010-04-01\/Accounts\/([^/]+)\/IncomingPhoneNumbers\.json$/.exec(url.pathname);
      if (req.method === 'GET' && numbers) {
        if (req.headers.authorization !== expectedAuth || numbers[1] !== options.accountSid)
          return answer(401, { code: 20003, message: 'Authenticate', status: 401 });
        const wanted = url.searchParams.get('PhoneNumber');
        if (wanted) numberLookups.push(wanted);
        const list = [...incomingNumbers].filter((number) => !wanted || number === wanted);
        return answer(200, {
          incoming_phone_numbers: list.map((number) => ({
            sid: `PN${Buffer.from(number).toString('hex').padEnd(32, '0').slice(0, 32)}`,
            account_sid: options.accountSid,
            phone_number: number,
            friendly_name: number,
          })),
          page: 0,
          page_size: 50,
          next_page_uri: null,
        });
      }
      const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(req.url ?? '');
      if (req.method !== 'POST' || !match) return answer(404, { code: 20404, message: 'The requested resource was not found', status: 404 });
      const expected = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;
      if (req.headers.authorization !== expected || match[1] !== options.accountSid) {
        return answer(401, { code: 20003, message: 'Authenticate', status: 401 });
      }
      if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded'))
        return answer(400, { code: 20001, message: 'Bad content type', status: 400 });
      const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      received.push({ accountSid: match[1], params });
      if (!params.To || !/^\+\d{8,15}$/.test(params.To))
        return answer(400, { code: 21211, message: "The 'To' number is not a valid phone number.", status: 400 });
      if (!params.From && !params.MessagingServiceSid)
        return answer(400, { code: 21603, message: "A 'From' or 'MessagingServiceSid' parameter is required", status: 400 });
      if (!params.Body) return answer(400, { code: 21602, message: 'Message body is required.', status: 400 });
      if (optedOut.has(params.To)) return answer(400, { code: 21610, message: 'Attempt to send to unsubscribed recipient', status: 400 });
      const sid = `SM${randomBytes(16).toString('hex')}`;
      answer(201, {
        sid,
        account_sid: options.accountSid,
        to: params.To,
        from: params.From ?? null,
        messaging_service_sid: params.MessagingServiceSid ?? null,
        body: params.Body,
        status: 'queued',
        num_segments: '1',
        direction: 'outbound-api',
        date_created: new Date().toUTCString(),
        error_code: null,
        error_message: null,
        uri: `/2010-04-01/Accounts/${options.accountSid}/Messages/${sid}.json`,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    received,
    optedOut,
    incomingNumbers,
    /** The PhoneNumber each IncomingPhoneNumbers lookup asked for. */
    numberLookups,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type FakeTwilio = Awaited<ReturnType<typeof startFakeTwilio>>;
