import { Link, useNavigate } from '@tanstack/react-router';
import { Plus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { toast } from 'sonner';
import { CreatePrescreenFormSchema } from '../../../contract/prescreen-forms';
import { Dialog, DialogFooter } from '../../components/dialogs';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Badge, Button, buttonClass, EmptyState, Field, Input, PageHeader, Table, Td, Th } from '../../components/ui';
import { FormError } from '../../components/FormError';
import { useActiveOrganization } from '../../lib/active-organization';
import { maxLengthOf } from '../../lib/limits';
import { cn, formatDate } from '../../lib/utils';
import { Combobox } from '../../components/Combobox';
import { TRIAL_PICKER, trialOption } from '../trials/trial-option';
import { useTrialsQuery } from '../trials/queries';
import { useIsGlobal } from '../trials/hooks';
import { DefaultSelectionNote } from '../trials/DefaultSelectionNote';
import { OrganizationFilter } from '../trials/OrganizationFilter';
import { FORM_STATUS_LABELS, FORM_STATUS_TONES, serverProblems } from './format';
import { useCreatePrescreenForm, useGenerateStudyBlocks, usePrescreenFormsQuery } from './queries';
import { countWords } from '../../lib/counts';

/** Pick a trial, name the form; the server generates study blocks from the trial's criteria, then the builder opens. */
function NewFormDialog({ orgs }: { orgs: string[] | undefined }) {
  const [open, setOpen] = useState(false);
  const [trialId, setTrialId] = useState('');
  const [name, setName] = useState('');
  const [generate, setGenerate] = useState(true);
  const [errors, setErrors] = useState<{ trialId?: string; name?: string; server?: string }>({});
  const trialsQuery = useTrialsQuery(orgs);
  const trials = useMemo(() => trialsQuery.data?.trials ?? [], [trialsQuery.data]);
  const trialOptions = useMemo(() => trials.map(trialOption), [trials]);
  const generateBlocks = useGenerateStudyBlocks();
  const create = useCreatePrescreenForm();
  const navigate = useNavigate();
  const pending = generateBlocks.isPending || create.isPending;

  const submit = async () => {
    const next: typeof errors = {};
    if (!trialId) next.trialId = 'Choose a trial';
    if (!name.trim()) next.name = 'Enter a name';
    setErrors(next);
    if (Object.keys(next).length) return;
    try {
      const generated = generate ? await generateBlocks.mutateAsync(trialId) : undefined;
      const form = await create.mutateAsync({ trialId, name: name.trim(), ...(generated ? { blocks: generated.blocks } : {}) });
      toast.success(
        generated ? `Form created with ${generated.blocks.reduce((sum, block) => sum + block.questions.length, 0)} generated questions` : 'Empty form created',
      );
      setOpen(false);
      void navigate({ to: '/admin/prescreen-forms/$formId', params: { formId: form.id } });
    } catch (error) {
      setErrors({ server: serverProblems(error).message });
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(value) => {
        setOpen(value);
        if (value) {
          setErrors({});
          setName('');
          setTrialId('');
          setGenerate(true);
        }
      }}
      title="New prescreen form"
      description="Questions are generated from the trial’s eligibility criteria; you can edit everything before publishing."
      trigger={
        <Button>
          <Plus aria-hidden="true" className="h-4 w-4" />
          New form
        </Button>
      }
    >
      <form
        className="grid gap-4"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Field label="Trial" error={errors.trialId}>
          <Combobox
            {...TRIAL_PICKER}
            options={trialOptions}
            value={trialId}
            onChange={(next) => {
              setTrialId(next);
              const trial = trials.find((item) => item.id === next);
              if (trial && !name.trim()) setName(`${`${trial.publicTitle || trial.title}`.slice(0, 180)} prescreen`);
            }}
            loading={trialsQuery.isPending}
            emptyText="No trials yet"
            placeholder="Choose a trial"
          />
        </Field>
        <Field label="Form name" error={errors.name}>
          <Input value={name} maxLength={maxLengthOf(CreatePrescreenFormSchema.shape.name)} onChange={(event) => setName(event.target.value)} />
        </Field>
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input type="checkbox" className="h-4 w-4 accent-blue-700" checked={generate} onChange={(event) => setGenerate(event.target.checked)} />
          Generate study blocks from the trial’s criteria
        </label>
        <FormError>{errors.server}</FormError>
        <DialogFooter
          onCancel={() => setOpen(false)}
          submitLabel={generate ? 'Generate and open' : 'Create and open'}
          pending={pending}
          pendingLabel={generateBlocks.isPending ? 'Generating…' : 'Creating…'}
        />
      </form>
    </Dialog>
  );
}

