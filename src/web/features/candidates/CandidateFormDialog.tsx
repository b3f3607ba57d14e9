import { OrganizationField } from '../../components/OrganizationOptions';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { CANDIDATE_SEXES, CANDIDATE_SOURCES, CreateCandidateSchema, type Candidate, type CreateCandidateInput } from '../../../contract/candidates';
import { Combobox } from '../../components/Combobox';
import { Dialog, DialogFooter } from '../../components/dialogs';
import { Field, Input, Select } from '../../components/ui';
import { FormError } from '../../components/FormError';
import { textUpTo } from '../../lib/limits';
import { timeZoneOptions } from '../../lib/time-zone-options';
import { blankToNull, useFormSubmit } from '../../lib/form-errors';
import { Checkbox } from './components';
import { candidateName, LANGUAGE_CHOICES, SEX_LABELS, sourceLabel } from './format';
import { candidateFormTitle, type CandidateFormDialogProps } from './dialogs';
import { useCreateCandidate, useUpdateCandidate } from './queries';
import { usePhoneLibrary } from '../../lib/phone-lazy';

const fields = CreateCandidateSchema.shape;

/** The client checks only what a person can fix at once; the server's rules (phone, email, date) show inline too. */
const CandidateFormSchema = z.object({
  organizationId: z.string(),
  firstName: textUpTo(fields.firstName, 'First name').min(1, 'Enter a first name'),
  lastName: textUpTo(fields.lastName, 'Last name'),
  phone: textUpTo(fields.phone, 'Phone'),
  email: textUpTo(fields.email, 'Email'),
  dateOfBirth: z.string().trim(),
  sex: z.enum(CANDIDATE_SEXES),
  postalCode: textUpTo(fields.postalCode, 'Postal code'),
  timeZone: z.string(),
  preferredLanguage: z.string(),
  source: z.string(),
  consentSms: z.boolean(),
  consentCalls: z.boolean(),
});
type CandidateForm = z.infer<typeof CandidateFormSchema>;
const FIELDS = ['firstName', 'lastName', 'phone', 'email', 'dateOfBirth', 'sex', 'postalCode', 'timeZone', 'preferredLanguage', 'source'] as const;

function defaultsOf(candidate: Candidate | undefined, organizationId: string): CandidateForm {
  return {
    organizationId,
    firstName: candidate?.firstName ?? '',
    lastName: candidate?.lastName ?? '',
    phone: candidate?.phone ?? '',
    email: candidate?.email ?? '',
    dateOfBirth: candidate?.dateOfBirth ?? '',
    sex: candidate?.sex ?? 'unknown',
    postalCode: candidate?.postalCode ?? '',
    timeZone: candidate?.timeZone ?? '',
    preferredLanguage: candidate?.preferredLanguage ?? 'en',
    source: candidate?.source ?? 'manual',
    consentSms: candidate?.consent.sms ?? false,
    consentCalls: candidate?.consent.calls ?? false,
  };
}

/**
 * Add a candidate (no `candidate`) or edit one's profile: the dialog's content, loaded when it opens and
 * mounted on every opening (`CandidateFormDialog` in ./dialogs holds the trigger). `organizations` is given to
 * global admins, who choose where a new candidate goes. Consent is set when adding; afterwards it is changed
 * in the detail's consent block.
 */
