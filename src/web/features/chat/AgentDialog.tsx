import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { CHAT_NEXT_STEPS, CreateChatAgentSchema, type ChatAgent, type CreateChatAgentInput } from '../../../contract/chat';
import { LANGUAGES } from '../../../contract/prescreen-forms';
import { Dialog, DialogFooter } from '../../components/dialogs';
import { Field, Input, Select } from '../../components/ui';
import { FormError } from '../../components/FormError';
import { textUpTo } from '../../lib/limits';
import { useFormSubmit } from '../../lib/form-errors';
import { BilingualField, bilingual, Check, LanguagesField, PrescreenFormField, TrialField, useAgentTrialChoices } from './agent-fields';
import { NEXT_STEP_LABELS } from './format';
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
    greeting: bilingual(values.greetingEn, values.greetingEs),
    closingMessage: bilingual(values.closingEn, values.closingEs),
    languages: values.languages,
    requirePhoneVerification: values.requirePhoneVerification,
    nextStep: values.nextStep,
    active: values.active,
  };
}

/**
 * Create a chat agent (no `agent`) or edit one: the dialog's content, loaded when it opens and mounted on every
 * opening (`AgentDialog` in ./dialogs holds the trigger and the open state).
 */
export function AgentDialog({ agent, orgs, onOpenChange }: AgentDialogProps) {
  const editing = Boolean(agent);
  const setOpen = (next: boolean) => onOpenChange?.(next);
  const save = useSaveChatAgent();
  const form = useForm<AgentForm>({ resolver: zodResolver(AgentFormSchema), defaultValues: defaultsOf(agent) });
  const { errors } = form.formState;
  const trialId = form.watch('trialId');
  // An agent belongs to its trial's organization: editing offers that organization's trials only.
  const choices = useAgentTrialChoices(trialId, agent?.prescreenFormId, agent ? [agent.organizationId] : orgs);

  const { serverError, onSubmit } = useFormSubmit(form, async (values) => {
    const saved = await save.mutateAsync({ id: agent?.id, input: toInput(values) });
    toast.success(editing ? `Saved ${saved.name}` : `Created ${saved.name}`);
    setOpen(false);
  });

  return (
    <Dialog
      title={agentDialogTitle({ agent })}
      description="The agent asks a trial’s published prescreen form on the organization’s public chat page, one question at a time."
    >
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <Field label="Name" error={errors.name?.message}>
          <Input autoComplete="off" {...form.register('name')} />
        </Field>
        <TrialField form={form} choices={choices} />
        <PrescreenFormField choices={choices} error={errors.prescreenFormId?.message} registration={form.register('prescreenFormId')} />
        <div className="grid gap-4">
          <BilingualField
            label="Greeting"
            en={{ error: errors.greetingEn?.message, registration: form.register('greetingEn') }}
            es={{ error: errors.greetingEs?.message, registration: form.register('greetingEs') }}
          />
          <BilingualField
            label="Closing message"
            en={{ error: errors.closingEn?.message, registration: form.register('closingEn') }}
            es={{ error: errors.closingEs?.message, registration: form.register('closingEs') }}
          />
        </div>
        <LanguagesField id="agent-languages-error" error={errors.languages?.message} registration={form.register('languages')} />
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
