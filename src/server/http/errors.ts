import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
import type { ApiError } from '../../contract/common';

/** Status texts of the specification's error catalogue (docs/product-spec.md §8). */
export const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

const CODE_FOR_STATUS: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
};

/** An error a handler or service throws on purpose; its message is safe to show a user. */
export class AppError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message?: string,
    readonly code: string = CODE_FOR_STATUS[status] ?? 'ERROR',
    readonly details?: ApiError['error']['details'],
    /** Extra response headers, e.g. Retry-After on a 429. */
    readonly headers?: Record<string, string>,
  ) {
    super(message ?? STATUS_TEXT[status] ?? 'Error');
  }
}

export const notFound = (message = 'Not Found') => new AppError(404, message);
export const forbidden = (message = 'Forbidden') => new AppError(403, message);
export const badRequest = (message: string, details?: ApiError['error']['details']) => new AppError(400, message, 'BAD_REQUEST', details);
export const conflict = (message: string) => new AppError(409, message);

export function errorBody(status: number, message?: string, code?: string, details?: ApiError['error']['details']): ApiError {
  return {
    error: {
      code: code ?? CODE_FOR_STATUS[status] ?? 'ERROR',
      message: message ?? STATUS_TEXT[status] ?? 'Error',
      ...(details?.length ? { details } : {}),
    },
  };
}

/**
 * PostgreSQL's data exceptions (class 22: invalid text representation 22P02, invalid byte sequence 22021,
 * unsupported Unicode escape 22P05, value too long 22001, out of range 22003, bad datetime 22007/22008):
 * a value the contracts let through that the database refuses. The last line of defence: a 400, not a 500.
 */
export function databaseInputErrorCode(error: unknown): string | undefined {
  for (
    let current = error as { code?: unknown; cause?: unknown } | undefined, depth = 0;
    current && depth < 5;
    current = current.cause as typeof current, depth++
  ) {
    if (typeof current.code === 'string' && /^22[0-9A-Z]{3}$/.test(current.code)) return current.code;
  }
  return undefined;
}

/** A validation failure that names each field, e.g. "name: Organization name must be at least 2 characters". */
export function validationError(c: Context, zodError: ZodError, target?: string) {
  // A malformed path id names no resource: 404, like an id that does not exist.
  if (target === 'param') return c.json(errorBody(404), 404);
  const details = zodError.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(body)',
    message: issue.message,
  }));
  const message = details.map((detail) => `${detail.path}: ${detail.message}`).join('; ');
  return c.json(errorBody(400, message, 'VALIDATION_FAILED', details), 400);
}
