import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';

/** The server's own sentence and per-field details of a failed request (the API's error shape: `{ error: { message, details } }`). */
export function apiProblem(error: unknown): { message: string; details: Array<{ path: string; message: string }> } {
  const body = error && typeof error === 'object' && 'body' in error ? (error as { body?: unknown }).body : undefined;
  const payload = body && typeof body === 'object' && 'error' in body ? (body as { error?: { message?: unknown; details?: unknown } }).error : undefined;
  const details = Array.isArray(payload?.details)
    ? (payload.details as unknown[]).filter(
        (detail): detail is { path: string; message: string } =>
          Boolean(detail) && typeof (detail as { path?: unknown }).path === 'string' && typeof (detail as { message?: unknown }).message === 'string',
      )
    : [];
  if (typeof payload?.message === 'string' && payload.message) return { message: payload.message, details };
  const message = error instanceof Error && error.message ? error.message : typeof error === 'string' ? error : 'Something went wrong';
  return { message, details };
}

/**
 * Puts a refused request's per-field messages (a 400's details) beside the form's own `fields`: a detail's path
 * names its field by its first segment ("consent.sms" is `consent`), and a field shows its first message. The
 * caller decides what goes in the alert: `message`, the request's sentence; `placed` and `unplaced`, how many
 * details found a field and how many did not.
 */
export function placeFieldErrors<T extends FieldValues>(
  error: unknown,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
): { message: string; placed: number; unplaced: number } {
  const problem = apiProblem(error);
  const shown = new Set<string>();
  let placed = 0;
  for (const detail of problem.details) {
    const field = fields.find((name) => name === detail.path.split('.')[0]);
    if (!field) continue;
    placed += 1;
    if (shown.has(field)) continue;
    shown.add(field);
    setError(field, { type: 'server', message: detail.message });
  }
  return { message: problem.message, placed, unplaced: problem.details.length - placed };
}
