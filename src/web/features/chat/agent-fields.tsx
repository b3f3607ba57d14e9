import { forwardRef, useMemo, type InputHTMLAttributes } from 'react';
import { Controller, type UseFormRegisterReturn, type UseFormReturn } from 'react-hook-form';
import { LANGUAGES } from '../../../contract/prescreen-forms';
import { Textarea } from '../../components/Textarea';
import { Field, FieldError, Select } from '../../components/ui';
import { usePrescreenFormsQuery } from '../prescreen-forms/queries';
import { Combobox } from '../../components/Combobox';
import { TRIAL_PICKER, trialOption } from '../trials/trial-option';
import { useTrialsQuery } from '../trials/queries';
import { LANGUAGE_LABELS } from './format';

/** The fields the chat agent dialog and the voice agent dialog both ask: trial, prescreen form, languages, messages. */

/** A checkbox with its label and an optional hint below it. */
export const Check = forwardRef<HTMLInputElement, { label: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>>(function Check(
  { label, hint, ...props },
  ref,
) {
  return (
    <label className="flex items-start gap-2 text-sm text-slate-800">
      <input ref={ref} type="checkbox" className="mt-0.5 h-4 w-4 accent-blue-700" {...props} />
      <span>
        {label}
        {hint && <span className="block text-xs text-slate-700">{hint}</span>}
      </span>
    </label>
  );
});

/** An English text and its optional Spanish one, as the contract stores them (no `es` when it is blank). */
export const bilingual = (en: string, es: string) => ({
  en: en.trim(),
  ...(es.trim() ? { es: es.trim() } : {}),
});

/**
 * The trials to choose from, and the chosen trial's published prescreen forms (plus the agent's own, whatever its
 * status). `orgs` are the organizations whose trials may be offered: the agent's own when it has one, else the
 * admin's organization filter (none: the server's default selection), so a trial of an organization the agent
 * cannot belong to is never offered; the forms are read in the chosen trial's organization.
 */
export function useAgentTrialChoices(trialId: string, currentFormId: string | null | undefined, orgs?: string[]) {
  const trialsQuery = useTrialsQuery(orgs);
  const trials = useMemo(() => trialsQuery.data?.trials ?? [], [trialsQuery.data]);
  const trialOptions = useMemo(() => trials.map(trialOption), [trials]);
  const trialOrganization = trials.find((trial) => trial.id === trialId)?.organizationId;
  const formsQuery = usePrescreenFormsQuery(trialId ? { trialId, orgs: trialOrganization ? [trialOrganization] : orgs } : {});
  const forms = (trialId ? (formsQuery.data?.prescreenForms ?? []) : []).filter(
    (item) => item.trialId === trialId && (item.status === 'published' || item.id === currentFormId),
  );
  return { trialsQuery, trials, trialOptions, formsQuery, forms, trialId };
}
type AgentTrialChoices = ReturnType<typeof useAgentTrialChoices>;

/** What of an agent form the trial field reads and writes. */
type AgentTrialValues = { trialId: string; prescreenFormId: string };

/**
 * The trial combobox, bound to the form's `trialId`. Choosing a different trial clears the prescreen form (a
 * form belongs to one trial), then `onTrialChange` clears whatever else of the old trial the form holds.
 */
export function TrialField<T extends AgentTrialValues>({
  form,
  choices,
  hint,
  onTrialChange,
}: {
  form: UseFormReturn<T>;
  choices: AgentTrialChoices;
  hint?: string;
  onTrialChange?: () => void;
}) {
  // Both agent forms have these two fields; react-hook-form cannot type a path of a generic form without it.
  const agentForm = form as unknown as UseFormReturn<AgentTrialValues>;
  const { trialsQuery, trialOptions } = choices;
  return (
    <Controller
      control={agentForm.control}
      name="trialId"
      render={({ field, fieldState }) => (
        <Field label="Trial" error={fieldState.error?.message} hint={hint}>
          <Combobox
            {...TRIAL_PICKER}
            ref={field.ref}
            options={trialOptions}
            value={field.value}
            onChange={(next) => {
              if (next === field.value) return;
              field.onChange(next);
              agentForm.setValue('prescreenFormId', '');
              onTrialChange?.();
            }}
            loading={trialsQuery.isPending}
            emptyText="No trials yet"
            placeholder="Choose a trial"
          />
        </Field>
      )}
    />
  );
}

/** The chosen trial's prescreen form, with a hint when the trial has none published. */
export function PrescreenFormField({ choices, error, registration }: { choices: AgentTrialChoices; error?: string; registration: UseFormRegisterReturn }) {
  const { trialId, formsQuery, forms } = choices;
  return (
    <Field
      label="Prescreen form"
      error={error}
      hint={
        trialId && !formsQuery.isPending && forms.length === 0
          ? 'This trial has no published prescreen form yet: publish one under Prescreen forms.'
          : 'Only published forms of the trial can be asked.'
      }
    >
      <Select {...registration} disabled={!trialId || formsQuery.isPending}>
        <option value="">
          {!trialId ? 'Choose a trial first' : formsQuery.isPending ? 'Loading forms…' : forms.length === 0 ? 'No published forms' : 'Choose a form'}
        </option>
        {forms.map((item) => (
          <option key={item.id} value={item.id}>
            {item.name} (v{item.version}
            {item.status === 'published' ? '' : `, ${item.status}`})
          </option>
        ))}
      </Select>
    </Field>
  );
}

/** The languages the agent speaks, one checkbox each. */
export function LanguagesField({ id, error, registration }: { id: string; error?: string; registration: UseFormRegisterReturn }) {
  return (
    <fieldset className="grid gap-2" aria-describedby={error ? id : undefined}>
      <legend className="mb-1 text-sm font-medium text-slate-800">Languages</legend>
      <div className="flex gap-4">
        {LANGUAGES.map((language) => (
          <Check key={language} label={LANGUAGE_LABELS[language] ?? language} value={language} {...registration} />
        ))}
      </div>
      <FieldError id={id}>{error}</FieldError>
    </fieldset>
  );
}

/** A message in English and, optionally, in Spanish. */
export function BilingualField({
  label,
  en,
  es,
}: {
  label: string;
  en: { error?: string; registration: UseFormRegisterReturn };
  es: { error?: string; registration: UseFormRegisterReturn };
}) {
  return (
    <>
      <Field label={`${label} (English)`} error={en.error}>
        <Textarea rows={3} {...en.registration} />
      </Field>
      <Field label={`${label} (Spanish)`} error={es.error} hint="Optional: English is used without it.">
        <Textarea rows={3} lang="es" {...es.registration} />
      </Field>
    </>
  );
}
