import { zodResolver } from '@hookform/resolvers/zod';
import { Pencil, Plus } from 'lucide-react';
import { forwardRef, useState, type InputHTMLAttributes } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { LANGUAGES } from '../../../contract/prescreen-forms';
import type { CreateVoiceAgentInput, UpdateVoiceAgentInput, VoiceAgent, VoiceAgentType } from '../../../contract/voice';
import { Dialog } from '../../components/dialogs';
import { Button, Field, Input, Select } from '../../components/ui';
import { errorMessage } from '../../lib/utils';
import { Textarea } from '../chat/AgentDialog';
import { LANGUAGE_LABELS } from '../chat/format';
import { usePrescreenFormsQuery } from '../prescreen-forms/queries';
import { useTrialsQuery } from '../trials/queries';
import { AGENT_TYPE_LABELS, DEFAULT_VOICE } from './format';
import { useSaveVoiceAgent } from './queries';

const HOUR = /^([01]\d|2[0-3]):[0-5]\d$/;
const message = (label: string) => z.string().trim().max(1000, `${label} must be at most 1000 characters`);

const VoiceAgentFormSchema = z
  .object({
    name: z.string().trim().min(1, 'Enter a name').max(100, 'Name must be at most 100 characters'),
    type: z.enum(['PRESCREEN', 'SITE_VISIT_SCHEDULING']),
    trialId: z.string(),
    prescreenFormId: z.string(),
    languages: z.array(z.enum(LANGUAGES)).min(1, 'Choose at least one language'),
    voice: z.string().trim().min(1, 'Enter a voice').max(100),
    firstEn: message('First message').min(1, 'Enter the English first message'),
    firstEs: message('First message'),
    voicemailEn: message('Voicemail message').min(1, 'Enter the English voicemail message'),
    voicemailEs: message('Voicemail message'),
    callingHoursStart: z.string().regex(HOUR, 'Use HH:mm'),
    callingHoursEnd: z.string().regex(HOUR, 'Use HH:mm'),
    fromNumber: z
      .string()
      .trim()
      .regex(/^(\+[1-9]\d{7,14})?$/, 'Use an E.164 number, e.g. +12125550100'),
    active: z.boolean(),
  })
  .refine((value) => value.callingHoursStart < value.callingHoursEnd, {
    message: 'Calling hours must start before they end',
    path: ['callingHoursEnd'],
  })
  .refine((value) => value.type !== 'PRESCREEN' || value.trialId, {
    message: 'Choose a trial',
    path: ['trialId'],
  })
  .refine((value) => value.type !== 'PRESCREEN' || value.prescreenFormId, {
    message: 'Choose a published prescreen form',
    path: ['prescreenFormId'],
  });
type VoiceAgentForm = z.infer<typeof VoiceAgentFormSchema>;

const DEFAULT_FIRST = {
  en: 'Hello, this is the research team calling about a study you showed interest in. Do you have five minutes?',
  es: 'Hola, le llama el equipo de investigación sobre un estudio que le interesó. ¿Tiene cinco minutos?',
};
const DEFAULT_VOICEMAIL = {
  en: 'Hello, this is the research team about a study you showed interest in. We will call you again soon.',
  es: 'Hola, le llama el equipo de investigación sobre un estudio que le interesó. Le llamaremos de nuevo pronto.',
};

function defaultsOf(agent: VoiceAgent | undefined, type: VoiceAgentType): VoiceAgentForm {
  return {
    name: agent?.name ?? '',
    type: agent?.type ?? type,
    trialId: agent?.trialId ?? '',
    prescreenFormId: agent?.prescreenFormId ?? '',
    languages: agent?.languages.filter((language): language is (typeof LANGUAGES)[number] => (LANGUAGES as readonly string[]).includes(language)) ?? ['en', 'es'],
    voice: agent?.voice ?? DEFAULT_VOICE,
    firstEn: agent?.firstMessage.en ?? DEFAULT_FIRST.en,
    firstEs: agent ? (agent.firstMessage.es ?? '') : DEFAULT_FIRST.es,
    voicemailEn: agent?.voicemailMessage.en ?? DEFAULT_VOICEMAIL.en,
    voicemailEs: agent ? (agent.voicemailMessage.es ?? '') : DEFAULT_VOICEMAIL.es,
    callingHoursStart: agent?.callingHoursStart ?? '09:00',
    callingHoursEnd: agent?.callingHoursEnd ?? '20:00',
    fromNumber: agent?.fromNumber ?? '',
    active: agent?.active ?? true,
  };
}