/**
 * /admin/prescreen-forms: the forms of the organization, and a way to generate a new one from a trial. A global
 * admin narrows the list by organization (`orgs`), as on the other list pages; the server refuses any out of reach.
 */
export function PrescreenFormsPage({ orgs, onOrgsChange }: { orgs: string[] | undefined; onOrgsChange: (next: string[] | undefined) => void }) {
  const isGlobal = useIsGlobal();
  const chosenOrgs = isGlobal ? orgs : undefined;
  const query = usePrescreenFormsQuery({ orgs: chosenOrgs });
  const { organizations } = useActiveOrganization();
  const names = useMemo(() => new Map(organizations.map((org) => [org.id, org.name])), [organizations]);

  let body;
  if (query.isPending) body = <Spinner label="Loading prescreen forms" />;
  else if (query.isError) body = <ErrorCard title="Could not load prescreen forms" error={query.error} onRetry={() => void query.refetch()} />;
  else if (query.data.prescreenForms.length === 0) {
    body = (
      <EmptyState title={chosenOrgs?.length ? 'No prescreen forms in the chosen organizations' : 'No prescreen forms yet'}>
        <p>Generate a first form from a trial’s eligibility criteria, then edit and publish it.</p>
        {isGlobal && !chosenOrgs?.length && <DefaultSelectionNote things="forms" />}
        <div className="mt-4">
          <NewFormDialog orgs={chosenOrgs} />
        </div>
      </EmptyState>
    );
  } else {
    body = (
      <Table caption="Prescreen forms">
        <thead>
          <tr>
            <Th>Name</Th>
            <Th>Trial</Th>
            <Th>Status</Th>
            <Th className="text-right">Version</Th>
            <Th className="text-right">Questions</Th>
            <Th className="text-right">Uncovered criteria</Th>
            <Th>Updated</Th>
            {isGlobal && <Th>Organization</Th>}
          </tr>
        </thead>
        <tbody>
          {query.data.prescreenForms.map((form) => (
            <tr key={form.id}>
              <Td>
                <Link
                  to="/admin/prescreen-forms/$formId"
                  params={{ formId: form.id }}
                  className="font-medium text-blue-800 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-blue-700"
                >
                  {form.name}
                </Link>
              </Td>
              <Td className="max-w-sm">{form.trialTitle}</Td>
              <Td>
                <Badge tone={FORM_STATUS_TONES[form.status]}>{FORM_STATUS_LABELS[form.status]}</Badge>
              </Td>
              <Td className="text-right tabular-nums">{form.version}</Td>
              <Td className="text-right tabular-nums">{countWords(form.questionCount)}</Td>
              <Td className={cn('text-right tabular-nums', form.uncoveredCriterionIds.length > 0 && 'font-semibold text-amber-900')}>
                {form.uncoveredCriterionIds.length}
              </Td>
              <Td className="whitespace-nowrap">{formatDate(form.updatedAt)}</Td>
              {isGlobal && <Td>{names.get(form.organizationId) ?? '—'}</Td>}
            </tr>
          ))}
        </tbody>
      </Table>
    );
  }

  return (
    <div>
      <PageHeader
        title="Prescreen forms"
        description="Questionnaires that voice and chat agents, or staff, ask candidates. Each question can decide trial criteria."
        actions={query.data && query.data.prescreenForms.length > 0 ? <NewFormDialog orgs={chosenOrgs} /> : undefined}
      />
      {isGlobal && (
        <div className="mb-4 flex flex-wrap items-center gap-2">
          <OrganizationFilter organizations={organizations} selected={orgs} onChange={onOrgsChange} />
        </div>
      )}
      {body}
      {query.data && query.data.prescreenForms.length > 0 && (
        <p className="mt-3 text-sm text-slate-700">
          Trials and their criteria are managed under{' '}
          <Link to="/admin/trial-criteria" search={{}} className={cn(buttonClass('link', 'sm'), 'h-auto')}>
            Trial criteria
          </Link>
          .
        </p>
      )}
    </div>
  );
}
