import { describe, expect, it } from 'vitest';
import { trustedOrigins } from '../../src/server/auth/origins';
import { loadConfig } from '../../src/server/config';

const secret = { BETTER_AUTH_SECRET: 'unit-test-secret' };

describe('the origins whose writes the API accepts', () => {
  it('in production: only the public address', () => {
    const config = loadConfig({ ...secret, NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://trials.example.org/' });
    expect(trustedOrigins(config)).toEqual(['https://trials.example.org']);
  });

  it("in development: also the API's own port and Vite's dev server, so signing in through `npm run dev:web` works", () => {
    const origins = trustedOrigins(loadConfig({ ...secret, NODE_ENV: 'development', PORT: '3000' }));
    expect(origins).toEqual(expect.arrayContaining(['http://localhost:3000', 'http://localhost:5173', 'http://127.0.0.1:5173']));
    expect(new Set(origins).size).toBe(origins.length);
  });
});
