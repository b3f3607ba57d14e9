import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The web calls the API by operationId (api.call(endpoints.x), decision 146): the URL and the answer's type come from the
// OpenAPI document, so a moved path or renamed field is a type error. A hand-written /api/ URL or a response
// type spelled out at a call would bypass that; these are the only places that may, and why.
const ROOT = join(__dirname, '..', '..');
const ALLOWED: Record<string, string> = {
  'src/web/lib/api.ts': 'the client itself: tells auth answers (better-auth) apart from the API for the session-ended handler',
  'src/web/lib/auth-client.ts': "better-auth's own client: its endpoints are better-auth's, not our routes",
  'src/web/lib/api-operations.gen.ts': 'generated from the OpenAPI document',
};

function webFiles(): string[] {
  return readdirSync(join(ROOT, 'src/web'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .filter((file) => !file.endsWith('routeTree.gen.ts') && !file.startsWith('src/web/lib/api-operations/'))
    .sort();
}

/** Lines of a file matching a pattern, as `file:line: text`. */
function offending(pattern: RegExp): string[] {
  return webFiles()
    .filter((file) => !(file in ALLOWED))
    .flatMap((file) =>
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, index) => (pattern.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
}

describe('web calls to the API', () => {
  it('write no /api/ URL by hand (api.call or operationPath with an operation of api-operations.gen.ts instead)', () => {
    expect(offending(/['"`]\/api\//)).toEqual([]);
  });

  it('spell out no response type at a call (the operation decides it)', () => {
    expect(offending(/\bapi\.\w+\s*</)).toEqual([]);
  });

  it('go through api.call, not the removed get/post/patch/put/delete helpers', () => {
    expect(offending(/\bapi\.(get|post|patch|put|delete)\s*[(<]/)).toEqual([]);
  });

  it('lists only exceptions that still exist', () => {
    expect(Object.keys(ALLOWED).filter((file) => !webFiles().includes(file))).toEqual([]);
  });
});
