import type { Context } from 'hono';
import type { AppEnv } from '../http/context';
import { errorBody } from '../http/errors';
import { CLIENT_ADDRESS_HEADER, clientAddressOf } from './client-address';

const SIGN_IN_PATH = '/api/auth/sign-in/email';
const SIGN_UP_PATH = '/api/auth/sign-up/email';
const GET_SESSION_PATH = '/api/auth/get-session';

function tooManyAttempts(retryAfterSeconds: number): Response {
  return new Response(JSON.stringify(errorBody(429, 'Too many sign-in attempts. Try again later.')), {
    status: 429,
    headers: { 'content-type': 'application/json', 'retry-after': String(retryAfterSeconds) },
  });
}

/** better-auth's error answers in the API's one error shape; a 429 always carries Retry-After. */
async function reshape(response: Response): Promise<Response> {
  if (response.status < 400 || !response.headers.get('content-type')?.includes('application/json')) return response;
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { message?: string; code?: string; error?: unknown } | null;
  if (!body || body.error) return response;
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  if (response.status === 429 && !headers.has('retry-after')) headers.set('retry-after', headers.get('x-retry-after') ?? '60');
  return new Response(JSON.stringify(errorBody(response.status, body.message, body.code)), { status: response.status, headers });
}

/**
 * Everything under /api/auth. better-auth answers, with three additions:
 * - it sees the client address resolved from the socket (TRUSTED_PROXIES decides whether X-Forwarded-For
 *   counts), so its per-address sign-in limit cannot be dodged by inventing headers;
 * - sign-in is also limited per account (sign-in-throttle.ts);
 * - get-session answers from the session store (cached, idle-aware), and any other change made through
 *   better-auth (sign-out, revocations, password, profile, deletion) drops the user's cached sessions.
 */
export async function handleAuthRequest(c: Context<AppEnv>): Promise<Response> {
  const { auth, sessions, signInThrottle, config } = c.get('deps');
  const path = c.req.path;
  const method = c.req.method;

  if (method === 'GET' && path === GET_SESSION_PATH) {
    const session = await sessions.resolve(c.req.raw.headers, { activity: false });
    // No live session: better-auth answers null itself and clears a stale cookie.
    if (session) return c.json(session.payload, 200, { 'cache-control': 'no-store' });
  }

  // Read before the request is re-made below (that takes over the body stream).
  const isSignIn = method === 'POST' && path === SIGN_IN_PATH;
  const signInBody = isSignIn
    ? ((await c.req.raw
        .clone()
        .json()
        .catch(() => null)) as { email?: unknown } | null)
    : null;

  const headers = new Headers(c.req.raw.headers);
  headers.delete(CLIENT_ADDRESS_HEADER);
  const address = clientAddressOf(c, config.trustedProxies);
  if (address) headers.set(CLIENT_ADDRESS_HEADER, address);
  const request = new Request(c.req.raw, { headers });

  if (isSignIn) {
    const email = typeof signInBody?.email === 'string' ? signInBody.email : '';
    const decision = email ? await signInThrottle.attempt(email) : undefined;
    if (decision && !decision.allowed) return tooManyAttempts(decision.retryAfterSeconds);
    const response = await auth.handler(request);
    if (decision?.allowed && response.status === 200) await signInThrottle.succeeded(decision.key);
    return reshape(response);
  }

  let userId: string | undefined;
  if (method === 'POST' && path !== SIGN_UP_PATH) userId = (await sessions.resolve(c.req.raw.headers, { activity: false }))?.userId;
  const response = await auth.handler(request);
  if (userId) sessions.invalidateUser(userId);
  if (method === 'POST' && path === SIGN_UP_PATH && response.status === 200) sessions.organizationsChanged();
  return reshape(response);
}
