import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { CreateCandidateFactSchema, FACT_KINDS, FACT_STATUSES, type CreateCandidateFactInput, type FactKind } from '../../../contract/matching';
import { ChoiceField } from '../../components/ChoiceField';
import { Dialog, DialogFooter } from '../../components/dialogs';
import { FormError } from '../../components/FormError';
import { Field, Input } from '../../components/ui';
import { placeFieldErrors } from '../../lib/form-errors';
import { maxLengthOf } from '../../lib/limits';
import { ADD_FACT_TITLE, type AddFactDialogProps } from './dialogs';
import { FACT_KIND_LABELS, FACT_STATUS_LABELS } from './format';
import { useAddFact } from './queries';

/** Which fields each kind of fact has: the rest are sent empty. */
const HAS_NAME: ReadonlySet<FactKind> = new Set(['condition', 'medication', 'lab']);
const HAS_STATUS: ReadonlySet<FactKind> = new Set(['condition', 'medication', 'pregnancy', 'smoking']);
const HAS_VALUE: ReadonlySet<FactKind> = new Set(['lab', 'age', 'performance_status']);
const SCALES = ['ECOG', 'Karnofsky'] as const;
/** The longest name and unit the contract accepts, so typing stops where the server would refuse. */
const NAME_MAX = maxLengthOf(CreateCandidateFactSchema.shape.name);
const UNIT_MAX = maxLengthOf(CreateCandidateFactSchema.shape.unit);
const SCALE_MAX: Record<string, number> = { ECOG: 5, Karnofsky: 100 };

const NAME_HINTS: Partial<Record<FactKind, string>> = {
  condition: 'E.g. asthma, type 2 diabetes',
  medication: 'E.g. metformin',
  lab: 'As criteria name it, e.g. HbA1c, eGFR, systolic blood pressure',
};

/**
 * The inputs are text; the form reads them into the contract's shape (a name for the kinds that have none
 * typed, numbers, nulls) and then the contract's own CreateCandidateFactSchema checks the rest, so the rules
 * the server applies (a status where one is needed, a value for labs) show at once beside the fields.
 */
const FactFormSchema = z
  .object({
    kind: z.enum(FACT_KINDS),
    name: z.string(),
    status: z.union([z.enum(FACT_STATUSES), z.literal('')]),
    value: z.string(),
    unit: z.string(),
    valueText: z.string(),
    observedOn: z.string(),
  })
  .superRefine((form, context) => {
    if (HAS_NAME.has(form.kind) && !form.name.trim()) context.addIssue({ code: 'custom', path: ['name'], message: 'Enter a name' });
    if (HAS_VALUE.has(form.kind) && form.value.trim() !== '' && !Number.isFinite(Number(form.value)))
      context.addIssue({ code: 'custom', path: ['value'], message: 'Enter a number' });
    if (form.kind === 'sex' && !form.valueText) context.addIssue({ code: 'custom', path: ['valueText'], message: 'Choose female or male' });
    if (form.kind === 'performance_status') {
      if (!form.valueText) context.addIssue({ code: 'custom', path: ['valueText'], message: 'Choose the scale' });
      const score = Number(form.value);
      const max = SCALE_MAX[form.valueText];
      if (max != null && form.value.trim() !== '' && (score < 0 || score > max))
        context.addIssue({ code: 'custom', path: ['value'], message: `A ${form.valueText} score is 0 to ${max}` });
    }
  })
  .transform(
    (form): z.input<typeof CreateCandidateFactSchema> => ({
      kind: form.kind,
      name: HAS_NAME.has(form.kind) ? form.name.trim() : form.kind === 'performance_status' ? `${form.valueText} performance status` : form.kind,
      status: HAS_STATUS.has(form.kind) && form.status ? form.status : null,
      value: HAS_VALUE.has(form.kind) && form.value.trim() !== '' ? Number(form.value) : null,
      unit: form.kind === 'lab' ? form.unit.trim() || null : form.kind === 'age' ? 'years' : null,
      valueText: form.kind === 'sex' || form.kind === 'performance_status' ? form.valueText || null : null,
      observedOn: form.observedOn || null,
    }),
  )
  .pipe(CreateCandidateFactSchema);
type FactForm = z.input<typeof FactFormSchema>;
type FactField = keyof FactForm;

