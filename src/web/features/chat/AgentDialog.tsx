import { zodResolver } from '@hookform/resolvers/zod';
import { forwardRef, useMemo, useState, type InputHTMLAttributes } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { CHAT_NEXT_STEPS, CreateChatAgentSchema, type ChatAgent, type CreateChatAgentInput } from '../../../contract/chat';
import { LANGUAGES } from '../../../contract/prescreen-forms';
import { Combobox } from '../../components/Combobox';
import { Dialog, DialogFooter } from '../../components/dialogs';
import { Textarea } from '../../components/Textarea';
import { Field, FieldError, Input, Select } from '../../components/ui';
import { FormError } from '../../components/FormError';
import { textUpTo } from '../../lib/limits';
import { errorMessage } from '../../lib/utils';
import { usePrescreenFormsQuery } from '../prescreen-forms/queries';
import { TRIAL_SEARCH_LABEL, TRIAL_SEARCH_PLACEHOLDER, trialOption } from '../trials/format';
import { useTrialsQuery } from '../trials/queries';
import { LANGUAGE_LABELS, NEXT_STEP_LABELS } from './format';
import { agentDialogTitle, type AgentDialogProps } from './dialogs';
import { useSaveChatAgent } from './queries';

const fields = CreateChatAgentSchema.shape;
const text = (label: string) => textUpTo(fields.greeting.shape.en, label);

const AgentFormSchema = z.object({
  name: textUpTo(fields.name, 'Name').min(1, 'Enter a name'),
  trialId: z.string().min(1, 'Choose a trial'),
  prescreenFormId: z.string().min(1, 'Choose a published prescreen form'),
  greetingEn: text('Greeting').min(1, 'Enter the English greeting'),
  greetingEs: text('Greeting'),
  closingEn: text('Closing message').min(1, 'Enter the English closing message'),
  closingEs: text('Closing message'),
  languages: z.array(z.enum(LANGUAGES)).min(1, 'Choose at least one language'),
  requirePhoneVerification: z.boolean(),
  nextStep: z.enum(CHAT_NEXT_STEPS),
  active: z.boolean(),
});
type AgentForm = z.infer<typeof AgentFormSchema>;

const DEFAULT_GREETING = {
  en: 'Hi! I can help you find out whether our study could be right for you. It takes about five minutes.',
  es: '¡Hola! Puedo ayudarle a saber si nuestro estudio podría ser adecuado para usted. Toma unos cinco minutos.',
};
const DEFAULT_CLOSING = { en: 'Thank you for answering our questions.', es: 'Gracias por responder nuestras preguntas.' };

function defaultsOf(agent: ChatAgent | undefined): AgentForm {
  return {
    name: agent?.name ?? '',
    trialId: agent?.trialId ?? '',
    prescreenFormId: agent?.prescreenFormId ?? '',
    greetingEn: agent?.greeting.en ?? DEFAULT_GREETING.en,
    greetingEs: agent ? (agent.greeting.es ?? '') : DEFAULT_GREETING.es,
    closingEn: agent?.closingMessage.en ?? DEFAULT_CLOSING.en,
    closingEs: agent ? (agent.closingMessage.es ?? '') : DEFAULT_CLOSING.es,
    languages: agent?.languages ?? ['en', 'es'],
    requirePhoneVerification: agent?.requirePhoneVerification ?? true,
    nextStep: agent?.nextStep ?? 'callback',
    active: agent?.active ?? true,
  };
}

function toInput(values: AgentForm): CreateChatAgentInput {
  return {
    name: values.name.trim(),
    type: 'PRESCREEN',
    trialId: values.trialId,
    prescreenFormId: values.prescreenFormId,
    greeting: { en: values.greetingEn.trim(), ...(values.greetingEs.trim() ? { es: values.greetingEs.trim() } : {}) },
    closingMessage: { en: values.closingEn.trim(), ...(values.closingEs.trim() ? { es: values.closingEs.trim() } : {}) },
    languages: values.languages,
    requirePhoneVerification: values.requirePhoneVerification,
    nextStep: values.nextStep,
    active: values.active,
  };
}

