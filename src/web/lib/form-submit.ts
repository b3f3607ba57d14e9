import { useState, type FormEvent } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { placeFieldErrors } from './server-errors';
import { errorMessage } from './utils';

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