const bilingual = (en: string, es: string) => ({
  en: en.trim(),
  ...(es.trim() ? { es: es.trim() } : {}),
});

function toInput(values: VoiceAgentForm): CreateVoiceAgentInput {
  const prescreen = values.type === 'PRESCREEN';
  return {
    name: values.name.trim(),
    type: values.type,
    trialId: values.trialId || null,
    prescreenFormId: prescreen ? values.prescreenFormId || null : null,
    languages: values.languages,
    voice: values.voice.trim(),
    firstMessage: bilingual(values.firstEn, values.firstEs),
    voicemailMessage: bilingual(values.voicemailEn, values.voicemailEs),
    callingHoursStart: values.callingHoursStart,
    callingHoursEnd: values.callingHoursEnd,
    fromNumber: values.fromNumber.trim() || null,
    active: values.active,
  };
}

function toUpdate(values: VoiceAgentForm): UpdateVoiceAgentInput {
  const { type: _type, ...rest } = toInput(values);
  return rest;
}

const Check = forwardRef<HTMLInputElement, { label: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>>(function Check({ label, hint, ...props }, ref) {
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

/** Create a voice agent (no `agent`, of `type`) or edit one. */
export function VoiceAgentDialog({ agent, type = 'PRESCREEN', open, onOpenChange }: { agent?: VoiceAgent; type?: VoiceAgentType; open?: boolean; onOpenChange?: (open: boolean) => void }) {
  const editing = Boolean(agent);
  const [ownOpen, setOwnOpen] = useState(false);
  const isOpen = open ?? ownOpen;
  const setOpen = onOpenChange ?? setOwnOpen;
  const [serverError, setServerError] = useState<string | null>(null);
  const save = useSaveVoiceAgent();
  const form = useForm<VoiceAgentForm>({
    resolver: zodResolver(VoiceAgentFormSchema),
    defaultValues: defaultsOf(agent, type),
  });
  const errors = form.formState.errors;
  const agentType = form.watch('type');
  const trialId = form.watch('trialId');
  const trialsQuery = useTrialsQuery();
  const trials = trialsQuery.data?.trials ?? [];
  const formsQuery = usePrescreenFormsQuery(trialId ? { trialId } : {});
  const forms = (trialId ? (formsQuery.data?.prescreenForms ?? []) : []).filter((item) => item.trialId === trialId && (item.status === 'published' || item.id === agent?.prescreenFormId));
  const prescreen = agentType === 'PRESCREEN';

  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      const saved = await save.mutateAsync(agent ? { id: agent.id, input: toUpdate(values) } : { input: toInput(values) });
      toast.success(editing ? `Saved ${saved.name}` : `Created ${saved.name}`);
      setOpen(false);
    } catch (error) {
      setServerError(errorMessage(error));
    }
  });

  const trialField = form.register('trialId');
  return (
    <Dialog
      open={isOpen}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          form.reset(defaultsOf(agent, type));
          setServerError(null);
        }
      }}
      title={editing ? `Edit ${agent?.name}` : 'New voice agent'}
      description="The agent phones candidates: a prescreen agent asks a trial’s published prescreen form; a scheduling agent books the site visit."
      trigger={
        open === undefined ? (
          <Button>
            {editing ? <Pencil aria-hidden="true" className="h-4 w-4" /> : <Plus aria-hidden="true" className="h-4 w-4" />}
            {editing ? 'Edit' : 'New voice agent'}
          </Button>
        ) : undefined
      }
    >
      <form onSubmit={(event) => void onSubmit(event).catch(() => undefined)} noValidate className="grid gap-4">
        <Field label="Name" error={errors.name?.message}>
          <Input autoComplete="off" {...form.register('name')} />
        </Field>
        <Field label="Type" hint={editing ? 'The type of an existing agent cannot change.' : undefined}>
          <Select {...form.register('type')} disabled={editing}>
            {(Object.keys(AGENT_TYPE_LABELS) as VoiceAgentType[]).map((value) => (
              <option key={value} value={value}>
                {AGENT_TYPE_LABELS[value]}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Trial" error={errors.trialId?.message} hint={prescreen ? undefined : 'Optional for scheduling agents.'}>
          <Select
            {...trialField}
            disabled={trialsQuery.isPending}
            onChange={(event) => {
              void trialField.onChange(event);
              form.setValue('prescreenFormId', '');
            }}
          >
            <option value="">{trialsQuery.isPending ? 'Loading trials…' : trials.length === 0 ? 'No trials yet' : prescreen ? 'Choose a trial' : 'No trial'}</option>
            {trials.map((trial) => (
              <option key={trial.id} value={trial.id}>
                {trial.publicTitle || trial.title}
              </option>
            ))}
          </Select>
        </Field>
        {prescreen && (
          <Field
            label="Prescreen form"
            error={errors.prescreenFormId?.message}
            hint={trialId && !formsQuery.isPending && forms.length === 0 ? 'This trial has no published prescreen form yet: publish one under Prescreen forms.' : 'Only published forms of the trial can be asked.'}
          >
            <Select {...form.register('prescreenFormId')} disabled={!trialId || formsQuery.isPending}>
              <option value="">{!trialId ? 'Choose a trial first' : formsQuery.isPending ? 'Loading forms…' : forms.length === 0 ? 'No published forms' : 'Choose a form'}</option>
              {forms.map((item) => (
                <option key={item.id} value={item.id}>
                  {item.name} (v{item.version}
                  {item.status === 'published' ? '' : `, ${item.status}`})
                </option>
              ))}
            </Select>
          </Field>
        )}
        <fieldset className="grid gap-2" aria-describedby={errors.languages ? 'voice-agent-languages-error' : undefined}>
          <legend className="mb-1 text-sm font-medium text-slate-800">Languages</legend>
          <div className="flex gap-4">
            {LANGUAGES.map((language) => (
              <Check key={language} label={LANGUAGE_LABELS[language] ?? language} value={language} {...form.register('languages')} />
            ))}
          </div>
          {errors.languages && (
            <p id="voice-agent-languages-error" className="text-sm text-red-700">
              {errors.languages.message}
            </p>
          )}
        </fieldset>
        <Field label="Voice" error={errors.voice?.message} hint="The provider's voice id; “default” uses the provider's default.">
          <Input autoComplete="off" {...form.register('voice')} />
        </Field>
        <Field label="First message (English)" error={errors.firstEn?.message}>
          <Textarea rows={3} {...form.register('firstEn')} />
        </Field>
        <Field label="First message (Spanish)" error={errors.firstEs?.message} hint="Optional: English is used without it.">
          <Textarea rows={3} lang="es" {...form.register('firstEs')} />
        </Field>
        <Field label="Voicemail message (English)" error={errors.voicemailEn?.message}>
          <Textarea rows={3} {...form.register('voicemailEn')} />
        </Field>
        <Field label="Voicemail message (Spanish)" error={errors.voicemailEs?.message} hint="Optional: English is used without it.">
          <Textarea rows={3} lang="es" {...form.register('voicemailEs')} />
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Calling hours start" error={errors.callingHoursStart?.message} hint="In the candidate's time zone.">
            <Input type="time" {...form.register('callingHoursStart')} />
          </Field>
          <Field label="Calling hours end" error={errors.callingHoursEnd?.message} hint="Never later than 21:00.">
            <Input type="time" {...form.register('callingHoursEnd')} />
          </Field>
        </div>
        <Field label="From number" error={errors.fromNumber?.message} hint="Optional, E.164: the number calls come from and inbound calls reach.">
          <Input type="tel" autoComplete="off" placeholder="+12125550100" {...form.register('fromNumber')} />
        </Field>
        <Check label="Active" hint="Calls are placed with the most recently updated active agent of the type." {...form.register('active')} />
        {serverError && (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
            {serverError}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : editing ? 'Save agent' : 'Create agent'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
