import type { ComponentProps, ReactNode } from 'react';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { ChoiceSelect } from './ChoiceSelect';
import { Field } from './ui';

/**
 * A labelled ChoiceSelect bound to a react-hook-form field, with its error (the form's one way to pick from a short list).
 * `Output`: what the form's resolver turns the values into, when it transforms them.
 */
export function ChoiceField<T extends FieldValues, Output extends FieldValues = T>({
  control,
  name,
  label,
  error,
  hint,
  ...select
}: { control: Control<T, unknown, Output>; name: Path<T>; label: string; error?: string; hint?: ReactNode } & Omit<
  ComponentProps<typeof ChoiceSelect>,
  'value' | 'onValueChange' | 'ref'
>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Field label={label} error={error} hint={hint}>
          <ChoiceSelect {...select} ref={field.ref} value={field.value} onValueChange={field.onChange} />
        </Field>
      )}
    />
  );
}
