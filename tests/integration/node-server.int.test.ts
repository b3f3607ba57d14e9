import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerType } from '@hono/node-server';
import { listenApp } from '../../src/server/http/listen';
import { BASE_URL, createTestApp, type SignedUp, type TestApp } from '../support/test-app';

// The app as `npm start` serves it: @hono/node-server's light requests and responses over a real socket, which the
// in-process `app.request` of the other tests never builds (decision 116).
let t: TestApp;
let site: SignedUp;
let server: ServerType;
let base = '';

beforeAll(async () => {
  t = await createTestApp();
  site = await t.signUp();
  await new Promise<void>((resolve) => {
    server = listenApp(t.app.fetch, t.database, { port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
      base = `http://127.0.0.1:${info.port}`;
      resolve();
    });
  });
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
});

const send = (method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) =>
  fetch(`${base}${path}`, {
    method,
    body: init.body,
    headers: {
      accept: 'application/json',
      origin: BASE_URL,
      cookie: site.actor.cookie,
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    },
  });

describe('The app over a real socket (@hono/node-server)', () => {
  it('creates candidates from request bodies and lists them, with the session expiry and security headers on every answer', async () => {
    for (let i = 0; i < 12; i++) {
      const created = await send('POST', '/api/candidates', {
        body: JSON.stringify({ firstName: `Rosa${i}`, lastName: 'Quintero', phone: `+1212555${String(2000 + i)}`, sex: 'female' }),
      });
      expect(created.status).toBe(201);
      expect(created.headers.get('x-session-expires-at')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    }
    const list = await send('GET', '/api/candidates?limit=50');
    expect(list.status).toBe(200);
    expect(Date.parse(list.headers.get('x-session-expires-at')!)).toBeGreaterThan(Date.now());
    expect(list.headers.get('x-content-type-options')).toBe('nosniff');
    expect(list.headers.get('vary')).toMatch(/accept-encoding/i);
    const page = await list.json();
    expect(page.candidates.map((item: { firstName: string }) => item.firstName).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `Rosa${i}`).sort());
    expect(page.total).toBe(12);

    const byPhone = await send('GET', `/api/candidates?search=${encodeURIComponent('(212) 555-2003')}`);
    expect((await byPhone.json()).candidates.map((item: { firstName: string }) => item.firstName)).toEqual(['Rosa3']);
  });

  it('compresses the list for a client that accepts gzip, and the text decodes to the same page', async () => {
    const plain = await (await send('GET', '/api/candidates?limit=50')).text();
    const gzipped = await send('GET', '/api/candidates?limit=50', { headers: { 'accept-encoding': 'gzip' } });
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(Number(gzipped.headers.get('content-length'))).toBeLessThan(plain.length);
    expect(gzipped.headers.get('x-session-expires-at')).not.toBeNull();
    expect(await gzipped.json()).toEqual(JSON.parse(plain));
  });

  it('still refuses an oversized body (413) and a NUL in a body (400), while a signed-out GET is a 401 without a session header', async () => {
    const signedOut = await fetch(`${base}/api/candidates`, { headers: { accept: 'application/json' } });
    expect(signedOut.status).toBe(401);
    expect(signedOut.headers.get('x-session-expires-at')).toBeNull();

    // The server closes a connection whose body it refused unread; the client opens another for the next request.
    const huge = await send('POST', '/api/candidates', { body: JSON.stringify({ firstName: 'x'.repeat(1.2 * 1024 * 1024) }) });
    expect(huge.status).toBe(413);
    expect((await huge.json()).error.message).toMatch(/larger than 1 MB/);

    const nul = await send('POST', '/api/candidates', { body: JSON.stringify({ firstName: 'Ro\u0000sa', lastName: 'Q', phone: '+12125559999' }) });
    expect(nul.status).toBe(400);
    expect((await nul.json()).error.details).toEqual([{ path: 'firstName', message: expect.stringContaining('NUL') }]);
  });
});
