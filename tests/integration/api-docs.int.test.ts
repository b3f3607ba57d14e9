import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('API reference', () => {
  it('serves an OpenAPI 3.1 document, version 1.0.0, generated from the route schemas', async () => {
    const doc = await t.actor().get('/api/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(doc.body.info.version).toBe('1.0.0');
    const create = doc.body.paths['/api/organizations'].post;
    expect(create.requestBody.content['application/json'].schema).toBeTruthy();
    expect(doc.body.components.schemas.Organization.properties).toHaveProperty('publicId');
    expect(doc.body.components.schemas.ApiError).toBeTruthy();
  });

  it('serves a readable reference page whose script comes from this server, not a CDN', async () => {
    const page = await t.app.request('/api/docs');
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('/api/openapi.json');
    expect(html).toContain('/api/docs/scalar.js');
    const script = await t.app.request('/api/docs/scalar.js');
    expect(script.status).toBe(200);
    expect(Number((await script.arrayBuffer()).byteLength)).toBeGreaterThan(100_000);
  });

  it('answers /robots.txt as text that asks every crawler to stay out (a private app), not the web page', async () => {
    const robots = await t.app.request('/robots.txt');
    expect(robots.status).toBe(200);
    expect(robots.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await robots.text()).toBe('User-agent: *\nDisallow: /\n');
  });

  it('answers an unknown API path with 404 in the one error shape', async () => {
    const admin = await t.signInAdmin();
    const answer = await admin.get('/api/no-such-thing');
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('NOT_FOUND');
  });

  it('answers malformed JSON with 400, not 500', async () => {
    const admin = await t.signInAdmin();
    const answer = await admin.request('POST', '/api/organizations/', undefined, { 'content-type': 'application/json' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBeTruthy();
  });
});
