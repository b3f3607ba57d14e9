import { FileJson } from 'lucide-react';
import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { toast } from 'sonner';
import type { OnboardingStep } from '../../../contract/onboarding-steps';
import type { Onboarding } from '../../../contract/onboarding';
import { DropZone } from '../../components/DropZone';
import { FormError } from '../../components/FormError';
import { Field, Label, Select, SubmitButton } from '../../components/ui';
import { errorMessage } from '../../lib/utils';
import { apiProblem } from '../../lib/form-errors';
import { StepCard } from './steps';
import { useImportTrial } from './queries';

interface Study {
  label: string;
  record: Record<string, unknown>;
}

/** NCT id and title of a record, to choose among the records of a file. */
function labelOf(record: unknown, index: number): string {
  const identification = (record as { protocolSection?: { identificationModule?: { nctId?: unknown; briefTitle?: unknown } } } | null)?.protocolSection
    ?.identificationModule;
  const nctId = typeof identification?.nctId === 'string' ? identification.nctId : `Record ${index + 1}`;
  return typeof identification?.briefTitle === 'string' ? `${nctId}: ${identification.briefTitle}` : nctId;
}

const isRecord = (value: unknown): value is Record<string, unknown> => Boolean(value) && typeof value === 'object' && !Array.isArray(value);

/** The trial step before a trial exists: a ClinicalTrials.gov file read in the browser, one of its records imported. */
export function TrialImportForm({ onboarding, onGo }: { onboarding: Onboarding; onGo: (step: OnboardingStep) => void }) {
  const importTrial = useImportTrial(onboarding.id);
  const fileId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [studies, setStudies] = useState<Study[] | null>(null);
  const [chosen, setChosen] = useState(0);
  const [readError, setReadError] = useState<string | null>(null);
  const [recruit, setRecruit] = useState(false);

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setStudies(null);
    setChosen(0);
    setReadError(null);
    importTrial.reset();
    if (!file) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(await file.text());
    } catch (error) {
      setReadError(`${file.name} is not a JSON file: ${errorMessage(error)}`);
      return;
    }
    const records = Array.isArray(parsed) ? parsed : [parsed];
    const found = records.filter(isRecord).map((record, index) => ({ record, label: labelOf(record, index) }));
    if (found.length === 0) {
      setReadError(`${file.name} holds no study record.`);
      return;
    }
    setStudies(found);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const study = studies?.[chosen];
    if (!study) {
      setReadError('Choose a ClinicalTrials.gov JSON file first.');
      fileInput.current?.focus();
      return;
    }
    importTrial.mutate(
      { study: study.record, startRecruiting: recruit },
      { onSuccess: (saved) => toast.success(`Imported ${saved.trial?.title ?? 'the trial'}`) },
    );
  };

  const problem = importTrial.error ? apiProblem(importTrial.error) : null;
  return (
    <StepCard
      step="trial"
      description="Upload the study's record from ClinicalTrials.gov (API v2 JSON): its details, sites and eligibility criteria become the organization's first trial, a draft unless you start recruiting now."
    >
      {onboarding.sites.length === 0 && (
        <p className="text-sm text-slate-800">
          Tip: save the organization's{' '}
          <button type="button" className="font-medium text-blue-700 underline underline-offset-4 hover:text-blue-900" onClick={() => onGo('sites')}>
            sites
          </button>{' '}
          first, so the trial's sites that are theirs are marked as ours.
        </p>
      )}
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <div className="grid gap-1.5">
          <Label htmlFor={fileId}>ClinicalTrials.gov JSON file</Label>
          <DropZone>
            <input
              ref={fileInput}
              id={fileId}
              type="file"
              accept=".json,application/json"
              onChange={(event) => void onFile(event)}
              className="block w-full max-w-xl rounded-md border border-slate-400 bg-white text-sm text-slate-900 file:mr-3 file:h-10 file:border-0 file:border-r file:border-slate-300 file:bg-slate-100 file:px-4 file:text-sm file:font-medium file:text-slate-900 hover:file:bg-slate-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
            />
          </DropZone>
        </div>
        {studies && studies.length > 1 && (
          <Field label="Study to import" hint={`The file holds ${studies.length} studies.`}>
            <Select value={String(chosen)} onChange={(event) => setChosen(Number(event.target.value))}>
              {studies.map((study, index) => (
                <option key={index} value={index}>
                  {study.label}
                </option>
              ))}
            </Select>
          </Field>
        )}
        {studies && studies.length === 1 && <p className="text-sm text-slate-800">Ready to import {studies[0].label}.</p>}
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input type="checkbox" checked={recruit} onChange={(event) => setRecruit(event.target.checked)} className="h-4 w-4 accent-blue-700" />
          Start recruiting once imported
        </label>
        <FormError>{readError ?? (problem ? `The record could not be imported: ${problem.message}` : undefined)}</FormError>
        <div>
          <SubmitButton pending={importTrial.isPending} pendingLabel="Importing…" icon={<FileJson aria-hidden="true" className="h-4 w-4" />}>
            Import the trial
          </SubmitButton>
        </div>
      </form>
    </StepCard>
  );
}
