import { ACTIVE_ORGANIZATION_HEADER } from '../../contract/headers';
import type { operations } from './api-operations.gen';

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

/** What a person is told when the server gave no sentence of its own (or only a validator's field list). */
const PLAIN_STATUS_MESSAGES: Record<number, string> = {
  400: 'This was not accepted. Check the details and try again.',
  401: 'Your session has ended. Sign in again.',
  403: 'You do not have access to this.',
  404: 'This could not be found. It may have been deleted.',
  409: 'This changed meanwhile. Reload the page and try again.',
  413: 'This is too large to send.',
  429: 'Too many requests. Wait a moment and try again.',
};

/**
 * The sentence shown to a person for a refused request: the server's own message (written for users,
 * http/errors.ts) when it sent one, else a plain sentence for the status. Never "Request failed with
 * status 409 Conflict" or a validator's field paths.
 */
export function plainErrorMessage(status: number, body: unknown): string {
  const error = body && typeof body === 'object' && 'error' in body ? (body as { error?: { message?: unknown; code?: unknown } }).error : undefined;
  const technical = error?.code === 'VALIDATION_FAILED' || error?.message === STATUS_TEXTS[status];
  if (error && typeof error.message === 'string' && error.message && !technical) return error.message;
  return PLAIN_STATUS_MESSAGES[status] ?? (status >= 500 ? 'The server could not finish this. Try again in a moment.' : 'Something went wrong. Try again.');
}

export class ApiRequestError extends Error {
  readonly status: number;
  readonly statusText: string;
  readonly body: unknown;
  /** What the screens show (utils.ts errorMessage); `message` keeps the specification's form (§8) for logs. */
  readonly userMessage: string;
  constructor(message: string, status: number, statusText: string, body: unknown) {
    super(message);
    this.name = 'ApiRequestError';
    this.status = status;
    this.statusText = statusText;
    this.body = body;
    this.userMessage = plainErrorMessage(status, body);
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

/**
 * The header naming an organization, for a query whose key names it: the request then asks for the organization its
 * cache entry is filed under, even when it starts before the page has set the active organization (decision 181).
 */
export function organizationHeader(organizationId: string | null): Record<string, string> | undefined {
  return organizationId ? { [ACTIVE_ORGANIZATION_HEADER]: organizationId } : undefined;
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
  // A query that names its organization (organizationHeader) keeps it; anything else goes to the active organization.
  if (activeOrganizationId && !headers[ACTIVE_ORGANIZATION_HEADER]) headers[ACTIVE_ORGANIZATION_HEADER] = activeOrganizationId;
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

/** An API operation, by the operationId the server's route declares (src/web/lib/api-operations.gen.ts). */
export type OperationId = keyof operations;
/** An operation as api-operations.gen.ts exports it: `import * as endpoints from '.../lib/api-operations.gen'`. */
export interface OperationRef<K extends OperationId = OperationId> {
  readonly id: K;
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
}
type Operation<K extends OperationId> = operations[K];
type JsonContent<T> = T extends { content: { 'application/json': infer Body } }
  ? Body
  : T extends { content: { [type: string]: infer Other } }
    ? Other
    : undefined;
type SuccessStatus = 200 | 201 | 202 | 204;
type Responses<K extends OperationId> = Operation<K>['responses'];
/** What a successful call answers: the JSON of its 2xx response (undefined for 204). */
export type ApiResponse<K extends OperationId> = { [S in keyof Responses<K> & SuccessStatus]: JsonContent<Responses<K>[S]> }[keyof Responses<K> &
  SuccessStatus];
/** The JSON body an operation takes. */
export type ApiBody<K extends OperationId> = JsonContent<NonNullable<Operation<K>['requestBody']>>;
type Defined<T> = [T] extends [never] ? never : [T] extends [undefined] ? never : T;
type QueryOf<K extends OperationId> = Defined<NonNullable<Operation<K>['parameters']['query']>>;
type PathOf<K extends OperationId> = Defined<NonNullable<Operation<K>['parameters']['path']>>;
/**
 * The query's keys are the operation's; values are what a URL carries (the server validates them): null or
 * undefined leaves the key out, a list goes comma-joined. Search params read from the address bar are plain text.
 */
type QueryInput<Q> = { [P in keyof Q]?: string | number | boolean | string[] | null };
/** The input of a call: path params when the path has some, its query, its body (required when the route requires one). */
export type ApiInput<K extends OperationId> = ([PathOf<K>] extends [never] ? { params?: never } : { params: { [P in keyof PathOf<K>]: string | number } }) &
  ([QueryOf<K>] extends [never] ? { query?: never } : { query?: QueryInput<QueryOf<K>> }) &
  ([ApiBody<K>] extends [undefined]
    ? { body?: never }
    : undefined extends Operation<K>['requestBody']
      ? { body?: ApiBody<K> }
      : // An empty object is sent when no body is given, so a body whose fields are all optional may be left out.
        Record<never, never> extends ApiBody<K>
        ? { body?: ApiBody<K> }
        : { body: ApiBody<K> }) &
  Pick<RequestOptions, 'signal' | 'headers'>;
type HasRequired<T> = { [P in keyof T]-?: undefined extends T[P] ? never : P }[keyof T] extends never ? false : true;
type CallArguments<K extends OperationId> = HasRequired<ApiInput<K>> extends true ? [input: ApiInput<K>] : [input?: ApiInput<K>];

/** The URL path of an operation with its path params filled in (each encoded). */
export function operationPath(operation: OperationRef, params: Record<string, string | number> = {}): string {
  return operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new Error(`${operation.id}: path param ${name} is missing`);
    return encodeURIComponent(String(value));
  });
}

/**
 * Calls an operation by its operationId: `api.call(endpoints.getTrial, { params: { trialId } })`. Params, query, body
 * and the answer are typed from the OpenAPI document, so a renamed field or path is a type error here, not a 404.
 */
function call<K extends OperationId>(operation: OperationRef<K>, ...[input]: CallArguments<K>): Promise<ApiResponse<K>> {
  const { method } = operation;
  const { params, query, body, signal, headers } = (input ?? {}) as {
    params?: Record<string, string>;
    query?: RequestOptions['query'];
    body?: unknown;
    signal?: AbortSignal;
    headers?: Record<string, string>;
  };
  const sendsBody = method !== 'GET' && method !== 'DELETE';
  return request<ApiResponse<K>>(method, operationPath(operation, params), sendsBody ? (body ?? {}) : undefined, { query, signal, headers });
}

/** The web's one way to the API: typed calls by operationId (hand-written URLs and response types are refused by tests/unit/openapi-web-calls.test.ts). */
export const api = { call };
