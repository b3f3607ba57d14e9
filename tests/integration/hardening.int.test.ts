import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candidate } from '../../src/server/db/schema';
import { BODY_LIMITS } from '../../src/server/http/body-limit';
import { BASE_URL, createTestApp, type SignedUp, type TestApp } from '../support/test-app';

/**
 * Issue 14: request bodies are limited before they are read (413 in the error shape, with or without
 * Content-Length), and bad input is a 400 naming the field, or a 404 for a malformed path id, never a 500.
 */

let t: TestApp;
let site: SignedUp;
let server: ServerType;
let port: number;

beforeAll(async () => {
  t = await createTestApp();
  site = await t.signUp({ organizationName: 'Hardening Research' });
  server = serve({ fetch: t.app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await t?.close();
});

/**
 * Sends `bytes` bytes of a JSON-looking body over a real socket, one reused 64 KB chunk at a time (never held
 * whole), chunked unless `contentLength` is set; stops sending once the server has answered.
 */
function sendLargeBody(path: string, bytes: number, options: { contentLength?: boolean; cookie?: string; contentType?: string } = {}) {
  return new Promise<{ status: number; body: any; sentBytes: number }>((resolve, reject) => {
    const headers: Record<string, string | number> = { 'content-type': options.contentType ?? 'application/json', origin: BASE_URL };
    if (options.contentLength) headers['content-length'] = bytes + '{"data":""}'.length;
    if (options.cookie) headers.cookie = options.cookie;
    const request = http.request({ host: '127.0.0.1', port, method: 'POST', path, headers, agent: false });
    let answered = false;
    let sentBytes = 0;
    request.on('response', (response) => {
      answered = true;
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON
        }
        resolve({ status: response.statusCode ?? 0, body, sentBytes });
        request.destroy();
      });
    });
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    (async () => {
      request.write('{"data":"');
      while (sentBytes < bytes && !answered && !request.destroyed) {
        const part = bytes - sentBytes < chunk.length ? chunk.subarray(0, bytes - sentBytes) : chunk;
        sentBytes += part.length;
        if (!request.write(part)) await new Promise((resolve) => request.once('drain', resolve));
      }
      if (!answered && !request.destroyed) request.end('"}');
    })().catch(() => undefined);
  });
}

describe('request body limits', () => {
  it('refuses a chunked body over 1 MB to a public endpoint with 413 in the error shape, before reading it all', async () => {
    const answer = await sendLargeBody('/api/chat-conversations/initiate', 300 * 1024 * 1024);
    expect(answer.status).toBe(413);
    expect(answer.body.error).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: expect.stringContaining('1 MB') });
    // Refused on the way in: far less than the 300 MB offered was ever sent.
    expect(answer.sentBytes).toBeLessThan(64 * 1024 * 1024);
  });

  it('refuses a declared Content-Length over the limit at once', async () => {
    const answer = await sendLargeBody('/api/candidates/', 2 * 1024 * 1024, { contentLength: true, cookie: site.actor.cookie });
    expect(answer.status).toBe(413);
    expect(answer.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('lets an import body past 1 MB through to the import, and refuses one past the import maximum', async () => {
    const withinImport = await sendLargeBody('/api/candidates/bulk/preview', 3 * 1024 * 1024, { cookie: site.actor.cookie });
    expect(withinImport.status).toBe(400); // judged by the import's validation (no format), not refused for its size
    expect(withinImport.body.error.code).toBe('VALIDATION_FAILED');
    const overImport = await sendLargeBody('/api/candidates/bulk', BODY_LIMITS.import + 1024, { cookie: site.actor.cookie });
    expect(overImport.status).toBe(413);
    expect(overImport.body.error.message).toContain('50 MB');
  });

  it('keeps provider webhooks small', async () => {
    const answer = await sendLargeBody('/api/inbound/sms', BODY_LIMITS.twilio + 1, { contentType: 'application/x-www-form-urlencoded' });
    expect(answer.status).toBe(413);
    expect(answer.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('documents the limits in the OpenAPI description of the import', async () => {
    const doc = await t.actor().get('/api/openapi.json');
    expect(doc.body.paths['/api/candidates/bulk'].post.description).toContain('50 MB');
  });
});

describe('bad input is a 400 naming the field, or a 404 for a malformed path id', () => {
  it('the public organization lookup with a NUL byte is a 404', async () => {
    const answer = await t.actor().get('/api/organizations/public/a%00b');
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('NOT_FOUND');
  });

  it('a public chat start with a NUL byte in organizationId is a 400 naming it', async () => {
    const answer = await t.actor().post('/api/chat-conversations/initiate', { organizationId: 'a\u0000b' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details).toEqual([{ path: 'organizationId', message: expect.stringContaining('NUL') }]);
  });

  it('a NUL byte in a staff form field is a 400 naming it, and nothing is stored', async () => {
    const answer = await site.actor.post('/api/candidates/', { firstName: 'Ann\u0000', lastName: 'Lee', phone: '+12125550111' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain('firstName');
    expect(await t.deps.db.select().from(candidate).where(eq(candidate.organizationId, site.organizationId))).toEqual([]);
  });

  it('non-UUID ids in list filters are a 400 naming the filter', async () => {
    for (const path of [
      '/api/sms/threads?candidateId=not-a-uuid',
      '/api/sms/simulator/outbox?candidateId=123',
      '/api/calls?candidateId=x',
      '/api/callbacks?candidateId=1',
      '/api/chat-conversations?chatAgentId=abc',
      '/api/prescreen-forms?trialId=abc',
      '/api/candidates?organizationId=abc',
    ]) {
      const answer = await site.actor.get(path);
      expect(answer.status, path).toBe(400);
      const field = new URL(path, BASE_URL).searchParams.keys().next().value!;
      expect(answer.body.error.details?.[0]?.path, path).toBe(field);
    }
  });

  it('a malformed id in the path is a 404', async () => {
    for (const path of ['/api/candidates/not-a-uuid', '/api/trials/123', '/api/sms/threads/%E2%9C%93', '/api/calls/a%07b']) {
      expect((await site.actor.get(path)).status, path).toBe(404);
    }
  });

  it('JSON nested deeper than any form is a 400, not a crash', async () => {
    const deep = `${'{"a":'.repeat(5000)}"\\u0041"${'}'.repeat(5000)}`;
    const answer = await site.actor.request('POST', '/api/candidates/', undefined, { 'content-type': 'application/json' });
    expect(answer.status).toBe(400);
    const response = await t.app.request('/api/candidates/', {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: site.actor.cookie, origin: BASE_URL },
      body: deep,
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toContain('nested');
  });

  it("an email link's unusable callbackURL is a 400 naming it, not better-auth's 500", async () => {
    const answer = await t.actor().get('/api/auth/verify-email?token=abc&callbackURL=123');
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain('callbackURL');
  });
});
