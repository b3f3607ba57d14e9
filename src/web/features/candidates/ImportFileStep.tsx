import { Combobox } from '../../components/Combobox';
import { DropZone } from '../../components/DropZone';
import { FormError } from '../../components/FormError';
import { Card, CardContent, CardHeader, CardTitle, Field, Input, Select, SubmitButton } from '../../components/ui';
import { errorMessage } from '../../lib/utils';
import { useTrialsQuery } from '../trials/queries';
import type { useCreateTargets } from '../trials/hooks';
import { TRIAL_PICKER, trialOption } from '../trials/trial-option';
import { useMemo } from 'react';
import type { ParsedFile } from './import-file';

/** How the rows are imported: what a duplicate does, the phone numbers' default country, and where they go. */
export interface ImportOptions {
  duplicates: 'merge' | 'skip';
  defaultCountry: string;
  trialId: string;
  /** Chosen by an operator who can create in several organizations; empty: the first of them. */
  organizationId: string;
}

/** Step 1 of the import: the file, the organization (when there is a choice), duplicates, country and trial. */
export function FileStep({
  file,
  fileError,
  onChoose,
  options,
  onOptions,
  createTargets,
  targetOrganization,
  countryValid,
  previewing,
  previewError,
  onSubmit,
}: {
  file: ParsedFile | null;
  fileError: string | null;
  onChoose: (chosen: File | undefined) => void;
  options: ImportOptions;
  onOptions: (patch: Partial<ImportOptions>) => void;
  createTargets: ReturnType<typeof useCreateTargets>;
  targetOrganization: string | undefined;
  countryValid: boolean;
  previewing: boolean;
  previewError: unknown;
  onSubmit: () => void;
}) {
  const trialsQuery = useTrialsQuery();
  const trialOptions = useMemo(
    () => (trialsQuery.data?.trials ?? []).filter((trial) => !targetOrganization || trial.organizationId === targetOrganization).map(trialOption),
    [trialsQuery.data, targetOrganization],
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle>Choose a file and options</CardTitle>
      </CardHeader>
      <CardContent>
        <form
          className="grid max-w-2xl gap-5"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            onSubmit();
          }}
        >
          <Field
            label="Candidates file (CSV or JSON)"
            error={fileError ?? undefined}
            hint={file ? `Chosen: ${file.name} (${file.format.toUpperCase()})` : 'CSV with a header row, or a JSON array of objects.'}
          >
            <DropZone>
              <Input
                type="file"
                accept=".csv,.json,text/csv,application/json"
                className="h-auto py-1.5 file:mr-3 file:rounded file:border-0 file:bg-slate-100 file:px-3 file:py-1 file:text-sm file:font-medium file:text-slate-800"
                onChange={(event) => onChoose(event.target.files?.[0])}
              />
            </DropZone>
          </Field>
          {createTargets && (
            <Field label="Organization">
              <Select value={targetOrganization ?? ''} onChange={(event) => onOptions({ organizationId: event.target.value, trialId: '' })}>
                {createTargets.map((org) => (
                  <option key={org.id} value={org.id}>
                    {org.name}
                  </option>
                ))}
              </Select>
            </Field>
          )}
          <fieldset className="grid gap-2">
            <legend className="text-sm font-medium text-slate-800">Duplicates (same phone or email as an existing candidate or an earlier row)</legend>
            <label className="flex items-start gap-2 text-sm text-slate-800">
              <input
                type="radio"
                name="duplicates"
                value="merge"
                className="mt-0.5 h-4 w-4 accent-blue-700"
                checked={options.duplicates === 'merge'}
                onChange={() => onOptions({ duplicates: 'merge' })}
              />
              <span>
                <span className="font-medium">Merge</span> — fill the existing candidate’s empty fields
              </span>
            </label>
            <label className="flex items-start gap-2 text-sm text-slate-800">
              <input
                type="radio"
                name="duplicates"
                value="skip"
                className="mt-0.5 h-4 w-4 accent-blue-700"
                checked={options.duplicates === 'skip'}
                onChange={() => onOptions({ duplicates: 'skip' })}
              />
              <span>
                <span className="font-medium">Skip</span> — leave the existing candidate as it is
              </span>
            </label>
          </fieldset>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              label="Default country"
              hint="For phone numbers written without +country code."
              error={countryValid ? undefined : 'Use a two-letter country code, e.g. US'}
            >
              <Input
                value={options.defaultCountry}
                maxLength={2}
                className="w-24 uppercase"
                onChange={(event) => onOptions({ defaultCountry: event.target.value.toUpperCase() })}
              />
            </Field>
            <Field label="Link to trial (optional)">
              <Combobox {...TRIAL_PICKER} options={trialOptions} value={options.trialId} onChange={(trialId) => onOptions({ trialId })} noneLabel="No trial" />
            </Field>
          </div>
          {previewError ? <FormError>{errorMessage(previewError)}</FormError> : null}
          <div>
            <SubmitButton pending={previewing} pendingLabel="Reading the file…">
              Next: check columns
            </SubmitButton>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
