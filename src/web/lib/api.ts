import { ACTIVE_ORGANIZATION_HEADER } from '../../contract/headers';

/** Catalogue texts of the error statuses (docs/product-spec.md §8). */
export const STATUS_TEXTS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export class ApiRequestError extends Error {
  readonly status: number;
  readonly statusText: string;
  readonly body: unknown;
  constructor(message: string, status: number, statusText: string, body: unknown) {
    super(message);
    this.name = 'ApiRequestError';
    this.status = status;
    this.statusText = statusText;
    this.body = body;
  }
}

/**
 * Session idle timeout (decision 061). A request counts as the user's activity only when the user touched the
 * page (pointer, key, wheel) in the last few seconds; otherwise (polling, background refetches) it is sent as
 * passive and does not keep the session alive. Every signed-in answer says when the session ends.
 */
const USER_INPUT_WINDOW_MS = 10_000;
let lastUserInput = Date.now();
if (typeof window !== 'undefined') {
  for (const type of ['pointerdown', 'keydown', 'wheel', 'touchstart']) {
    window.addEventListener(type, () => (lastUserInput = Date.now()), { capture: true, passive: true });
  }
}
let sessionDeadline: number | null = null;
const deadlineListeners = new Set<() => void>();
/** When the session ends without further activity (epoch ms), as the server last said; null when unknown. */
export function getSessionDeadline() {
  return sessionDeadline;
}
export function setSessionDeadline(value: number | null) {
  if (value === sessionDeadline) return;
  sessionDeadline = value;
  for (const listener of deadlineListeners) listener();
}
export function subscribeSessionDeadline(listener: () => void) {
  deadlineListeners.add(listener);
  return () => deadlineListeners.delete(listener);
}
/** Called when a signed-in call answers 401: the session ended on the server (idle, lifetime, revoked). */
let onSessionEnded: (() => void) | null = null;
export function setSessionEndedHandler(handler: (() => void) | null) {
  onSessionEnded = handler;
}

let activeOrganizationId: string | null = null;

export function setActiveOrganizationId(id: string | null) {
  activeOrganizationId = id;
}
export function getActiveOrganizationId() {
  return activeOrganizationId;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | string[] | undefined | null>;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

function buildUrl(path: string, query?: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      if (value.length > 0) params.set(key, value.join(','));
    } else params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path;
}

function serverMessage(body: unknown): string | undefined {
  if (body && typeof body === 'object' && 'error' in body) {
    const error = (body as { error?: { message?: unknown } }).error;
    if (error && typeof error.message === 'string' && error.message) return error.message;
  }
  return undefined;
}

/** Builds the thrown error of a non-OK response (docs/product-spec.md §8). */
export function errorFromResponse(status: number, statusText: string, body: unknown): ApiRequestError {
  const known = STATUS_TEXTS[status];
  let message: string;
  if (known) {
    const detail = serverMessage(body);
    message = detail && detail !== known ? `${known}: ${detail}` : known;
  } else {
    // Other statuses (409 Conflict, 429...) keep the generic form; the server's own sentence stands for its body.
    const text = serverMessage(body) ?? (typeof body === 'string' ? body : JSON.stringify(body));
    message = `Request failed with status ${status}${statusText ? ` ${statusText}` : ''}${text ? `: ${text}` : ''}`;
  }
  return new ApiRequestError(message, status, statusText, body);
}

async function request<T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (activeOrganizationId) headers[ACTIVE_ORGANIZATION_HEADER] = activeOrganizationId;
  if (Date.now() - lastUserInput > USER_INPUT_WINDOW_MS) headers['x-cohortly-passive'] = '1';

  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method,
      headers,
      credentials: 'include',
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw new Error('Request aborted');
    if ((error as { name?: string })?.name === 'AbortError') throw new Error('Request aborted');
    throw error;
  }

  const raw = response.status === 204 ? '' : await response.text();
  let parsed: unknown = raw;
  if (raw) {
    try {
      parsed = JSON.parse(raw);
    } catch {
      parsed = raw;
    }
  } else parsed = undefined;

  const deadline = response.headers.get('x-session-expires-at');
  if (deadline) setSessionDeadline(Date.parse(deadline));
  if (response.status === 401 && !path.startsWith('/api/auth/')) onSessionEnded?.();
  if (!response.ok) throw errorFromResponse(response.status, response.statusText, parsed);
  return parsed as T;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, undefined, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, body ?? {}, options),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PATCH', path, body ?? {}, options),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, body ?? {}, options),
  delete: <T = void>(path: string, options?: RequestOptions) => request<T>('DELETE', path, undefined, options),
};
