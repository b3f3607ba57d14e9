import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Plus, X } from 'lucide-react';
import { useState } from 'react';
import { useFieldArray, useForm, type FieldPath, type UseFormReturn } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { LANGUAGES } from '../../../contract/prescreen-forms';
import {
  CreateVoiceAgentSchema,
  WEEKDAYS,
  type CreateVoiceAgentInput,
  type UpdateVoiceAgentInput,
  type VisitSchedule,
  type VoiceAgent,
  type VoiceAgentType,
} from '../../../contract/voice';
import { VOICE_PURPOSES } from '../../../contract/phone-numbers';
import { ChoiceField } from '../../components/ChoiceField';
import { Dialog, DialogFooter } from '../../components/dialogs';
import { SitePicker } from '../../components/SitePicker';
import { ownSitesFirst, siteLabel, type TrialSite } from '../../../contract/trials';
import { useActiveOrganization } from '../../lib/active-organization';
import { textUpTo } from '../../lib/limits';
import { invalidateOrg } from '../../lib/query';
import { usePhoneNumbersQuery } from '../phone-numbers/queries';
import { Button, Field, FieldError, Input, Select } from '../../components/ui';
import { FormError } from '../../components/FormError';
import { BilingualField, bilingual, Check, LanguagesField, PrescreenFormField, TrialField, useAgentTrialChoices } from '../chat/agent-fields';
import { apiProblem } from '../../lib/form-errors';
import { useTrialQuery } from '../trials/queries';
import { AGENT_TYPE_LABELS, DEFAULT_VOICE } from './format';
import { voiceAgentDialogTitle, type VoiceAgentDialogProps } from './dialogs';
import { useSaveVoiceAgent } from './queries';

const HOUR = /^([01]\d|2[0-3]):[0-5]\d$/;
const fields = CreateVoiceAgentSchema.shape;
const message = (label: string) => textUpTo(fields.firstMessage.shape.en, label);

type Weekday = (typeof WEEKDAYS)[number];
const WEEKDAY_LABELS: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

/** The visit schedule as edited (numbers from number inputs may be NaN while empty; times are objects for useFieldArray). */
const ScheduleFormSchema = z.object({
  sites: z.array(z.string()),
  weekdays: z.array(z.enum(WEEKDAYS)),
  times: z.array(z.object({ value: z.string() })),
  durationMinutes: z.number({ error: 'Enter a number' }),
  daysAhead: z.number({ error: 'Enter a number' }),
  minNoticeHours: z.number({ error: 'Enter a number' }),
});
type ScheduleForm = z.infer<typeof ScheduleFormSchema>;

const wholeIn = (value: number, min: number, max: number) => Number.isInteger(value) && value >= min && value <= max;

/** The rules of VisitScheduleSchema (src/contract/voice.ts), with messages beside the fields. */
function checkSchedule(schedule: ScheduleForm, ctx: z.RefinementCtx) {
  const issue = (path: Array<string | number>, message: string) => ctx.addIssue({ code: 'custom', path: ['schedule', ...path], message });
  if (schedule.sites.length === 0) issue(['sites'], 'Choose at least one site');
  if (schedule.weekdays.length === 0) issue(['weekdays'], 'Choose at least one weekday');
  if (schedule.times.length === 0) issue(['times'], 'Add at least one start time');
  if (schedule.times.length > 48) issue(['times'], 'At most 48 start times');
  const seen = new Set<string>();
  schedule.times.forEach((time, index) => {
    if (!HOUR.test(time.value)) issue(['times', index, 'value'], 'Use HH:mm (00:00-23:59)');
    else if (seen.has(time.value)) issue(['times', index, 'value'], 'This start time is listed twice');
    seen.add(time.value);
  });
  if (!wholeIn(schedule.durationMinutes, 5, 480)) issue(['durationMinutes'], 'Enter whole minutes from 5 to 480');
  if (!wholeIn(schedule.daysAhead, 1, 90)) issue(['daysAhead'], 'Enter whole days from 1 to 90');
  if (!wholeIn(schedule.minNoticeHours, 0, 336)) issue(['minNoticeHours'], 'Enter whole hours from 0 to 336');
}