export function CandidateFormDialog({ candidate, organizations, onOpenChange }: CandidateFormDialogProps) {
  // A typed number ("(212) 555-0101") is read by the phone library: start loading it as the form opens.
  usePhoneLibrary();
  const editing = Boolean(candidate);
  const setOpen = (next: boolean) => onOpenChange?.(next);
  const create = useCreateCandidate();
  const update = useUpdateCandidate({ silent: true });
  const navigate = useNavigate();
  const defaults = defaultsOf(candidate, organizations?.[0]?.id ?? '');
  const form = useForm<CandidateForm>({ resolver: zodResolver(CandidateFormSchema), defaultValues: defaults });
  const { errors } = form.formState;
  const pending = create.isPending || update.isPending;
  const timeZone = form.watch('timeZone');
  const zones = useMemo(() => timeZoneOptions(timeZone), [timeZone]);
  const consentSms = form.watch('consentSms');
  const consentCalls = form.watch('consentCalls');

  const { serverError, onSubmit } = useFormSubmit(
    form,
    async (values) => {
      const input: CreateCandidateInput = {
        firstName: values.firstName.trim(),
        lastName: values.lastName.trim(),
        phone: blankToNull(values.phone),
        email: blankToNull(values.email),
        dateOfBirth: blankToNull(values.dateOfBirth),
        sex: values.sex,
        postalCode: blankToNull(values.postalCode),
        timeZone: blankToNull(values.timeZone),
        preferredLanguage: values.preferredLanguage,
        source: values.source,
      };
      if (candidate) {
        await update.mutateAsync({ id: candidate.id, input });
        toast.success('Candidate saved');
        setOpen(false);
      } else {
        const created = await create.mutateAsync({
          organizationId: organizations ? values.organizationId : undefined,
          input: { ...input, consent: { sms: values.consentSms, calls: values.consentCalls } },
        });
        toast.success(`Added ${candidateName(created)}`);
        setOpen(false);
        await navigate({ to: '/candidates/$id', params: { id: created.id } });
      }
    },
    FIELDS,
  );

  return (
    <Dialog
      title={candidateFormTitle({ candidate })}
      description={
        editing
          ? 'Change the candidate’s profile. Consent and status are changed on the candidate’s page.'
          : 'A new candidate with status New. Phone numbers without a country code are read as US numbers.'
      }
    >
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        {!editing && organizations && (
          <OrganizationField organizations={organizations} error={errors.organizationId?.message} registration={form.register('organizationId')} />
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="First name" error={errors.firstName?.message}>
            <Input autoComplete="off" {...form.register('firstName')} />
          </Field>
          <Field label="Last name" error={errors.lastName?.message}>
            <Input autoComplete="off" {...form.register('lastName')} />
          </Field>
          <Field label="Phone" error={errors.phone?.message} hint="E.g. +1 212 555 0123">
            <Input type="tel" autoComplete="off" {...form.register('phone')} />
          </Field>
          <Field label="Email" error={errors.email?.message}>
            <Input type="email" autoComplete="off" {...form.register('email')} />
          </Field>
          <Field label="Date of birth" error={errors.dateOfBirth?.message}>
            <Input type="date" max={new Date().toISOString().slice(0, 10)} {...form.register('dateOfBirth')} />
          </Field>
          <Field label="Sex" error={errors.sex?.message}>
            <Select {...form.register('sex')}>
              {CANDIDATE_SEXES.map((sex) => (
                <option key={sex} value={sex}>
                  {SEX_LABELS[sex]}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Postal code" error={errors.postalCode?.message}>
            <Input autoComplete="off" {...form.register('postalCode')} />
          </Field>
          <Controller
            control={form.control}
            name="timeZone"
            render={({ field }) => (
              <Field label="Time zone" error={errors.timeZone?.message}>
                <Combobox
                  ref={field.ref}
                  options={zones}
                  value={field.value}
                  onChange={field.onChange}
                  noneLabel="Not set"
                  placeholder="Not set"
                  searchLabel="Search time zones by city, region or UTC offset"
                  searchPlaceholder="City, region or offset, e.g. Chicago"
                  listLabel="Time zones"
                  noun="time zones"
                />
              </Field>
            )}
          />
          <Field label="Preferred language" error={errors.preferredLanguage?.message}>
            <Select {...form.register('preferredLanguage')}>
              {LANGUAGE_CHOICES.map((language) => (
                <option key={language.value} value={language.value}>
                  {language.label}
                </option>
              ))}
              {candidate && !LANGUAGE_CHOICES.some((choice) => choice.value === candidate.preferredLanguage) && (
                <option value={candidate.preferredLanguage}>{candidate.preferredLanguage}</option>
              )}
            </Select>
          </Field>
          <Field label="Source" error={errors.source?.message}>
            <Select {...form.register('source')}>
              {CANDIDATE_SOURCES.map((source) => (
                <option key={source} value={source}>
                  {sourceLabel(source)}
                </option>
              ))}
              {candidate && !(CANDIDATE_SOURCES as readonly string[]).includes(candidate.source) && (
                <option value={candidate.source}>{candidate.source}</option>
              )}
            </Select>
          </Field>
        </div>
        {!editing && (
          <fieldset className="grid gap-2">
            <legend className="text-sm font-medium text-slate-800">Consent</legend>
            <div className="flex flex-wrap gap-4">
              <Checkbox label="Consents to SMS" checked={consentSms} onChange={(checked) => form.setValue('consentSms', checked)} />
              <Checkbox label="Consents to calls" checked={consentCalls} onChange={(checked) => form.setValue('consentCalls', checked)} />
            </div>
          </fieldset>
        )}
        <FormError>{serverError}</FormError>
        <DialogFooter onCancel={() => setOpen(false)} submitLabel={editing ? 'Save candidate' : 'Add candidate'} pending={pending} />
      </form>
    </Dialog>
  );
}
