import type { Context } from 'hono';
import type { AppEnv } from '../http/context';
import { errorBody } from '../http/errors';
import { CLIENT_ADDRESS_HEADER, clientAddressOf } from './client-address';
import { type SignUpBody, signUp } from './sign-up';

const SIGN_IN_PATH = '/api/auth/sign-in/email';
const SIGN_UP_PATH = '/api/auth/sign-up/email';
const GET_SESSION_PATH = '/api/auth/get-session';

function tooManyAttempts(retryAfterSeconds: number): Response {
  return new Response(JSON.stringify(errorBody(429, 'Too many sign-in attempts. Try again later.')), {
    status: 429,
    headers: { 'content-type': 'application/json', 'retry-after': String(retryAfterSeconds) },
  });
}

const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;

/**
 * Our web app sends every auth request as JSON. better-auth would also read form-encoded, multipart and text bodies,
 * and a limit that reads one shape is dodged by another (issue 35): any other body is a 415 before anything reads it.
 */
function refusedBody(request: Request): Response | undefined {
  if (request.method !== 'POST') return undefined;
  const contentType = request.headers.get('content-type');
  const hasBody = contentType !== null || Number(request.headers.get('content-length') ?? 0) > 0 || request.headers.has('transfer-encoding');
  if (!hasBody || JSON_MEDIA_TYPE.test(contentType ?? '')) return undefined;
  return new Response(JSON.stringify(errorBody(415, 'Send the request as application/json')), { status: 415, headers: { 'content-type': 'application/json' } });
}

/** The JSON body (read from a copy: the request is passed on whole), or null when it is not a JSON object. */
async function jsonBody(request: Request): Promise<Record<string, unknown> | null> {
  const body = await request
    .clone()
    .json()
    .catch(() => null);
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
}

/**
 * better-auth's answers as the API gives them: errors in the one error shape (a 429 always with Retry-After), and
 * never a session token in a body (sign-in, sign-up, password change return one): the session is the httpOnly
 * cookie alone, out of page scripts' reach (decision 120).
 */
async function reshape(response: Response): Promise<Response> {
  if (!response.headers.get('content-type')?.includes('application/json')) return response;
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { message?: string; code?: string; error?: unknown; token?: unknown } | null;
  if (!body || typeof body !== 'object') return response;
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  if (response.status < 400) {
    if (!('token' in body)) return response;
    const { token: _token, ...rest } = body;
    return new Response(JSON.stringify(rest), { status: response.status, headers });
  }
  if (body.error) return response;
  if (response.status === 429 && !headers.has('retry-after')) headers.set('retry-after', headers.get('x-retry-after') ?? '60');
  return new Response(JSON.stringify(errorBody(response.status, body.message, body.code)), { status: response.status, headers });
}

/**
 * Everything under /api/auth. better-auth answers, with these additions:
 * - JSON bodies only (415 otherwise), and no session token in any body;
 * - sign-up answers alike for new and registered emails (sign-up.ts);
 * - it sees the client address resolved from the socket (TRUSTED_PROXIES decides whether X-Forwarded-For
 *   counts), so its per-address sign-in limit cannot be dodged by inventing headers;
 * - sign-in is also limited per account (sign-in-throttle.ts), and ends the session the browser held before;
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

  const refused = refusedBody(c.req.raw);
  if (refused) return refused;
  // Read before the request is re-made below (that takes over the body stream).
  const isSignIn = method === 'POST' && path === SIGN_IN_PATH;
  const isSignUp = method === 'POST' && path === SIGN_UP_PATH;
  const body = isSignIn || isSignUp ? await jsonBody(c.req.raw) : null;

  const headers = new Headers(c.req.raw.headers);
  headers.delete(CLIENT_ADDRESS_HEADER);
  const address = clientAddressOf(c, config.trustedProxies);
  if (address) headers.set(CLIENT_ADDRESS_HEADER, address);
  const request = new Request(c.req.raw, { headers });

  if (isSignIn) {
    const email = typeof body?.email === 'string' ? body.email : '';
    const decision = email ? await signInThrottle.attempt(email) : undefined;
    if (decision && !decision.allowed) return tooManyAttempts(decision.retryAfterSeconds);
    const response = await auth.handler(request);
    if (response.status === 200) {
      if (decision?.allowed) await signInThrottle.succeeded(decision.key);
      await sessions.endHeldSession(c.req.raw.headers);
    }
    return reshape(response);
  }

  if (isSignUp) return reshape(await signUp(c.get('deps'), request, (body ?? {}) as SignUpBody));

  let userId: string | undefined;
  if (method === 'POST') userId = (await sessions.resolve(c.req.raw.headers, { activity: false }))?.userId;
  const response = await auth.handler(request);
  if (userId) sessions.invalidateUser(userId);
  return reshape(response);
}
