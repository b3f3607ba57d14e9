import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
import type { ApiError } from '../../contract/common';

/** Status texts of the specification's error catalogue (spec §8). */
export const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
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
  ) {
    super(message ?? STATUS_TEXT[status] ?? 'Error');
  }
}

export const notFound = (message = 'Not Found') => new AppError(404, message);
export const forbidden = (message = 'Forbidden') => new AppError(403, message);
export const badRequest = (message: string, details?: ApiError['error']['details']) =>
  new AppError(400, message, 'BAD_REQUEST', details);
export const conflict = (message: string) => new AppError(409, message);

export function errorBody(status: number, message?: string, code?: string, details?: ApiError['error']['details']): ApiError {
  return {
    error: {
      code: code ?? CODE_FOR_STATUS[status] ?? 'ERROR',
      message: message ?? STATUS_TEXT[status] ?? 'Error',
      ...(details && details.length ? { details } : {}),
    },
  };
}

/** A validation failure that names each field, e.g. "name: Organization name must be at least 2 characters". */
export function validationError(c: Context, zodError: ZodError) {
  const details = zodError.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(body)',
    message: issue.message,
  }));
  const message = details.map((detail) => `${detail.path}: ${detail.message}`).join('; ');
  return c.json(errorBody(400, message, 'VALIDATION_FAILED', details), 400);
}
