import { zodResolver } from '@hookform/resolvers/zod';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { E164InputSchema, PHONE_NUMBER_PURPOSES, type PhoneNumber, type PhoneNumberProvider, type PhoneNumberPurpose } from '../../../contract/phone-numbers';
import { ChoiceSelect } from '../../components/ChoiceSelect';
import { ConfirmDialog, Dialog } from '../../components/dialogs';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Badge, Button, Card, CardContent, EmptyState, Field, Input, PageHeader, Table, Td, Th } from '../../components/ui';
import { useActiveOrganization } from '../../lib/active-organization';
import { apiProblem } from '../callbacks/format';
import { useIsGlobal } from '../trials/TrialsPage';
import { usePhoneNumbersQuery, useAssignPhoneNumber, useReleasePhoneNumber, useUpdatePhoneNumber } from './queries';

const PURPOSE_LABELS: Record<PhoneNumberPurpose, string> = { voice: 'Voice', sms: 'SMS', both: 'Voice and SMS' };
const PROVIDER_LABELS: Record<PhoneNumberProvider, string> = { simulator: 'Simulator', twilio: 'Twilio', vapi: 'Vapi' };
const purposeOptions = PHONE_NUMBER_PURPOSES.map((value) => ({ value, label: PURPOSE_LABELS[value] }));

/** The server's field messages beside the fields; the rest in the alert. */
function placeErrors(error: unknown, setError: (field: 'number' | 'organizationId' | 'label' | 'purpose', message: string) => void, fields: readonly string[]): string {
  const problem = apiProblem(error);
  const placed = problem.details.filter((detail) => fields.includes(detail.path));
  for (const detail of placed) setError(detail.path as 'number', detail.message);
  return problem.message;
}

const AssignFormSchema = z.object({
  number: E164InputSchema,
  organizationId: z.string().min(1, 'Choose an organization'),
  purpose: z.enum(PHONE_NUMBER_PURPOSES),
  /** '' = the configured provider. */
  provider: z.string(),
  label: z.string().trim().max(100, 'At most 100 characters'),
});

function AssignDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
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
      const saved = await assign.mutateAsync({ number: values.number, organizationId: values.organizationId, purpose: values.purpose, ...(values.provider ? { provider: values.provider as PhoneNumberProvider } : {}), ...(values.label ? { label: values.label } : {}) });
      toast.success(`Assigned ${saved.number} to ${saved.organizationName}`);
      form.reset();
      onOpenChange(false);
    } catch (error) {
      setServerError(placeErrors(error, (field, message) => form.setError(field, { type: 'server', message }), ['number', 'organizationId', 'label', 'purpose']));
    }
  });
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Assign a phone number" description="The number becomes the organization's own: only its voice agents can call from it, and calls to it reach them.">
      <form className="grid gap-4" onSubmit={onSubmit} noValidate>
        <Field label="Number" error={errors.number?.message} hint="E.164, e.g. +12125550100. With Twilio or Vapi configured, it must be a number of that account.">
          <Input type="tel" autoComplete="off" placeholder="+12125550100" {...form.register('number')} />
        </Field>
        <Controller
          control={form.control}
          name="organizationId"
          render={({ field }) => (
            <Field label="Organization" error={errors.organizationId?.message}>
              <ChoiceSelect id="phone-number-organization" ref={field.ref} value={field.value} onValueChange={field.onChange} placeholder="Choose an organization" options={organizations.map((org) => ({ value: org.id, label: org.name }))} />
            </Field>
          )}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Controller
            control={form.control}
            name="purpose"
            render={({ field }) => (
              <Field label="Purpose" error={errors.purpose?.message}>
                <ChoiceSelect id="phone-number-purpose" ref={field.ref} value={field.value} onValueChange={field.onChange} options={purposeOptions} />
              </Field>
            )}
          />
          <Controller
            control={form.control}
            name="provider"
            render={({ field }) => (
              <Field label="Provider" error={errors.provider?.message}>
                <ChoiceSelect
                  id="phone-number-provider"
                  ref={field.ref}
                  value={field.value}
                  onValueChange={field.onChange}
                  noneLabel="The configured provider"
                  options={(['vapi', 'twilio', 'simulator'] as const).map((value) => ({ value, label: PROVIDER_LABELS[value] }))}
                />
              </Field>
            )}
          />
        </div>
        <Field label="Label" error={errors.label?.message} hint="Optional, e.g. Main line.">
          <Input autoComplete="off" {...form.register('label')} />
        </Field>
        {serverError && (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
            {serverError}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={assign.isPending}>
            {assign.isPending ? 'Assigning…' : 'Assign number'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

const EditFormSchema = z.object({ organizationId: z.string().min(1), purpose: z.enum(PHONE_NUMBER_PURPOSES), label: z.string().trim().max(100, 'At most 100 characters') });

function EditDialog({ number, onClose }: { number: PhoneNumber; onClose: () => void }) {
  const { organizations } = useActiveOrganization();
  const update = useUpdatePhoneNumber();
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<z.infer<typeof EditFormSchema>>({ resolver: zodResolver(EditFormSchema), defaultValues: { organizationId: number.organizationId, purpose: number.purpose, label: number.label ?? '' } });
  const errors = form.formState.errors;
  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      const saved = await update.mutateAsync({ id: number.id, input: { label: values.label || null, purpose: values.purpose, ...(values.organizationId !== number.organizationId ? { organizationId: values.organizationId } : {}) } });
      toast.success(`Saved ${saved.number}`);
      onClose();
    } catch (error) {
      setServerError(placeErrors(error, (field, message) => form.setError(field as 'label', { type: 'server', message }), ['organizationId', 'label', 'purpose']));
    }
  });
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={`Edit ${number.number}`} description="Moving a number to another organization is refused while an active voice agent calls from it.">
      <form className="grid gap-4" onSubmit={onSubmit} noValidate>
        <Controller
          control={form.control}
          name="organizationId"
          render={({ field }) => (
            <Field label="Organization" error={errors.organizationId?.message}>
              <ChoiceSelect id="edit-phone-number-organization" ref={field.ref} value={field.value} onValueChange={field.onChange} options={organizations.map((org) => ({ value: org.id, label: org.name }))} />
            </Field>
          )}
        />
        <Controller
          control={form.control}
          name="purpose"
          render={({ field }) => (
            <Field label="Purpose" error={errors.purpose?.message}>
              <ChoiceSelect id="edit-phone-number-purpose" ref={field.ref} value={field.value} onValueChange={field.onChange} options={purposeOptions} />
            </Field>
          )}
        />
        <Field label="Label" error={errors.label?.message}>
          <Input autoComplete="off" {...form.register('label')} />
        </Field>
        {serverError && (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
            {serverError}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? 'Saving…' : 'Save'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/**
 * /admin/phone-numbers: the phone-number registry. Internal admins with Cohortly active assign numbers to
 * organizations, change, move and release them; with another organization active the page is read-only.
 */
export function PhoneNumbersPage() {
  const isGlobal = useIsGlobal();
  const query = usePhoneNumbersQuery();
  const release = useReleasePhoneNumber();
  const [assigning, setAssigning] = useState(false);
  const [editing, setEditing] = useState<PhoneNumber | null>(null);
  const [releasing, setReleasing] = useState<PhoneNumber | null>(null);
  const [releaseError, setReleaseError] = useState<string | null>(null);
  const numbers = query.data?.phoneNumbers ?? [];

  let body;
  if (query.isPending) body = <Spinner label="Loading phone numbers" />;
  else if (query.isError) body = <ErrorCard title="Could not load phone numbers" error={query.error} onRetry={() => void query.refetch()} />;
  else if (numbers.length === 0)
    body = (
      <EmptyState title="No phone numbers yet">
        {isGlobal ? 'Assign a number to an organization: its voice agents can then call from it, and calls to it reach them.' : 'Cohortly assigns numbers: switch to the Cohortly organization to manage them.'}
      </EmptyState>
    );
  else
    body = (
      <Card>
        <CardContent className="p-0">
          <Table caption="Phone numbers">
            <thead>
              <tr>
                <Th>Number</Th>
                <Th>Organization</Th>
                <Th>Purpose</Th>
                <Th>Provider</Th>
                <Th>Label</Th>
                <Th>Voice agents</Th>
                {isGlobal && <Th className="text-right">Actions</Th>}
              </tr>
            </thead>
            <tbody>
              {numbers.map((item) => (
                <tr key={item.id} className="border-t border-slate-100">
                  <Td className="whitespace-nowrap font-mono">{item.number}</Td>
                  <Td>{item.organizationName}</Td>
                  <Td>{PURPOSE_LABELS[item.purpose]}</Td>
                  <Td>
                    {PROVIDER_LABELS[item.provider]}
                    {item.providerId && <span className="block text-xs text-slate-700">{item.providerId}</span>}
                  </Td>
                  <Td>{item.label ?? '—'}</Td>
                  <Td>
                    {item.agents.length === 0
                      ? '—'
                      : item.agents.map((agent) => (
                          <span key={agent.id} className="mr-1 inline-flex items-center gap-1">
                            {agent.name}
                            {!agent.active && <Badge>inactive</Badge>}
                          </span>
                        ))}
                  </Td>
                  {isGlobal && (
                    <Td className="whitespace-nowrap text-right">
                      <Button variant="ghost" size="sm" onClick={() => setEditing(item)} aria-label={`Edit ${item.number}`}>
                        <Pencil aria-hidden="true" className="h-4 w-4" />
                        Edit
                      </Button>
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => {
                          setReleaseError(null);
                          setReleasing(item);
                        }}
                        aria-label={`Release ${item.number}`}
                      >
                        <Trash2 aria-hidden="true" className="h-4 w-4" />
                        Release
                      </Button>
                    </Td>
                  )}
                </tr>
              ))}
            </tbody>
          </Table>
        </CardContent>
      </Card>
    );

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Phone numbers"
        description="Each number belongs to one organization: its voice agents call from it, and inbound calls to it reach them."
        actions={
          isGlobal ? (
            <Button onClick={() => setAssigning(true)}>
              <Plus aria-hidden="true" className="h-4 w-4" />
              Assign number
            </Button>
          ) : undefined
        }
      />
      {body}
      {isGlobal && <AssignDialog open={assigning} onOpenChange={setAssigning} />}
      {editing && <EditDialog key={editing.id} number={editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={releasing !== null}
        onOpenChange={(open) => !open && setReleasing(null)}
        title={`Release ${releasing?.number ?? ''}?`}
        description="The organization loses the number: calls to it are no longer answered. Refused while an active voice agent calls from it."
        confirmLabel="Release"
        pending={release.isPending}
        onConfirm={async () => {
          if (!releasing) return;
          try {
            await release.mutateAsync(releasing.id);
            toast.success(`Released ${releasing.number}`);
            setReleasing(null);
          } catch (error) {
            setReleaseError(apiProblem(error).message);
          }
        }}
      >
        {releaseError && (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
            {releaseError}
          </p>
        )}
      </ConfirmDialog>
    </div>
  );
}