const VoiceAgentFormSchema = z
  .object({
    name: textUpTo(fields.name, 'Name').min(1, 'Enter a name'),
    type: z.enum(['PRESCREEN', 'SITE_VISIT_SCHEDULING']),
    trialId: z.string(),
    prescreenFormId: z.string(),
    languages: z.array(z.enum(LANGUAGES)).min(1, 'Choose at least one language'),
    voice: textUpTo(fields.voice, 'Voice').min(1, 'Enter a voice'),
    firstEn: message('First message').min(1, 'Enter the English first message'),
    firstEs: message('First message'),
    voicemailEn: message('Voicemail message').min(1, 'Enter the English voicemail message'),
    voicemailEs: message('Voicemail message'),
    callingHoursStart: z.string().regex(HOUR, 'Use HH:mm'),
    callingHoursEnd: z.string().regex(HOUR, 'Use HH:mm'),
    /** One of the organization's registry numbers (chosen from a list), or '' for none. */
    fromNumber: z.string(),
    active: z.boolean(),
    schedule: ScheduleFormSchema,
  })
  .superRefine((value, ctx) => {
    if (value.type === 'SITE_VISIT_SCHEDULING') checkSchedule(value.schedule, ctx);
  })
  .refine((value) => value.callingHoursStart < value.callingHoursEnd, {
    message: 'Calling hours must start before they end',
    path: ['callingHoursEnd'],
  })
  .refine((value) => value.trialId, {
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

const DEFAULT_SCHEDULE: VisitSchedule = {
  sites: [],
  weekdays: ['mon', 'tue', 'wed', 'thu', 'fri'],
  times: ['09:00', '11:00', '14:00'],
  durationMinutes: 60,
  daysAhead: 14,
  minNoticeHours: 24,
};

/** The agent's stored schedule, read leniently (an agent saved before schedules were checked may hold anything). */
function scheduleOf(agent: VoiceAgent | undefined): ScheduleForm {
  const stored = (agent?.schedule ?? {}) as Record<string, unknown>;
  const strings = (value: unknown) => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined);
  const number = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);
  const weekdays = strings(stored.weekdays)?.filter((day): day is Weekday => (WEEKDAYS as readonly string[]).includes(day));
  return {
    sites: strings(stored.sites) ?? DEFAULT_SCHEDULE.sites,
    weekdays: weekdays ?? DEFAULT_SCHEDULE.weekdays,
    times: (strings(stored.times) ?? DEFAULT_SCHEDULE.times).map((value) => ({ value })),
    durationMinutes: number(stored.durationMinutes, DEFAULT_SCHEDULE.durationMinutes),
    daysAhead: number(stored.daysAhead, DEFAULT_SCHEDULE.daysAhead),
    minNoticeHours: number(stored.minNoticeHours, DEFAULT_SCHEDULE.minNoticeHours),
  };
}

function toSchedule(schedule: ScheduleForm): VisitSchedule {
  return {
    sites: schedule.sites,
    weekdays: WEEKDAYS.filter((day) => schedule.weekdays.includes(day)),
    times: [...new Set(schedule.times.map((time) => time.value))].sort(),
    durationMinutes: schedule.durationMinutes,
    daysAhead: schedule.daysAhead,
    minNoticeHours: schedule.minNoticeHours,
  };
}

function defaultsOf(agent: VoiceAgent | undefined, type: VoiceAgentType): VoiceAgentForm {
  return {
    schedule: scheduleOf(agent),
    name: agent?.name ?? '',
    type: agent?.type ?? type,
    trialId: agent?.trialId ?? '',
    prescreenFormId: agent?.prescreenFormId ?? '',
    languages: agent?.languages.filter((language): language is (typeof LANGUAGES)[number] => (LANGUAGES as readonly string[]).includes(language)) ?? [
      'en',
      'es',
    ],
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
    ...(prescreen ? {} : { schedule: toSchedule(values.schedule) }),
  };
}

type FormField = FieldPath<VoiceAgentForm>;
const TOP_FIELDS: Record<string, FormField> = {
  name: 'name',
  type: 'type',
  trialId: 'trialId',
  prescreenFormId: 'prescreenFormId',
  languages: 'languages',
  voice: 'voice',
  'firstMessage.en': 'firstEn',
  'firstMessage.es': 'firstEs',
  firstMessage: 'firstEn',
  'voicemailMessage.en': 'voicemailEn',
  'voicemailMessage.es': 'voicemailEs',
  voicemailMessage: 'voicemailEn',
  callingHoursStart: 'callingHoursStart',
  callingHoursEnd: 'callingHoursEnd',
  fromNumber: 'fromNumber',
  active: 'active',
  'schedule.sites': 'schedule.sites',
  'schedule.weekdays': 'schedule.weekdays',
  'schedule.times': 'schedule.times',
  'schedule.durationMinutes': 'schedule.durationMinutes',
  'schedule.daysAhead': 'schedule.daysAhead',
  'schedule.minNoticeHours': 'schedule.minNoticeHours',
};

