import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { currentApiDocument, operationIndex } from '../../scripts/gen-api-operations';
import { ENDPOINTS } from '../support/endpoints';

// The document /api/openapi.json serves is the contract others build clients from (decision 146): Redocly's
// recommended rules find nothing in it, every operation is named, and what it calls public is what is public.
const document = currentApiDocument();

describe('the OpenAPI document', () => {
  it("passes Redocly's recommended lint rules with no error and no warning", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'openapi-')), 'openapi.json');
    writeFileSync(file, JSON.stringify(document, null, 2));
    const problems = await lintFromString({
      source: JSON.stringify(document, null, 2),
      absoluteRef: file,
      config: await createConfig({ extends: ['recommended'] }),
    });
    const found = problems.map((problem) => `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`);
    expect(found).toEqual([]);
  });

  it('names every operation with a unique camelCase operationId', () => {
    const ids = operationIndex(document).map((operation) => operation.operationId);
    expect(ids.length).toBeGreaterThan(150);
    expect(ids.filter((id) => !/^[a-z][a-zA-Z0-9]*$/.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('asks for the session cookie everywhere except the endpoints the inventory calls public or provider', () => {
    expect(document.security).toEqual([{ sessionCookie: [] }]);
    expect(document.components?.securitySchemes?.sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'better-auth.session_token' });
    const mismatched: string[] = [];
    for (const { method, path: template, operationId } of operationIndex(document)) {
      const operation = document.paths?.[template]?.[method.toLowerCase() as 'get'];
      const security = operation?.security;
      const classification = ENDPOINTS[`${method} ${template}`];
      const declared = security === undefined ? 'session' : security.length === 0 ? 'public' : 'provider';
      const expected = classification === 'public' ? 'public' : classification === 'provider' ? 'provider' : 'session';
      if (declared !== expected) mismatched.push(`${operationId} (${method} ${template}): ${declared}, inventory says ${classification}`);
    }
    expect(mismatched).toEqual([]);
  });

  it('declares every tag it uses, with a description, and keeps provider callbacks as inbound paths', () => {
    const declared = new Map((document.tags ?? []).map((tag) => [tag.name, tag.description]));
    const used = new Set(
      operationIndex(document).flatMap(({ method, path: template }) => document.paths?.[template]?.[method.toLowerCase() as 'get']?.tags ?? []),
    );
    expect([...used].filter((tag) => !declared.get(tag))).toEqual([]);
    expect(document.servers?.length).toBeGreaterThan(0);
    expect(document.webhooks).toBeUndefined();
    expect(document.paths?.['/api/inbound/sms']?.post?.tags).toEqual(['Provider webhooks']);
  });
});
