import { OrganizationOptions } from '../../components/OrganizationOptions';
import { Link, useNavigate } from '@tanstack/react-router';
import { AlertTriangle, FileJson } from 'lucide-react';
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { toast } from 'sonner';
import type { TrialDraft } from '../../../contract/trials';
import { Combobox } from '../../components/Combobox';
import { Spinner } from '../../components/Spinner';
import { Badge, Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Field, Label, PageHeader, Select, buttonClass } from '../../components/ui';
import { useActiveOrganization } from '../../lib/active-organization';
import { errorMessage } from '../../lib/utils';
import { CriteriaLists, TrialFacts, needsReviewCount } from './components';
import { ageRangeInWords, SEX_LABELS, siteAddress, TRIAL_SEARCH_LABEL, TRIAL_SEARCH_PLACEHOLDER } from './format';
import { usePreviewStudy, useImportStudy, type StudyFileContent } from './queries';
import { useCreateTargets } from './hooks';
import { DropZone } from '../../components/DropZone';
import { FormError } from '../../components/FormError';

interface StudyChoice {
  index: number;
  nctId: string;
  title: string;
}

/** NCT id and title of each record of an array file, to choose from. */
function choicesOf(records: unknown[]): StudyChoice[] {
  return records.map((record, index) => {
    const identification = (
      record as { protocolSection?: { identificationModule?: { nctId?: unknown; briefTitle?: unknown; officialTitle?: unknown } } } | null
    )?.protocolSection?.identificationModule;
    const nctId = typeof identification?.nctId === 'string' ? identification.nctId : `Record ${index + 1}`;
    const title =
      typeof identification?.briefTitle === 'string'
        ? identification.briefTitle
        : typeof identification?.officialTitle === 'string'
          ? identification.officialTitle
          : 'Untitled study';
    return { index, nctId, title };
  });
}

function DraftPreview({ draft }: { draft: TrialDraft }) {
  const review = needsReviewCount(draft.criteria);
  const facts: Array<[string, string]> = [
    ['Public title', draft.publicTitle ?? '—'],
    ['NCT id', draft.nctId ?? '—'],
    ['Sponsor', draft.sponsor ?? '—'],
    ['Phase', draft.phase ?? '—'],
    ['Conditions', draft.conditions.length ? draft.conditions.join(', ') : '—'],
    ['Target enrollment', draft.targetEnrollment == null ? '—' : String(draft.targetEnrollment)],
    ['Ages', ageRangeInWords(draft.minimumAgeYears, draft.maximumAgeYears)],
    ['Sex', SEX_LABELS[draft.sex]],
    ['Healthy volunteers', draft.healthyVolunteers == null ? 'Not stated' : draft.healthyVolunteers ? 'Accepted' : 'Not accepted'],
    ['Sites', draft.sites.length === 1 ? '1 site' : `${draft.sites.length} sites`],
  ];
  return (
    <div className="grid gap-6">
      <div>
        <p className="text-xs font-semibold uppercase tracking-wide text-slate-700">Title</p>
        <p className="text-lg font-semibold text-slate-900" data-testid="preview-title">
          {draft.title}
        </p>
      </div>
      <TrialFacts facts={facts} className="sm:grid-cols-2 lg:grid-cols-3" />
      {draft.sites.length > 0 && (
        <details className="rounded-md border border-slate-200 px-3 py-2">
          <summary className="cursor-pointer text-sm font-medium text-slate-900">
            Show the {draft.sites.length === 1 ? 'site' : `${draft.sites.length} sites`}
          </summary>
          <ul className="mt-2 grid gap-1 text-sm text-slate-800">
            {draft.sites.map((site, index) => (
              <li key={`${site.name}-${index}`}>
                <span className="font-medium">{site.name}</span> — {siteAddress(site)}
              </li>
            ))}
          </ul>
        </details>
      )}
      {draft.summary && <p className="whitespace-pre-line text-sm text-slate-800">{draft.summary}</p>}
      <div className="grid gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="text-base font-semibold text-slate-900">Eligibility</h3>
          {review > 0 ? (
            <Badge tone="amber">
              {review} of {draft.criteria.length} criteria need review
            </Badge>
          ) : (
            <Badge tone="green">All {draft.criteria.length} criteria read</Badge>
          )}
        </div>
        <CriteriaLists criteria={draft.criteria} idPrefix="preview" headingLevel="h4" />
      </div>
    </div>
  );
}

/** Create a draft trial from a ClinicalTrials.gov record file: choose the file, preview, then save. */
export function ImportTrialPage() {
  const navigate = useNavigate();
  const fileInputId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const { activeOrganization } = useActiveOrganization();
  const createTargets = useCreateTargets();
  const [organizationId, setOrganizationId] = useState<string | undefined>(undefined);
  const target = createTargets ? (organizationId ?? createTargets[0]?.id) : undefined;
  const [fileName, setFileName] = useState<string | null>(null);
  const [records, setRecords] = useState<unknown[] | null>(null);
  const [chosen, setChosen] = useState<string>('');
  const [content, setContent] = useState<StudyFileContent | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const preview = usePreviewStudy();
  const save = useImportStudy();

  const runPreview = (next: StudyFileContent) => {
    setContent(next);
    save.reset();
    preview.mutate({ content: next, organizationId: target });
  };

  /** Forgets what the last file gave: its records, the chosen one, the preview, a read or save error. */
  const forgetFile = () => {
    setRecords(null);
    setChosen('');
    setContent(null);
    setReadError(null);
    preview.reset();
    save.reset();
  };

  const reset = () => {
    forgetFile();
    setFileName(null);
    if (fileInput.current) fileInput.current.value = '';
  };

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    forgetFile();
    if (!file) {
      setFileName(null);
      return;
    }
    setFileName(file.name);
    let text: string;
    try {
      text = await file.text();
    } catch (error) {
      setReadError(`Could not read ${file.name}: ${errorMessage(error)}`);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: the server names the problem.
      runPreview({ kind: 'text', text });
      return;
    }
    if (Array.isArray(parsed)) {
      if (parsed.length === 0) {
        setReadError(`${file.name} holds an empty list: there is no study to import.`);
        return;
      }
      if (parsed.length === 1) {
        runPreview({ kind: 'json', study: parsed[0] });
        return;
      }
      setRecords(parsed);
      return;
    }
    runPreview({ kind: 'json', study: parsed });
  };

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

  const choices = records ? choicesOf(records) : [];
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
                onChange={(next) => {
                  setChosen(next);
                  if (next !== '') runPreview({ kind: 'json', study: records[Number(next)] });
                }}
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

      {draft && (
        <Card>
          <CardHeader>
            <CardTitle>2. Review the draft</CardTitle>
            <CardDescription>
              Nothing is saved yet. Criteria marked “Needs review” could not be read into a rule, or should be checked by a person; you can fix them after
              creating the trial.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-6">
            <DraftPreview draft={draft} />
            {save.error && <FormError>{errorMessage(save.error)}</FormError>}
            <div className="flex flex-wrap justify-end gap-2 border-t border-slate-200 pt-4">
              <Button variant="secondary" onClick={reset}>
                Choose another file
              </Button>
              <Button onClick={onCreate} disabled={save.isPending}>
                <FileJson aria-hidden="true" className="h-4 w-4" />
                {save.isPending ? 'Creating…' : 'Create draft trial'}
              </Button>
            </div>
          </CardContent>
        </Card>
      )}

      <div>
        <Link to="/trials" className={buttonClass('link', 'md')}>
          Back to trials
        </Link>
      </div>
    </div>
  );
}
