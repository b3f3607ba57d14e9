import { Link } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Badge, Button, buttonClass, Card, CardContent, CardDescription, CardHeader, CardTitle, EmptyState, PageHeader } from '../../components/ui';
import { ApiRequestError } from '../../lib/api';
import { cn, errorMessage } from '../../lib/utils';
import { candidateName } from '../candidates/format';
import { useCandidateQuery } from '../candidates/queries';
import { usePrescreenFormQuery, usePrescreenFormsQuery } from '../prescreen-forms/queries';
import { GuidedForm } from './GuidedForm';

/** A published form of the candidate's organization: the candidate's own trials first. */
function FormPicker({ organizationId, trialIds, onPick }: { organizationId: string; trialIds: string[]; onPick: (formId: string) => void }) {
  const query = usePrescreenFormsQuery();
  const [formId, setFormId] = useState('');
  const forms = useMemo(() => {
    const published = (query.data?.prescreenForms ?? []).filter((form) => form.status === 'published' && form.organizationId === organizationId);
    return [...published.filter((form) => trialIds.includes(form.trialId)), ...published.filter((form) => !trialIds.includes(form.trialId))];
  }, [query.data, organizationId, trialIds]);
  if (query.isPending) return <Spinner label="Loading published forms" />;
  if (query.isError) return <ErrorCard title="Could not load prescreen forms" error={query.error} onRetry={() => void query.refetch()} />;
  if (forms.length === 0) {
    return (
      <EmptyState title="No published prescreen form">
        <p>Publish a form for one of your trials first.</p>
        <Link to="/admin/prescreen-forms" className={cn(buttonClass('secondary'), 'mt-3')}>
          Go to prescreen forms
        </Link>
      </EmptyState>
    );
  }
  const chosen = formId || forms[0].id;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Choose a form</CardTitle>
        <CardDescription>Only published forms can be run. The candidate is linked to the form’s trial if they are not already.</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            onPick(chosen);
          }}
        >
          <fieldset className="grid gap-2">
            <legend className="sr-only">Published forms</legend>
            {forms.map((form) => (
              <label
                key={form.id}
                className={cn(
                  'flex cursor-pointer items-start gap-3 rounded-md border p-3',
                  chosen === form.id ? 'border-blue-700 bg-blue-50' : 'border-slate-200',
                )}
              >
                <input type="radio" name="form" className="mt-1 h-4 w-4 accent-blue-700" checked={chosen === form.id} onChange={() => setFormId(form.id)} />
                <span className="grid gap-0.5">
                  <span className="font-medium text-slate-900">{form.name}</span>
                  <span className="text-sm text-slate-700">
                    {form.trialTitle} · version {form.version} · {form.questionCount} questions
                  </span>
                  {trialIds.includes(form.trialId) && (
                    <span>
                      <Badge tone="green">Candidate’s trial</Badge>
                    </span>
                  )}
                </span>
              </label>
            ))}
          </fieldset>
          <div>
            <Button type="submit">Start prescreen</Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

/** /candidates/$id/prescreen: staff ask a published form's questions and record the answers. */
export function RunPrescreenPage({ candidateId }: { candidateId: string }) {
  const candidateQuery = useCandidateQuery(candidateId);
  const [formId, setFormId] = useState<string | undefined>();
  const formQuery = usePrescreenFormQuery(formId);

  let body;
  if (candidateQuery.isPending) body = <Spinner label="Loading candidate" />;
  else if (candidateQuery.isError) {
    const notFound = candidateQuery.error instanceof ApiRequestError && candidateQuery.error.status === 404;
    body = (
      <ErrorCard
        title={notFound ? 'This candidate does not exist' : 'Could not load this candidate'}
        message={notFound ? 'They may have been deleted.' : errorMessage(candidateQuery.error)}
        onRetry={notFound ? undefined : () => void candidateQuery.refetch()}
      />
    );
  } else if (!formId) body = <FormPicker organizationId={candidateQuery.data.organizationId} trialIds={candidateQuery.data.trialIds} onPick={setFormId} />;
  else if (formQuery.isPending) body = <Spinner label="Loading the form" />;
  else if (formQuery.isError) body = <ErrorCard title="Could not load the form" error={formQuery.error} onRetry={() => void formQuery.refetch()} />;
  else
    body = (
      <GuidedForm
        key={formQuery.data.id}
        form={formQuery.data}
        candidateId={candidateId}
        initialLanguage={candidateQuery.data.preferredLanguage === 'es' ? 'es' : 'en'}
        known={candidateQuery.data}
      />
    );

  const candidate = candidateQuery.data;
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title="Run prescreen"
        description={
          candidate ? `Ask ${candidateName(candidate)} the questions and record the answers. The AI recommendation follows from the form’s rules.` : undefined
        }
        actions={
          <>
            {formId && (
              <Button variant="secondary" onClick={() => setFormId(undefined)}>
                Choose another form
              </Button>
            )}
            <Link to="/candidates/$id" params={{ id: candidateId }} className={buttonClass('secondary')}>
              Back to candidate
            </Link>
          </>
        }
      />
      {body}
    </div>
  );
}
