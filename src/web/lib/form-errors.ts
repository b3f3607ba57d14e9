import { useState, type FormEvent } from 'react';
import type { FieldValues, Path, UseFormReturn, UseFormSetError } from 'react-hook-form';
import { errorMessage } from './utils';

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

/**
 * A dialog form's submit: the valid values go to `save` (which closes the dialog itself when done). When the
 * server refuses, its messages about `fields` show beside them; with none of those, its message shows as
 * `serverError` (for FormError above the buttons). `onSubmit` goes on the `<form>`.
 */
export function useFormSubmit<T extends FieldValues, R = T>(
  form: UseFormReturn<T, unknown, R>,
  save: (values: R) => Promise<void>,
  fields: readonly Path<T>[] = [],
) {
  const [serverError, setServerError] = useState<string | null>(null);
  const submit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      await save(values);
    } catch (error) {
      if (placeFieldErrors(error, fields, form.setError).placed === 0) setServerError(errorMessage(error));
    }
  });
  return { serverError, onSubmit: (event: FormEvent<HTMLFormElement>) => void submit(event).catch(() => undefined) };
}

/** A text field's value for the API: trimmed, and null when blank. */
export const blankToNull = (value: string) => (value.trim() === '' ? null : value.trim());
