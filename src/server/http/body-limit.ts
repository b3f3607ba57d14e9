import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { IMPORT_MAX_BYTES, IMPORT_STREAM_MAX_BYTES } from '../../contract/candidates';
import { FHIR_BUNDLE_MAX_BYTES } from '../../contract/matching';
import type { AppEnv } from './context';
import { errorBody } from './errors';

const KB = 1024;
const MB = 1024 * KB;

/** Bytes a request body may have, by path (decision 020). Checked while the body streams in, before any handler reads it. */
export const BODY_LIMITS = {
  /** JSON APIs (staff, public, auth). */
  default: 1 * MB,
  /** POST /api/candidates/bulk and /bulk/preview: CSV or JSON parsed whole (about 100,000 rows). */
  import: IMPORT_MAX_BYTES,
  /** POST /api/candidates/bulk/stream: a CSV file read as it arrives (up to 1,000,000 rows; decision 046). */
  importStream: IMPORT_STREAM_MAX_BYTES,
  /** POST /api/candidates/fhir: one patient's FHIR bundle (a Synthea bundle of a long life runs to a few MB). */
  fhirBundle: FHIR_BUNDLE_MAX_BYTES,
  /** Twilio's form posts (inbound SMS, status callbacks, inbound calls). */
  twilio: 64 * KB,
  /** Vapi's server messages: an end-of-call report carries the whole transcript and artifact. */
  vapiWebhook: 1 * MB,
  /** The agent's tools: a tool-calls message or a few arguments. */
  vapiTools: 256 * KB,
} as const;

/** The streamed import: its handler reads the body as a stream and counts the bytes itself (decision 046). */
export const isStreamedImport = (method: string, path: string) => method === 'POST' && /^\/api\/candidates\/bulk\/stream\/?$/.test(path);

export function bodyLimitFor(method: string, path: string): number {
  if (isStreamedImport(method, path)) return BODY_LIMITS.importStream;
  if (method === 'POST' && /^\/api\/candidates\/bulk(\/preview)?\/?$/.test(path)) return BODY_LIMITS.import;
  if (method === 'POST' && /^\/api\/candidates\/fhir\/?$/.test(path)) return BODY_LIMITS.fhirBundle;
  if (path.startsWith('/api/inbound/vapi')) return BODY_LIMITS.vapiWebhook;
  if (path.startsWith('/api/functions/')) return BODY_LIMITS.vapiTools;
  if (path.startsWith('/api/inbound')) return BODY_LIMITS.twilio;
  return BODY_LIMITS.default;
}

/** Methods whose requests carry no body here: nothing to limit or to read. */
export const BODILESS_METHODS = new Set(['GET', 'HEAD']);

const megabytes = (bytes: number) => (bytes >= MB ? `${Math.round((bytes / MB) * 10) / 10} MB` : `${Math.round(bytes / KB)} KB`);

const limiters = new Map<number, MiddlewareHandler<AppEnv>>();
const limiter = (maxSize: number) => {
  let middleware = limiters.get(maxSize);
  if (!middleware) {
    middleware = bodyLimit({
      maxSize,
      onError: (c) => c.json(errorBody(413, `The request body is larger than ${megabytes(maxSize)}`), 413),
    });
    limiters.set(maxSize, middleware);
  }
  return middleware;
};

/**
 * Refuses a body over its path's limit with 413 in the API's error shape: at once from Content-Length, and
 * for a chunked body (no Content-Length) as soon as the bytes read pass the limit, never buffering more.
 */
export const requestBodyLimit: MiddlewareHandler<AppEnv> = async (c, next) => {
  // A GET or HEAD has no body to limit (Hono's limiter lets it through too), and asking for one would build
  // the whole Web Request that @hono/node-server otherwise never makes (decision 116).
  if (BODILESS_METHODS.has(c.req.method)) return next();
  if (isStreamedImport(c.req.method, c.req.path)) {
    // Hono's limiter buffers a chunked body to count it; this one is counted while the handler streams it.
    const length = Number(c.req.header('content-length'));
    if (length > BODY_LIMITS.importStream) return c.json(errorBody(413, `The request body is larger than ${megabytes(BODY_LIMITS.importStream)}`), 413);
    return next();
  }
  return limiter(bodyLimitFor(c.req.method, c.req.path))(c, next);
};
