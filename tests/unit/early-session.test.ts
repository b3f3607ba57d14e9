import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { fetchTakingEarlySession } from '../../src/web/lib/early-session';

const EARLY_SESSION_PATH = '/api/auth/get-session';

const origin = 'https://app.example.test';
const answer = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('the session asked for by index.html (decision 185)', () => {
  it('answers the first plain get-session with the early answer, once; the next goes to the network', async () => {
    const network = vi.fn(async () => answer({ from: 'network' }));
    const source = { earlySession: Promise.resolve(answer({ from: 'early' })) };
    const fetchImpl = fetchTakingEarlySession(source, origin, EARLY_SESSION_PATH, network);
    expect(await (await fetchImpl(`${origin}${EARLY_SESSION_PATH}`, { method: 'GET' })).json()).toEqual({ from: 'early' });
    expect(network).not.toHaveBeenCalled();
    expect(await (await fetchImpl(new URL(`${origin}${EARLY_SESSION_PATH}`))).json()).toEqual({ from: 'network' });
    expect(network).toHaveBeenCalledTimes(1);
  });

  it('leaves other requests, other methods and a session asked with options to the network', async () => {
    const network = vi.fn(async () => answer({ from: 'network' }));
    const source = { earlySession: Promise.resolve(answer({ from: 'early' })) };
    const fetchImpl = fetchTakingEarlySession(source, origin, EARLY_SESSION_PATH, network);
    await fetchImpl(`${origin}/api/auth/sign-in/email`, { method: 'POST' });
    await fetchImpl(`${origin}${EARLY_SESSION_PATH}`, { method: 'POST' });
    await fetchImpl(`${origin}${EARLY_SESSION_PATH}?disableCookieCache=true`);
    expect(network).toHaveBeenCalledTimes(3);
    expect(source.earlySession).toBeDefined();
  });

  it('asks the network again when the early request failed or was refused', async () => {
    for (const early of [Promise.resolve(null), Promise.resolve(answer({ message: 'Too many requests' }, 429))]) {
      const network = vi.fn(async () => answer({ from: 'network' }));
      const fetchImpl = fetchTakingEarlySession({ earlySession: early }, origin, EARLY_SESSION_PATH, network);
      expect(await (await fetchImpl(`${origin}${EARLY_SESSION_PATH}`)).json()).toEqual({ from: 'network' });
    }
  });

  it('is the path index.html asks for and the auth client uses', () => {
    // auth-client.ts creates the client on import (it needs a window), so its base path is read from its source.
    expect(readFileSync('src/web/lib/auth-client.ts', 'utf8')).toContain("AUTH_BASE_PATH = '/api/auth'");
    expect(readFileSync('src/web/lib/auth-client.ts', 'utf8')).toContain('`${AUTH_BASE_PATH}/get-session`');
    expect(readFileSync('src/web/index.html', 'utf8')).toContain(`fetch('${EARLY_SESSION_PATH}'`);
  });
});
