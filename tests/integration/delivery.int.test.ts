import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/server/app';
import { chooseEncoding } from '../../src/server/http/compress';
import { createTestApp, type TestApp } from '../support/test-app';

// A stand-in for dist/web: an app shell and one fingerprinted chunk, large enough to be worth compressing.
const script = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `candidate status ${i}`))};\n`;
const shell = `<!doctype html><html><head><script type="module" src="/assets/index-AbC123.js"></script></head><body><div id="root"></div>${'<!-- padding -->'.repeat(100)}</body></html>`;

let t: TestApp;
let web: App;
let dist: string;
beforeAll(async () => {
  t = await createTestApp();
  dist = mkdtempSync(path.join(tmpdir(), 'cohortly-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), shell);
  writeFileSync(path.join(dist, 'assets', 'index-AbC123.js'), script);
  web = createApp(t.deps, { webDist: dist });
});
afterAll(async () => {
  rmSync(dist, { recursive: true, force: true });
  await t?.close();
});

async function bytes(response: Response) {
  return Buffer.from(await response.arrayBuffer());
}

describe('Delivery: compression and caching', () => {
  it('serves fingerprinted assets brotli-compressed and cacheable for a year', async () => {
    const response = await web.request('/assets/index-AbC123.js', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('vary')).toMatch(/accept-encoding/i);
    const body = await bytes(response);
    expect(body.byteLength).toBeLessThan(script.length / 3);
    expect(brotliDecompressSync(body).toString()).toBe(script);
    // The second request is answered from the kept compressed bytes, identically.
    const again = await web.request('/assets/index-AbC123.js', { headers: { 'accept-encoding': 'br' } });
    expect(brotliDecompressSync(await bytes(again)).toString()).toBe(script);
  });

  it('falls back to gzip for clients without brotli, and to plain bytes for clients without either', async () => {
    const gz = await web.request('/assets/index-AbC123.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(await bytes(gz)).toString()).toBe(script);
    const plain = await web.request('/assets/index-AbC123.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(script);
  });

  it('serves index.html and the SPA fallback with no-cache, compressed', async () => {
    for (const url of ['/', '/candidates/123', '/index.html']) {
      const response = await web.request(url, { headers: { 'accept-encoding': 'gzip, br' } });
      expect(response.status, url).toBe(200);
      expect(response.headers.get('cache-control'), url).toBe('no-cache');
      expect(response.headers.get('content-encoding'), url).toBe('br');
      expect(brotliDecompressSync(await bytes(response)).toString(), url).toContain('<div id="root">');
    }
  });

  it('answers a missing asset with 404, not the app shell', async () => {
    const response = await web.request('/assets/index-Old999.js');
    expect(response.status).toBe(404);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.text()).not.toContain('<div id="root">');
  });

  it('compresses API JSON for a client that accepts it', async () => {
    const admin = await t.signInAdmin();
    const plain = await admin.get('/api/openapi.json');
    const answer = await admin.request('GET', '/api/openapi.json', undefined, { 'accept-encoding': 'gzip, deflate, br' });
    expect(answer.headers.get('content-encoding')).toBe('br');
    expect(Number(answer.headers.get('content-length'))).toBeLessThan(JSON.stringify(plain.body).length / 4);
    const gz = await admin.request('GET', '/api/openapi.json', undefined, { 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
  });

  it('chooses the encoding the client prefers', () => {
    expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('gzip;q=1, br;q=0.5')).toBe('gzip');
    expect(chooseEncoding('identity')).toBeUndefined();
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding(undefined)).toBeUndefined();
  });
});