/** The form field a server detail path names ("schedule.times.2" -> the third start time); 'schedule' alone is the schedule as a whole. */
function fieldOfPath(path: string): FormField | 'schedule' | undefined {
  if (TOP_FIELDS[path]) return TOP_FIELDS[path];
  const time = /^schedule\.times\.(\d+)$/.exec(path);
  if (time) return `schedule.times.${Number(time[1])}.value` as FormField;
  const listItem = /^(schedule\.(?:sites|weekdays)|languages)\.\d+$/.exec(path);
  if (listItem) return TOP_FIELDS[listItem[1]!];
  if (path === 'schedule') return 'schedule';
  return undefined;
}

/**
 * Puts the server's 400 details beside their fields; returns what could not be placed (and the schedule-wide
 * message). Without details, "path: message; path: message" in the message is read the same way.
 */
function placeServerErrors(form: UseFormReturn<VoiceAgentForm>, error: unknown): { rest: string | null; schedule: string | null } {
  const problem = apiProblem(error);
  let details = problem.details;
  if (details.length === 0) {
    const parsed = problem.message.split('; ').map((part) => /^([\w.]+): (.+)$/.exec(part));
    if (parsed.every(Boolean)) details = parsed.map((match) => ({ path: match![1]!, message: match![2]! }));
  }
  // The message often says more than the detail ("Not a site of this trial: X (sites: ...)"): prefer its sentence.
  const sentences = new Map<string, string>();
  for (const part of problem.message.split('; ')) {
    const match = /^([\w.]+): (.+)$/.exec(part);
    if (match && !sentences.has(match[1]!)) sentences.set(match[1]!, match[2]!);
  }
  const rest: string[] = [];
  let schedule: string | null = null;
  for (const detail of details) {
    const field = fieldOfPath(detail.path);
    const message = sentences.get(detail.path) ?? detail.message;
    if (field === 'schedule') schedule = schedule ? `${schedule}; ${message}` : message;
    else if (field) form.setError(field, { type: 'server', message }, { shouldFocus: false });
    else rest.push(`${detail.path}: ${detail.message}`);
  }
  if (details.length === 0) return { rest: problem.message, schedule };
  return { rest: rest.length ? rest.join('; ') : null, schedule };
}

function toUpdate(values: VoiceAgentForm): UpdateVoiceAgentInput {
  const { type: _type, ...rest } = toInput(values);
  return rest;
}

/**
 * The number the agent calls from and inbound calls reach: a select of the organization's voice numbers, with
 * loading, error and empty states (numbers are assigned by Cohortly, not typed here).
 */
function FromNumberField({ form, query }: { form: UseFormReturn<VoiceAgentForm>; query: ReturnType<typeof usePhoneNumbersQuery> }) {
  const error = form.formState.errors.fromNumber?.message;
  const numbers = (query.data?.phoneNumbers ?? []).filter((item) => VOICE_PURPOSES.includes(item.purpose));
  if (query.isPending) return <p className="text-sm text-slate-700">Loading your phone numbers…</p>;
  if (query.isError)
    return (
      <FormError className="flex items-center justify-between gap-2">
        Could not load your phone numbers.
        <Button variant="secondary" size="sm" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </FormError>
    );
  if (numbers.length === 0)
    return (
      <div className="grid gap-1.5">
        <p className="text-sm font-medium text-slate-800">From number</p>
        <p className="rounded-md border border-dashed border-slate-300 px-3 py-2 text-sm text-slate-700">No phone numbers yet: ask Cohortly to assign one.</p>
        <FieldError id="fromNumber-error">{error}</FieldError>
      </div>
    );
  return (
    <ChoiceField
      control={form.control}
      name="fromNumber"
      label="From number"
      error={error}
      hint="Your organization's numbers: calls come from it and inbound calls to it reach this agent."
      id="voice-agent-from-number"
      noneLabel="No number"
      options={numbers.map((item) => ({ value: item.number, label: item.number, hint: item.label ?? undefined }))}
    />
  );
}

