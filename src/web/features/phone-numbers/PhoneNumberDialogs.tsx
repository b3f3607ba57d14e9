import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { AssignPhoneNumberSchema, E164InputSchema, PHONE_NUMBER_PURPOSES, type PhoneNumber, type PhoneNumberProvider } from '../../../contract/phone-numbers';
import { ChoiceField } from '../../components/ChoiceField';
import { Dialog, DialogFooter } from '../../components/dialogs';
import type { LazyDialogProps } from '../../components/lazy-dialog';
import { Field, Input } from '../../components/ui';
import { FormError } from '../../components/FormError';
import { useActiveOrganization } from '../../lib/active-organization';
import { placeFieldErrors } from '../../lib/form-errors';
import { PROVIDER_LABELS, PURPOSE_LABELS } from './format';
import { useAssignPhoneNumber, useUpdatePhoneNumber } from './queries';

/**
 * The phone-number registry's form dialogs, loaded when one opens (PhoneNumbersPage holds their triggers):
 * react-hook-form, zod and the Radix select stay out of the page's first JavaScript.
 */

const purposeOptions = PHONE_NUMBER_PURPOSES.map((value) => ({ value, label: PURPOSE_LABELS[value] }));

/** The contract's own label rule (at most 100 characters, trimmed). */
const LabelSchema = AssignPhoneNumberSchema.shape.label.unwrap();

const AssignFormSchema = z.object({
  number: E164InputSchema,
  organizationId: z.string().min(1, 'Choose an organization'),
  purpose: z.enum(PHONE_NUMBER_PURPOSES),
  /** '' = the configured provider. */
  provider: z.string(),
  label: LabelSchema,
});

/** Assign a number to an organization (internal admins with Cohortly active). */
export function AssignDialog({ onOpenChange }: LazyDialogProps) {
  const { organizations } = useActiveOrganization();
  const assign = useAssignPhoneNumber();
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<z.input<typeof AssignFormSchema>, unknown, z.output<typeof AssignFormSchema>>({
    resolver: zodResolver(AssignFormSchema),
    defaultValues: { number: '', organizationId: '', purpose: 'voice', provider: '', label: '' },
  });
  const errors = form.formState.errors;
  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      const saved = await assign.mutateAsync({
        number: values.number,
        organizationId: values.organizationId,
        purpose: values.purpose,
        ...(values.provider ? { provider: values.provider as PhoneNumberProvider } : {}),
        ...(values.label ? { label: values.label } : {}),
      });
      toast.success(`Assigned ${saved.number} to ${saved.organizationName}`);
      form.reset();
      onOpenChange?.(false);
    } catch (error) {
      // The server's field messages beside the fields, and its sentence in the alert.
      setServerError(placeFieldErrors(error, ['number', 'organizationId', 'label', 'purpose'], form.setError).message);
    }
  });
  return (
    <Dialog
      title="Assign a phone number"
      description="The number becomes the organization's own: only its voice agents can call from it, and calls to it reach them."
    >
      <form className="grid gap-4" onSubmit={onSubmit} noValidate>
        <Field
          label="Number"
          error={errors.number?.message}
          hint="E.164, e.g. +12125550100. With Twilio or Vapi configured, it must be a number of that account."
        >
          <Input type="tel" autoComplete="off" placeholder="+12125550100" {...form.register('number')} />
        </Field>
        <ChoiceField
          control={form.control}
          name="organizationId"
          label="Organization"
          error={errors.organizationId?.message}
          id="phone-number-organization"
          placeholder="Choose an organization"
          options={organizations.map((org) => ({ value: org.id, label: org.name }))}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <ChoiceField
            control={form.control}
            name="purpose"
            label="Purpose"
            error={errors.purpose?.message}
            id="phone-number-purpose"
            options={purposeOptions}
          />
          <ChoiceField
            control={form.control}
            name="provider"
            label="Provider"
            error={errors.provider?.message}
            id="phone-number-provider"
            noneLabel="The configured provider"
            options={(['vapi', 'twilio', 'simulator'] as const).map((value) => ({ value, label: PROVIDER_LABELS[value] }))}
          />
        </div>
        <Field label="Label" error={errors.label?.message} hint="Optional, e.g. Main line.">
          <Input autoComplete="off" {...form.register('label')} />
        </Field>
        <FormError>{serverError}</FormError>
        <DialogFooter onCancel={() => onOpenChange?.(false)} submitLabel="Assign number" pending={assign.isPending} pendingLabel="Assigning…" />
      </form>
    </Dialog>
  );
}

const EditFormSchema = z.object({ organizationId: z.string().min(1), purpose: z.enum(PHONE_NUMBER_PURPOSES), label: LabelSchema });

/** Change a number's label or purpose, or move it to another organization. */
export function EditDialog({ number, onOpenChange }: LazyDialogProps & { number: PhoneNumber }) {
  const onClose = () => onOpenChange?.(false);
  const { organizations } = useActiveOrganization();
  const update = useUpdatePhoneNumber();
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<z.infer<typeof EditFormSchema>>({
    resolver: zodResolver(EditFormSchema),
    defaultValues: { organizationId: number.organizationId, purpose: number.purpose, label: number.label ?? '' },
  });
  const errors = form.formState.errors;
  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      const saved = await update.mutateAsync({
        id: number.id,
        input: {
          label: values.label || null,
          purpose: values.purpose,
          ...(values.organizationId !== number.organizationId ? { organizationId: values.organizationId } : {}),
        },
      });
      toast.success(`Saved ${saved.number}`);
      onClose();
    } catch (error) {
      setServerError(placeFieldErrors(error, ['organizationId', 'label', 'purpose'], form.setError).message);
    }
  });
  return (
    <Dialog title={`Edit ${number.number}`} description="Moving a number to another organization is refused while an active voice agent calls from it.">
      <form className="grid gap-4" onSubmit={onSubmit} noValidate>
        <ChoiceField
          control={form.control}
          name="organizationId"
          label="Organization"
          error={errors.organizationId?.message}
          id="edit-phone-number-organization"
          options={organizations.map((org) => ({ value: org.id, label: org.name }))}
        />
        <ChoiceField
          control={form.control}
          name="purpose"
          label="Purpose"
          error={errors.purpose?.message}
          id="edit-phone-number-purpose"
          options={purposeOptions}
        />
        <Field label="Label" error={errors.label?.message}>
          <Input autoComplete="off" {...form.register('label')} />
        </Field>
        <FormError>{serverError}</FormError>
        <DialogFooter onCancel={onClose} submitLabel="Save" pending={update.isPending} />
      </form>
    </Dialog>
  );
}
