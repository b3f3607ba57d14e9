import { Textarea } from '../../components/Textarea';
import { OrganizationField } from '../../components/OrganizationOptions';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { CreateTrialSchema, TRIAL_SEXES, type CreateTrialInput, type Trial } from '../../../contract/trials';
import { phaseWords } from '../../../contract/words';
import { Dialog, DialogFooter } from '../../components/dialogs';
import { Field, Input, Select } from '../../components/ui';
import { FormError } from '../../components/FormError';
import { maxLengthOf, textUpTo } from '../../lib/limits';
import { blankToNull, useFormSubmit } from '../../lib/form-errors';
import { PHASE_CHOICES, SEX_LABELS, splitConditions } from './format';
import { trialFormTitle, type TrialFormDialogProps } from './dialogs';
import { useCreateTrial, useUpdateTrial } from './queries';

const fields = CreateTrialSchema.shape;
const CONDITION_MAX = maxLengthOf(fields.conditions.unwrap().element);
const optionalInteger = (label: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .refine(
      (value) => value === '' || (/^\d+$/.test(value) && Number(value) >= min && Number(value) <= max),
      `${label} must be a whole number from ${min} to ${max.toLocaleString('en-US')}`,
    );

/** The form's fields as typed; the same limits as CreateTrialSchema, with messages a person can act on. */
const TrialFormSchema = z
  .object({
    organizationId: z.string(),
    title: textUpTo(fields.title, 'Title').min(1, 'Enter a title'),
    publicTitle: textUpTo(fields.publicTitle, 'Public title'),
    nctId: z
      .string()
      .trim()
      .toUpperCase()
      .refine((value) => value === '' || /^NCT\d{8}$/.test(value), 'NCT id must look like NCT01234567'),
    sponsor: textUpTo(fields.sponsor, 'Sponsor'),
    phase: textUpTo(fields.phase, 'Phase'),
    conditions: z
      .string()
      .refine(
        (value) => splitConditions(value).every((condition) => condition.length <= CONDITION_MAX),
        `Each condition must be at most ${CONDITION_MAX} characters`,
      )
      .refine((value) => splitConditions(value).length <= 100, 'At most 100 conditions'),
    targetEnrollment: optionalInteger('Target enrollment', 0, 10_000_000),
    minimumAgeYears: optionalInteger('Minimum age', 0, 150),
    maximumAgeYears: optionalInteger('Maximum age', 0, 150),
    sex: z.enum(TRIAL_SEXES),
    healthyVolunteers: z.enum(['', 'yes', 'no']),
    summary: textUpTo(fields.summary, 'Summary'),
  })
  .refine((value) => value.minimumAgeYears === '' || value.maximumAgeYears === '' || Number(value.minimumAgeYears) <= Number(value.maximumAgeYears), {
    message: 'Minimum age must not be above maximum age',
    path: ['maximumAgeYears'],
  });
type TrialForm = z.input<typeof TrialFormSchema>;

function defaultsOf(trial: Trial | undefined, organizationId: string): TrialForm {
  return {
    organizationId,
    title: trial?.title ?? '',
    publicTitle: trial?.publicTitle ?? '',
    nctId: trial?.nctId ?? '',
    sponsor: trial?.sponsor ?? '',
    phase: trial?.phase ?? '',
    conditions: trial?.conditions.join(', ') ?? '',
    targetEnrollment: trial?.targetEnrollment == null ? '' : String(trial.targetEnrollment),
    minimumAgeYears: trial?.minimumAgeYears == null ? '' : String(trial.minimumAgeYears),
    maximumAgeYears: trial?.maximumAgeYears == null ? '' : String(trial.maximumAgeYears),
    sex: trial?.sex ?? 'all',
    healthyVolunteers: trial?.healthyVolunteers == null ? '' : trial.healthyVolunteers ? 'yes' : 'no',
    summary: trial?.summary ?? '',
  };
}

const numberOrNull = (value: string) => (value.trim() === '' ? null : Number(value));

function toInput(values: TrialForm): CreateTrialInput {
  return {
    title: values.title.trim(),
    publicTitle: blankToNull(values.publicTitle),
    nctId: blankToNull(values.nctId.toUpperCase()),
    sponsor: blankToNull(values.sponsor),
    phase: blankToNull(values.phase),
    conditions: splitConditions(values.conditions),
    targetEnrollment: numberOrNull(values.targetEnrollment),
    minimumAgeYears: numberOrNull(values.minimumAgeYears),
    maximumAgeYears: numberOrNull(values.maximumAgeYears),
    sex: values.sex,
    healthyVolunteers: values.healthyVolunteers === '' ? null : values.healthyVolunteers === 'yes',
    summary: blankToNull(values.summary),
  };
}

/**
 * Create a trial by hand (no `trial`) or edit one's fields: the dialog's content, loaded when it opens and
 * mounted on every opening (`TrialFormDialog` in ./dialogs holds the trigger). `organizations` is given to
 * global admins, who choose where a new trial goes.
 */
export function TrialFormDialog({ trial, organizations, defaultOrganizationId, onOpenChange }: TrialFormDialogProps) {
  const editing = Boolean(trial);
  const setOpen = (next: boolean) => onOpenChange?.(next);
  const create = useCreateTrial();
  const update = useUpdateTrial({ silent: true });
  const navigate = useNavigate();
  const defaults = defaultsOf(trial, defaultOrganizationId ?? organizations?.[0]?.id ?? '');
  const form = useForm<TrialForm>({ resolver: zodResolver(TrialFormSchema), defaultValues: defaults });
  const { errors } = form.formState;
  const pending = create.isPending || update.isPending;
  const phase = form.watch('phase');
  const phaseChoices: string[] = [...PHASE_CHOICES];
  if (phase && !phaseChoices.includes(phase)) phaseChoices.push(phase);

  const { serverError, onSubmit } = useFormSubmit(form, async (values) => {
    const input = toInput(values);
    if (trial) {
      await update.mutateAsync({ trialId: trial.id, input });
      toast.success('Trial saved');
      setOpen(false);
    } else {
      const created = await create.mutateAsync({ organizationId: organizations ? values.organizationId : undefined, input });
      toast.success(`Created ${created.title}`);
      setOpen(false);
      await navigate({ to: '/trials/$trialId', params: { trialId: created.id } });
    }
  });

  return (
    <Dialog
      title={trialFormTitle({ trial })}
      description={
        editing
          ? 'Change the trial’s details. Criteria are edited on their own page.'
          : 'A new draft trial. Add its criteria afterwards, or import a ClinicalTrials.gov record instead.'
      }
    >
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        {!editing && organizations && (
          <OrganizationField organizations={organizations} error={errors.organizationId?.message} registration={form.register('organizationId')} />
        )}
        <Field label="Title" error={errors.title?.message} hint="The official title of the study.">
          <Input autoComplete="off" {...form.register('title')} />
        </Field>
        <Field label="Public title (optional)" error={errors.publicTitle?.message} hint="A short, plain title candidates see.">
          <Input autoComplete="off" {...form.register('publicTitle')} />
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="NCT id (optional)" error={errors.nctId?.message}>
            <Input autoComplete="off" placeholder="NCT01234567" {...form.register('nctId')} />
          </Field>
          <Field label="Phase (optional)" error={errors.phase?.message}>
            <Select {...form.register('phase')}>
              <option value="">Not set</option>
              {phaseChoices.map((choice) => (
                <option key={choice} value={choice}>
                  {phaseWords(choice)}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        <Field label="Sponsor (optional)" error={errors.sponsor?.message}>
          <Input autoComplete="off" {...form.register('sponsor')} />
        </Field>
        <Field label="Conditions (optional)" error={errors.conditions?.message} hint="Separate conditions with commas, e.g. Asthma, COPD.">
          <Input autoComplete="off" {...form.register('conditions')} />
        </Field>
        <div className="grid gap-4 sm:grid-cols-3">
          <Field label="Target enrollment" error={errors.targetEnrollment?.message}>
            <Input inputMode="numeric" autoComplete="off" {...form.register('targetEnrollment')} />
          </Field>
          <Field label="Minimum age (years)" error={errors.minimumAgeYears?.message}>
            <Input inputMode="numeric" autoComplete="off" {...form.register('minimumAgeYears')} />
          </Field>
          <Field label="Maximum age (years)" error={errors.maximumAgeYears?.message}>
            <Input inputMode="numeric" autoComplete="off" {...form.register('maximumAgeYears')} />
          </Field>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Sex" error={errors.sex?.message}>
            <Select {...form.register('sex')}>
              {TRIAL_SEXES.map((sex) => (
                <option key={sex} value={sex}>
                  {SEX_LABELS[sex]}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Healthy volunteers" error={errors.healthyVolunteers?.message}>
            <Select {...form.register('healthyVolunteers')}>
              <option value="">Not stated</option>
              <option value="yes">Accepted</option>
              <option value="no">Not accepted</option>
            </Select>
          </Field>
        </div>
        <Field label="Summary (optional)" error={errors.summary?.message}>
          <Textarea rows={4} {...form.register('summary')} />
        </Field>
        <FormError>{serverError}</FormError>
        <DialogFooter onCancel={() => setOpen(false)} submitLabel={editing ? 'Save' : 'Create trial'} pending={pending} />
      </form>
    </Dialog>
  );
}