/** What a scheduling agent may book: sites of the trial, weekdays, start times, duration and the booking window. */
function ScheduleEditor({ form, trialId, scheduleError }: { form: UseFormReturn<VoiceAgentForm>; trialId: string; scheduleError: string | null }) {
  const errors = form.formState.errors.schedule;
  const numberField = { valueAsNumber: true } as const;

  return (
    <fieldset className="grid gap-4 rounded-md border border-slate-200 p-4" data-testid="visit-schedule">
      <legend className="px-1 text-sm font-semibold text-slate-900">Visit schedule</legend>
      <p className="text-xs text-slate-700">
        The agent offers the earliest free slots that fit, in each site’s time zone; a slot already booked at a site is never offered.
      </p>
      {scheduleError && (
        <p role="alert" className="text-sm text-red-700">
          {scheduleError}
        </p>
      )}
      <fieldset className="grid gap-2" aria-describedby={errors?.sites ? 'voice-agent-sites-error' : undefined}>
        <legend className="mb-1 text-sm font-medium text-slate-800">Sites</legend>
        <ScheduleSites form={form} trialId={trialId} />
        <FieldError id="voice-agent-sites-error">{errors?.sites?.message}</FieldError>
      </fieldset>
      <fieldset className="grid gap-2" aria-describedby={errors?.weekdays ? 'voice-agent-weekdays-error' : undefined}>
        <legend className="mb-1 text-sm font-medium text-slate-800">Weekdays</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-2">
          {WEEKDAYS.map((day) => (
            <Check key={day} label={WEEKDAY_LABELS[day]} value={day} {...form.register('schedule.weekdays')} />
          ))}
        </div>
        <FieldError id="voice-agent-weekdays-error">{errors?.weekdays?.message}</FieldError>
      </fieldset>
      <StartTimes form={form} />
      <div className="grid gap-4 sm:grid-cols-3">
        <Field label="Visit length (minutes)" error={errors?.durationMinutes?.message}>
          <Input type="number" inputMode="numeric" min={5} max={480} step={5} {...form.register('schedule.durationMinutes', numberField)} />
        </Field>
        <Field label="Book up to (days ahead)" error={errors?.daysAhead?.message}>
          <Input type="number" inputMode="numeric" min={1} max={90} {...form.register('schedule.daysAhead', numberField)} />
        </Field>
        <Field label="Minimum notice (hours)" error={errors?.minNoticeHours?.message}>
          <Input type="number" inputMode="numeric" min={0} max={336} {...form.register('schedule.minNoticeHours', numberField)} />
        </Field>
      </div>
    </fieldset>
  );
}

/** The schedule's sites: the trial's sites to tick (ours and the chosen ones when there are many, with a picker for the rest). */
function ScheduleSites({ form, trialId }: { form: UseFormReturn<VoiceAgentForm>; trialId: string }) {
  const trialQuery = useTrialQuery(trialId || undefined);
  const trialSites = trialQuery.data?.sites ?? [];
  const chosen = form.watch('schedule.sites');
  // Entries are site ids (agents saved before sites had ids hold a name: it counts when one site has it).
  const resolve = (entry: string) =>
    trialSites.find((site) => site.id === entry) ??
    (trialSites.filter((site) => site.name === entry).length === 1 ? trialSites.find((site) => site.name === entry) : undefined);
  const chosenSites = chosen.map(resolve);
  const strays = chosen.filter((_entry, index) => !chosenSites[index]);
  const isChosen = (site: TrialSite) => chosenSites.some((item) => item?.id === site.id);
  // A short list shows every site; a long one (a sponsor's 131 sites) shows ours and the chosen, and a picker for the rest.
  const listed = trialSites.length <= 12 ? trialSites : ownSitesFirst(trialSites).filter((site) => site.isOwnSite || isChosen(site));
  if (!trialId) return <p className="text-sm text-slate-700">Choose a trial first: its sites are listed here.</p>;
  else if (trialQuery.isPending) return <p className="text-sm text-slate-700">Loading the trial’s sites…</p>;
  else if (trialQuery.isError) return <p className="text-sm text-red-800">Could not load the trial’s sites.</p>;
  else if (trialSites.length === 0 && strays.length === 0)
    return (
      <p className="text-sm text-slate-700">
        This trial has no sites yet.{' '}
        <Link to="/trials/$trialId" params={{ trialId }} className="text-blue-800 underline underline-offset-4">
          Add them on the trial’s page
        </Link>
        .
      </p>
    );
  else
    return (
      <div className="grid gap-1.5">
        {listed.map((site) => {
          const zoneless = !site.timeZone && !isChosen(site);
          const entry = chosen[chosenSites.findIndex((item) => item?.id === site.id)] ?? site.id;
          return (
            <Check
              key={site.id}
              label={siteLabel(site)}
              hint={
                zoneless
                  ? 'No time zone: give the site one on the trial’s page to book visits there.'
                  : [site.isOwnSite ? 'Ours' : null, site.timeZone?.replace(/_/g, ' ')].filter(Boolean).join(' · ') || undefined
              }
              value={entry}
              disabled={zoneless}
              {...form.register('schedule.sites')}
            />
          );
        })}
        {listed.length < trialSites.length && (
          <div className="grid gap-1.5">
            <span className="text-sm text-slate-800">Add a site ({trialSites.length} in all)</span>
            <SitePicker
              sites={trialSites}
              value={undefined}
              placeholder="Search the trial’s sites"
              isDisabled={(site) => (isChosen(site) ? 'Already chosen' : site.timeZone ? null : 'No time zone: set one on the trial’s page first')}
              onChange={(siteId) => form.setValue('schedule.sites', [...chosen, siteId], { shouldDirty: true, shouldValidate: form.formState.isSubmitted })}
            />
          </div>
        )}
        {strays.map((name) => (
          <Check key={name} label={name} hint="No longer a site of this trial: clear it." value={name} {...form.register('schedule.sites')} />
        ))}
      </div>
    );
}