const Check = forwardRef<HTMLInputElement, { label: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>>(function Check(
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

/**
 * Create a chat agent (no `agent`) or edit one: the dialog's content, loaded when it opens and mounted on every
 * opening (`AgentDialog` in ./dialogs holds the trigger and the open state).
 */
export function AgentDialog({ agent, onOpenChange }: AgentDialogProps) {
  const editing = Boolean(agent);
  const setOpen = (next: boolean) => onOpenChange?.(next);
  const [serverError, setServerError] = useState<string | null>(null);
  const save = useSaveChatAgent();
  const form = useForm<AgentForm>({ resolver: zodResolver(AgentFormSchema), defaultValues: defaultsOf(agent) });
  const { errors } = form.formState;
  const trialId = form.watch('trialId');
  const trialsQuery = useTrialsQuery();
  const trials = useMemo(() => trialsQuery.data?.trials ?? [], [trialsQuery.data]);
  const trialOptions = useMemo(() => trials.map(trialOption), [trials]);
  const formsQuery = usePrescreenFormsQuery(trialId ? { trialId } : {});
  const forms = (trialId ? (formsQuery.data?.prescreenForms ?? []) : []).filter(
    (item) => item.trialId === trialId && (item.status === 'published' || item.id === agent?.prescreenFormId),
  );

  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      const saved = await save.mutateAsync({ id: agent?.id, input: toInput(values) });
      toast.success(editing ? `Saved ${saved.name}` : `Created ${saved.name}`);
      setOpen(false);
    } catch (error) {
      setServerError(errorMessage(error));
    }
  });

  return (
    <Dialog
      title={agentDialogTitle({ agent })}
      description="The agent asks a trial’s published prescreen form on the organization’s public chat page, one question at a time."
    >
      <form onSubmit={(event) => void onSubmit(event).catch(() => undefined)} noValidate className="grid gap-4">
        <Field label="Name" error={errors.name?.message}>
          <Input autoComplete="off" {...form.register('name')} />
        </Field>
        <Controller
          control={form.control}
          name="trialId"
          render={({ field }) => (
            <Field label="Trial" error={errors.trialId?.message}>
              <Combobox
                ref={field.ref}
                options={trialOptions}
                value={field.value}
                onChange={(next) => {
                  if (next === field.value) return;
                  field.onChange(next);
                  form.setValue('prescreenFormId', '');
                }}
                disabled={trialsQuery.isPending || trials.length === 0}
                placeholder={trialsQuery.isPending ? 'Loading trials…' : trials.length === 0 ? 'No trials yet' : 'Choose a trial'}
                searchLabel={TRIAL_SEARCH_LABEL}
                searchPlaceholder={TRIAL_SEARCH_PLACEHOLDER}
                listLabel="Trials"
                noun="trials"
              />
            </Field>
          )}
        />
        <Field
          label="Prescreen form"
          error={errors.prescreenFormId?.message}
          hint={
            trialId && !formsQuery.isPending && forms.length === 0
              ? 'This trial has no published prescreen form yet: publish one under Prescreen forms.'
              : 'Only published forms of the trial can be asked.'
          }
        >
          <Select {...form.register('prescreenFormId')} disabled={!trialId || formsQuery.isPending}>
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
        <div className="grid gap-4">
          <Field label="Greeting (English)" error={errors.greetingEn?.message}>
            <Textarea rows={3} {...form.register('greetingEn')} />
          </Field>
          <Field label="Greeting (Spanish)" error={errors.greetingEs?.message} hint="Optional: English is used without it.">
            <Textarea rows={3} lang="es" {...form.register('greetingEs')} />
          </Field>
          <Field label="Closing message (English)" error={errors.closingEn?.message}>
            <Textarea rows={3} {...form.register('closingEn')} />
          </Field>
          <Field label="Closing message (Spanish)" error={errors.closingEs?.message} hint="Optional: English is used without it.">
            <Textarea rows={3} lang="es" {...form.register('closingEs')} />
          </Field>
        </div>
        <fieldset className="grid gap-2" aria-describedby={errors.languages ? 'agent-languages-error' : undefined}>
          <legend className="mb-1 text-sm font-medium text-slate-800">Languages</legend>
          <div className="flex gap-4">
            {LANGUAGES.map((language) => (
              <Check key={language} label={LANGUAGE_LABELS[language] ?? language} value={language} {...form.register('languages')} />
            ))}
          </div>
          <FieldError id="agent-languages-error">{errors.languages?.message}</FieldError>
        </fieldset>
        <Field label="Next step" hint="What the visitor is told after a matching chat.">
          <Select {...form.register('nextStep')}>
            {CHAT_NEXT_STEPS.map((step) => (
              <option key={step} value={step}>
                {NEXT_STEP_LABELS[step]}
              </option>
            ))}
          </Select>
        </Field>
        <Check
          label="Require phone verification"
          hint="Visitors confirm their mobile number with a 6-digit code sent by SMS before the questions."
          {...form.register('requirePhoneVerification')}
        />
        <Check label="Active" hint="Only active agents answer on the public chat page." {...form.register('active')} />
        <FormError>{serverError}</FormError>
        <DialogFooter onCancel={() => setOpen(false)} submitLabel={editing ? 'Save agent' : 'Create agent'} pending={save.isPending} />
      </form>
    </Dialog>
  );
}