function shownFields(kind: FactKind): FactField[] {
  const fields: FactField[] = ['kind', 'observedOn'];
  if (HAS_NAME.has(kind)) fields.push('name');
  if (HAS_STATUS.has(kind)) fields.push('status');
  if (HAS_VALUE.has(kind)) fields.push('value');
  if (kind === 'lab') fields.push('unit');
  if (kind === 'sex' || kind === 'performance_status') fields.push('valueText');
  return fields;
}

const kindOptions = FACT_KINDS.map((value) => ({ value, label: FACT_KIND_LABELS[value] }));
const statusOptions = FACT_STATUSES.map((value) => ({ value, label: FACT_STATUS_LABELS[value] }));

/** Add a fact by hand: the dialog's content, loaded when it opens (`AddFactDialog` in ./dialogs holds the trigger). */
export function AddFactDialog({ candidateId, onOpenChange }: AddFactDialogProps) {
  const add = useAddFact(candidateId);
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<FactForm, unknown, CreateCandidateFactInput>({
    resolver: zodResolver(FactFormSchema),
    defaultValues: { kind: 'condition', name: '', status: 'present', value: '', unit: '', valueText: '', observedOn: '' },
  });
  const { errors } = form.formState;
  const kind = form.watch('kind');
  // Sex and the performance scale share valueText, and a value of one kind means nothing in another.
  const shownKind = useRef(kind);
  useEffect(() => {
    if (shownKind.current === kind) return;
    shownKind.current = kind;
    form.setValue('valueText', '');
    form.setValue('value', '');
    form.clearErrors();
  }, [kind, form]);

  const onSubmit = form.handleSubmit(async (input) => {
    setServerError(null);
    try {
      const fact = await add.mutateAsync(input);
      toast.success(`Fact added: ${fact.name}`);
      onOpenChange?.(false);
    } catch (error) {
      // The server's field messages beside the fields shown; anything else in the alert.
      const { message, placed, unplaced } = placeFieldErrors(error, shownFields(input.kind), form.setError);
      if (placed === 0 || unplaced > 0) setServerError(message);
    }
  });

  const valueLabel = kind === 'age' ? 'Age in years' : kind === 'performance_status' ? 'Score' : 'Value';
  return (
    <Dialog title={ADD_FACT_TITLE} description="Something known of the candidate’s health, entered by you. Trial matching counts it like any other fact.">
      <form className="grid gap-4" onSubmit={(event) => void onSubmit(event).catch(() => undefined)} noValidate>
        <ChoiceField control={form.control} name="kind" label="Kind" error={errors.kind?.message} id="fact-kind" options={kindOptions} />
        {HAS_NAME.has(kind) && (
          <Field label="Name" error={errors.name?.message} hint={NAME_HINTS[kind]}>
            <Input autoComplete="off" maxLength={NAME_MAX} {...form.register('name')} />
          </Field>
        )}
        {HAS_STATUS.has(kind) && (
          <ChoiceField
            control={form.control}
            name="status"
            label="Status"
            error={errors.status?.message}
            id="fact-status"
            placeholder="Choose"
            options={statusOptions}
            hint="Past: had it or took it before, not now. Absent: stated not to."
          />
        )}
        {kind === 'sex' && (
          <ChoiceField
            control={form.control}
            name="valueText"
            label="Sex"
            error={errors.valueText?.message}
            id="fact-sex"
            placeholder="Choose"
            options={[
              { value: 'female', label: 'Female' },
              { value: 'male', label: 'Male' },
            ]}
          />
        )}
        {kind === 'performance_status' && (
          <ChoiceField
            control={form.control}
            name="valueText"
            label="Scale"
            error={errors.valueText?.message}
            id="fact-scale"
            placeholder="Choose"
            options={SCALES.map((value) => ({ value, label: value }))}
          />
        )}
        {HAS_VALUE.has(kind) && (
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label={valueLabel} error={errors.value?.message}>
              <Input inputMode="decimal" autoComplete="off" {...form.register('value')} />
            </Field>
            {kind === 'lab' && (
              <Field label="Unit (optional)" error={errors.unit?.message} hint="E.g. %, mg/dL, mmHg">
                <Input autoComplete="off" maxLength={UNIT_MAX} {...form.register('unit')} />
              </Field>
            )}
          </div>
        )}
        <Field label="Date (optional)" error={errors.observedOn?.message} hint="When it was observed or began.">
          <Input type="date" max={new Date().toISOString().slice(0, 10)} {...form.register('observedOn')} />
        </Field>
        <FormError>{serverError}</FormError>
        <DialogFooter onCancel={() => onOpenChange?.(false)} submitLabel="Add fact" pending={add.isPending} />
      </form>
    </Dialog>
  );
}