/** The schedule's start times, local to each site: a row per time, and a button that adds the next hour. */
function StartTimes({ form }: { form: UseFormReturn<VoiceAgentForm> }) {
  const errors = form.formState.errors.schedule;
  const times = useFieldArray({ control: form.control, name: 'schedule.times' });
  const nextTime = () => {
    const last = times.fields.length ? form.getValues(`schedule.times.${times.fields.length - 1}.value`) : '08:00';
    const hour = HOUR.test(last) ? Math.min(Number(last.slice(0, 2)) + 1, 23) : 9;
    return `${String(hour).padStart(2, '0')}:${HOUR.test(last) ? last.slice(3) : '00'}`;
  };
  return (
    <fieldset className="grid gap-2" aria-describedby={errors?.times?.message ? 'voice-agent-times-error' : undefined}>
      <legend className="mb-1 text-sm font-medium text-slate-800">Start times</legend>
      <p className="text-xs text-slate-700">Local time at the site, HH:mm.</p>
      {times.fields.length > 0 && (
        <ul className="grid gap-2 sm:grid-cols-2">
          {times.fields.map((item, index) => {
            const error = errors?.times?.[index]?.value?.message;
            const id = `voice-agent-time-${index}`;
            return (
              <li key={item.id} className="grid gap-1">
                <div className="flex items-center gap-2">
                  <label htmlFor={id} className="sr-only">
                    Start time {index + 1}
                  </label>
                  <Input
                    id={id}
                    type="time"
                    className="w-36"
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? `${id}-error` : undefined}
                    {...form.register(`schedule.times.${index}.value`)}
                  />
                  <Button variant="ghost" size="icon" onClick={() => times.remove(index)} aria-label={`Remove start time ${index + 1}`}>
                    <X aria-hidden="true" className="h-4 w-4" />
                  </Button>
                </div>
                <FieldError id={`${id}-error`}>{error}</FieldError>
              </li>
            );
          })}
        </ul>
      )}
      <div>
        <Button variant="secondary" size="sm" disabled={times.fields.length >= 48} onClick={() => times.append({ value: nextTime() })}>
          <Plus aria-hidden="true" className="h-4 w-4" />
          Add start time
        </Button>
      </div>
      <FieldError id="voice-agent-times-error">{errors?.times?.message ?? errors?.times?.root?.message}</FieldError>
    </fieldset>
  );
}

/**
 * Create a voice agent (no `agent`, of `type`) or edit one: the dialog's content, loaded when it opens and
 * mounted on every opening (`VoiceAgentDialog` in ./dialogs holds the trigger and the open state).
 */
