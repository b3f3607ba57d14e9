import { OrganizationOptions } from '../../components/OrganizationOptions';
import { Link, useNavigate } from '@tanstack/react-router';
import { AlertTriangle } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Combobox } from '../../components/Combobox';
import { Spinner } from '../../components/Spinner';
import { Card, CardContent, CardDescription, CardHeader, CardTitle, Field, Label, PageHeader, Select, buttonClass } from '../../components/ui';
import { useActiveOrganization } from '../../lib/active-organization';
import { errorMessage } from '../../lib/utils';
import { TRIAL_SEARCH_LABEL, TRIAL_SEARCH_PLACEHOLDER } from './format';
import { useCreateTargets } from './hooks';
import { DraftReviewCard } from './DraftReviewCard';
import { useStudyFile } from './useStudyFile';
import { DropZone } from '../../components/DropZone';
import { FormError } from '../../components/FormError';

/** Create a draft trial from a ClinicalTrials.gov record file: choose the file, preview, then save. */
export function ImportTrialPage() {
  const navigate = useNavigate();
  const fileInputId = useId();
  const { activeOrganization } = useActiveOrganization();
  const createTargets = useCreateTargets();
  const [organizationId, setOrganizationId] = useState<string | undefined>(undefined);
  const target = createTargets ? (organizationId ?? createTargets[0]?.id) : undefined;
  const file = useStudyFile(target);
  const { fileInput, fileName, records, choices, chosen, content, readError, preview, save, onFile, reset } = file;
  const onCreate = () => {
    if (!content) return;
    save.mutate(
      { content, organizationId: target },
      {
        onSuccess: async (trial) => {
          toast.success(`Created draft trial ${trial.title}`);
          await navigate({ to: '/trials/$trialId', params: { trialId: trial.id } });
        },
      },
    );
  };

  const draft = preview.data;

  return (
    <div className="grid gap-6 [&>div:first-child]:mb-0">
      <PageHeader
        title="Import from ClinicalTrials.gov"
        description="Upload a study record (ClinicalTrials.gov API v2 JSON). Its details and eligibility criteria are read into a draft trial you review before it is saved."
      />
      <Card>
        <CardHeader>
          <CardTitle>1. Choose the record file</CardTitle>
          <CardDescription>
            Download a study as JSON from ClinicalTrials.gov (or its API). A file holding several studies lets you pick one.
            {!createTargets && activeOrganization && <> The trial is created in {activeOrganization.name}.</>}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {createTargets && (
            <Field label="Organization" hint="The organization the new trial belongs to.">
              <Select value={target ?? ''} onChange={(event) => setOrganizationId(event.target.value)}>
                <OrganizationOptions organizations={createTargets} />
              </Select>
            </Field>
          )}
          <div className="grid gap-1.5">
            <Label htmlFor={fileInputId}>ClinicalTrials.gov JSON file</Label>
            <DropZone>
              <input
                ref={fileInput}
                id={fileInputId}
                type="file"
                accept=".json,application/json"
                aria-describedby={`${fileInputId}-hint`}
                onChange={(event) => void onFile(event)}
                className="block w-full max-w-xl rounded-md border border-slate-400 bg-white text-sm text-slate-900 file:mr-3 file:h-10 file:border-0 file:border-r file:border-slate-300 file:bg-slate-100 file:px-4 file:text-sm file:font-medium file:text-slate-900 hover:file:bg-slate-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
              />
            </DropZone>
            <p id={`${fileInputId}-hint`} className="text-xs text-slate-700">
              A .json file with one study record, or a list of records. It is read in your browser and sent to Cohortly only to build the draft.
            </p>
          </div>
          {records && (
            <Field label="Study to import" hint={`${fileName ?? 'The file'} holds ${records.length} studies.`}>
              <Combobox
                options={choices.map((choice) => ({ value: String(choice.index), label: choice.title, description: choice.nctId, keywords: choice.nctId }))}
                value={chosen}
                onChange={file.choose}
                placeholder="Choose a study…"
                searchLabel={TRIAL_SEARCH_LABEL}
                searchPlaceholder={TRIAL_SEARCH_PLACEHOLDER}
                listLabel="Studies"
                noun="studies"
              />
            </Field>
          )}
          {readError && (
            <FormError className="flex items-start gap-2">
              <AlertTriangle aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
              {readError}
            </FormError>
          )}
          {preview.error && (
            <FormError className="flex items-start gap-2">
              <AlertTriangle aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
              <div>
                <p className="font-medium">{fileName ? `${fileName} could not be read as a study record.` : 'The record could not be read.'}</p>
                <p>{errorMessage(preview.error)}</p>
              </div>
            </FormError>
          )}
        </CardContent>
      </Card>

      {preview.isPending && <Spinner label="Reading the study record" />}

      {draft && <DraftReviewCard draft={draft} saving={save.isPending} saveError={save.error} onReset={reset} onCreate={onCreate} />}

      <div>
        <Link to="/trials" className={buttonClass('link', 'md')}>
          Back to trials
        </Link>
      </div>
    </div>
  );
}