export function VoiceAgentDialog({ agent, type = 'PRESCREEN', orgs, onOpenChange }: VoiceAgentDialogProps) {
  const editing = Boolean(agent);
  const setOpen = (next: boolean) => onOpenChange?.(next);
  const [serverError, setServerError] = useState<string | null>(null);
  const [scheduleError, setScheduleError] = useState<string | null>(null);
  const save = useSaveVoiceAgent();
  const queryClient = useQueryClient();
  const form = useForm<VoiceAgentForm>({
    resolver: zodResolver(VoiceAgentFormSchema),
    defaultValues: defaultsOf(agent, type),
  });
  const errors = form.formState.errors;
  const agentType = form.watch('type');
  const trialId = form.watch('trialId');
  const { activeOrganizationId, organizations } = useActiveOrganization();
  // The organization the agent belongs to: its own, else the one chosen in the filter, else the active one. Its
  // trial, form and number must be that organization's, so only its trials are offered.
  const owner = agent?.organizationId ?? (orgs?.length === 1 ? orgs[0] : activeOrganizationId) ?? undefined;
  const ownerName = organizations.length > 1 ? organizations.find((org) => org.id === owner)?.name : undefined;
  const choices = useAgentTrialChoices(trialId, agent?.prescreenFormId, owner ? [owner] : undefined);
  const prescreen = agentType === 'PRESCREEN';
  // The agent calls from one of its organization's numbers (assigned by Cohortly in the phone-number registry).
  const numbersQuery = usePhoneNumbersQuery(owner);

  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    setScheduleError(null);
    try {
      const saved = await save.mutateAsync(
        agent ? { id: agent.id, input: toUpdate(values) } : { input: { ...toInput(values), ...(owner ? { organizationId: owner } : {}) } },
      );
      toast.success(editing ? `Saved ${saved.name}` : `Created ${saved.name}`);
      setOpen(false);
    } catch (error) {
      const { rest, schedule } = placeServerErrors(form, error);
      // A refusal about the trial's sites may come from a trial changed since it was read: read it again.
      if (values.trialId) void invalidateOrg(queryClient, undefined, ['trial', values.trialId]);
      setScheduleError(schedule);
      setServerError(rest ?? 'The agent was not saved: see the messages next to the fields.');
    }
  });

  return (
    <Dialog
      title={voiceAgentDialogTitle({ agent })}
      description="The agent phones candidates: a prescreen agent asks a trial’s published prescreen form; a scheduling agent books the site visit."
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
        <TrialField
          form={form}
          choices={choices}
          hint={
            [
              ownerName ? `Trials of ${ownerName}, the organization the agent belongs to.` : null,
              prescreen ? null : 'The trial whose site visits the agent books.',
            ]
              .filter(Boolean)
              .join(' ') || undefined
          }
          // Sites belong to a trial: a new trial starts with none chosen.
          onTrialChange={() => form.setValue('schedule.sites', [])}
        />
        {prescreen && <PrescreenFormField choices={choices} error={errors.prescreenFormId?.message} registration={form.register('prescreenFormId')} />}
        {!prescreen && <ScheduleEditor form={form} trialId={trialId} scheduleError={scheduleError} />}
        <LanguagesField id="voice-agent-languages-error" error={errors.languages?.message} registration={form.register('languages')} />
        <Field label="Voice" error={errors.voice?.message} hint="The provider's voice id; “default” uses the provider's default.">
          <Input autoComplete="off" {...form.register('voice')} />
        </Field>
        <BilingualField
          label="First message"
          en={{ error: errors.firstEn?.message, registration: form.register('firstEn') }}
          es={{ error: errors.firstEs?.message, registration: form.register('firstEs') }}
        />
        <BilingualField
          label="Voicemail message"
          en={{ error: errors.voicemailEn?.message, registration: form.register('voicemailEn') }}
          es={{ error: errors.voicemailEs?.message, registration: form.register('voicemailEs') }}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Calling hours start" error={errors.callingHoursStart?.message} hint="In the candidate's time zone.">
            <Input type="time" {...form.register('callingHoursStart')} />
          </Field>
          <Field label="Calling hours end" error={errors.callingHoursEnd?.message} hint="Never later than 21:00.">
            <Input type="time" {...form.register('callingHoursEnd')} />
          </Field>
        </div>
        <FromNumberField form={form} query={numbersQuery} />
        <Check label="Active" hint="Calls are placed with the most recently updated active agent of the type." {...form.register('active')} />
        <FormError>{serverError}</FormError>
        <DialogFooter onCancel={() => setOpen(false)} submitLabel={editing ? 'Save agent' : 'Create agent'} pending={save.isPending} />
      </form>
    </Dialog>
  );
}
