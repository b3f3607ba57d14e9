import { Link } from '@tanstack/react-router';
import { ArrowLeft, ExternalLink, Upload } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import {
  ConsentSourceSchema,
  IMPORT_FIELDS,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  IMPORT_STREAM_MAX_BYTES,
  type ImportField,
  type ImportPreview,
} from '../../../contract/candidates';
import {
  Button,
  buttonClass,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Field,
  Input,
  Label,
  PageHeader,
  Select,
  SubmitButton,
  Table,
  Td,
  Th,
} from '../../components/ui';
import { cn, errorMessage } from '../../lib/utils';
import { RunDetail } from '../processing-runs/RunDetail';
import { Combobox } from '../../components/Combobox';
import { TRIAL_PICKER, trialOption } from '../trials/trial-option';
import { useTrialsQuery } from '../trials/queries';
import { useCreateTargets } from '../trials/hooks';
import { plural } from './format';
import { IMPORT_FIELD_LABELS } from './import-fields';
import { usePreviewImport, useStartImport, type ImportRequest } from './queries';
import { readPreviewText, useStartStreamedImport, type UploadProgress } from './upload';
import { DropZone } from '../../components/DropZone';
import { FormError } from '../../components/FormError';
import { maxLengthOf } from '../../lib/limits';

const SAMPLE_FIELDS: ImportField[] = ['firstName', 'lastName', 'phone', 'email', 'dateOfBirth'];

/**
 * The chosen file. A CSV file is previewed from its first rows (all of them up to PREVIEW_BYTES) and imported by
 * uploading the file itself (the streamed import, decision 046); a JSON file is read whole and posted as JSON.
 */
type ParsedFile =
  | { name: string; format: 'csv'; data: string; file: File; complete: boolean }
  | { name: string; format: 'json'; data: Array<Record<string, string | number | boolean | null>> };

/** Reads the chosen file: `.json` (an array of objects) or anything else as CSV. */
async function readFile(file: File): Promise<ParsedFile> {
  const head = await file.slice(0, 64).text();
  const isJson = /\.json$/i.test(file.name) || file.type === 'application/json' || /^\s*\[/.test(head);
  if (!isJson) {
    const { text, complete } = await readPreviewText(file);
    return { name: file.name, format: 'csv', data: text, file, complete };
  }
  const text = await file.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('This file is not valid JSON. Choose a CSV file, or a JSON file holding an array of objects.');
  }
  const rows = Array.isArray(parsed) ? parsed : parsed && typeof parsed === 'object' ? Object.values(parsed).find(Array.isArray) : undefined;
  if (!rows) throw new Error('The JSON file must hold an array of objects, one per candidate.');
  return { name: file.name, format: 'json', data: rows as Array<Record<string, string | number | boolean | null>> };
}

function Steps({ step }: { step: 1 | 2 | 3 }) {
  const steps = ['Choose a file', 'Map columns', 'Import'];
  return (
    <ol className="mb-6 flex flex-wrap gap-2 text-sm" aria-label="Import steps">
      {steps.map((label, index) => {
        const number = index + 1;
        const current = number === step;
        return (
          <li
            key={label}
            aria-current={current ? 'step' : undefined}
            className={cn(
              'flex items-center gap-2 rounded-full border px-3 py-1',
              current
                ? 'border-blue-700 bg-blue-50 font-semibold text-blue-900'
                : number < step
                  ? 'border-slate-300 text-slate-800'
                  : 'border-slate-200 text-slate-700',
            )}
          >
            <span className="tabular-nums">{number}.</span> {label}
          </li>
        );
      })}
    </ol>
  );
}

function display(value: unknown) {
  if (value === null || value === undefined || value === '') return '—';
  return String(value);
}

/** Step 2: a field per column (guessed by the server), and the mapped rows with each row's problems, invalid first. */
function MappingStep({
  preview,
  mapping,
  onMappingChange,
  onPage,
  refreshing,
  partial,
}: {
  preview: ImportPreview;
  /** The preview read the file's first rows only (a large CSV file). */
  partial: boolean;
  mapping: Record<string, ImportField>;
  onMappingChange: (column: string, field: ImportField) => void;
  onPage: (offset: number) => void;
  refreshing: boolean;
}) {
  const idBase = useId();
  const consentColumns = (['consentSms', 'consentCalls'] as const).filter((field) => Object.values(mapping).includes(field));
  const shownFields = [...SAMPLE_FIELDS, ...consentColumns];
  const { offset, limit, total } = preview.page;
  const pageText = total
    ? `Rows ${(offset + 1).toLocaleString('en-US')}–${Math.min(offset + limit, total).toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`
    : 'No rows';
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Column mapping</CardTitle>
          <CardDescription>We guessed a candidate field for each column from its name. Change any that are wrong, or ignore a column.</CardDescription>
        </CardHeader>
        <CardContent>
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" data-testid="column-mapping">
            {preview.columns.map((column, index) => (
              <div key={column} className="grid gap-1.5">
                <Label htmlFor={`${idBase}-col-${index}`}>Column “{column}”</Label>
                <Select
                  id={`${idBase}-col-${index}`}
                  value={mapping[column] ?? 'ignore'}
                  onChange={(event) => onMappingChange(column, event.target.value as ImportField)}
                >
                  {IMPORT_FIELDS.map((field) => (
                    <option key={field} value={field}>
                      {IMPORT_FIELD_LABELS[field]}
                    </option>
                  ))}
                </Select>
              </div>
            ))}
          </div>
        </CardContent>
      </Card>
      {hasClinical(mapping) ? <ClinicalCard clinical={preview.clinical} /> : null}
      <Card>
        <CardHeader>
          <CardTitle>Sample</CardTitle>
          <CardDescription aria-live="polite">
            {partial
              ? `The file's first ${plural(preview.totalRows, 'row')} (the rest is checked as it is imported)`
              : `${plural(preview.totalRows, 'row')} in the file`}
            : {preview.sample.valid.toLocaleString('en-US')} valid and {preview.sample.invalid.toLocaleString('en-US')} with problems
            {refreshing ? ' (updating…)' : ''}. Rows with problems are listed first; they are reported and skipped, the others are imported.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Table caption="Sample of mapped rows">
            <thead>
              <tr>
                <Th className="w-16">Row</Th>
                {shownFields.map((field) => (
                  <Th key={field}>{IMPORT_FIELD_LABELS[field]}</Th>
                ))}
                <Th>Problems</Th>
              </tr>
            </thead>
            <tbody>
              {preview.rows.map((row) => (
                <tr key={row.rowNumber} className={row.valid ? undefined : 'bg-amber-50'}>
                  <Td className="tabular-nums">{row.rowNumber}</Td>
                  {shownFields.map((field) => (
                    <Td key={field} className="max-w-[12rem] truncate">
                      {display(row.values[field])}
                    </Td>
                  ))}
                  <Td>
                    {row.valid ? (
                      <span className="text-green-800">Valid</span>
                    ) : (
                      <ul className="grid gap-0.5 text-red-800">
                        {row.errors.map((error, index) => (
                          <li key={index}>
                            <span className="font-medium">{IMPORT_FIELD_LABELS[error.field as ImportField] ?? error.field}</span>: {error.message}
                          </li>
                        ))}
                      </ul>
                    )}
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
          <div className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-700">
            <span aria-live="polite">{pageText}</span>
            <div className="flex gap-2">
              <Button variant="secondary" disabled={offset === 0 || refreshing} onClick={() => onPage(Math.max(0, offset - limit))}>
                Previous rows
              </Button>
              <Button variant="secondary" disabled={offset + limit >= total || refreshing} onClick={() => onPage(offset + limit)}>
                Next rows
              </Button>
            </div>
          </div>
        </CardContent>
      </Card>
    </div>
  );
}

/** The upload's progress; once every byte is sent, the server stores the last rows before it answers. */
function UploadBar({ name, progress }: { name: string; progress: UploadProgress }) {
  const percent = progress.total ? Math.min(100, Math.round((progress.sent / progress.total) * 100)) : 0;
  const done = progress.total > 0 && progress.sent >= progress.total;
  return (
    <div className="grid max-w-xl gap-1.5">
      <div
        role="progressbar"
        aria-label={`Uploading ${name}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full bg-blue-700 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-sm text-slate-700" aria-live="polite">
        {done
          ? 'File sent; storing its rows…'
          : `Uploading ${name}: ${percent}% (${(progress.sent / 1024 / 1024).toFixed(1)} of ${(progress.total / 1024 / 1024).toFixed(1)} MB)`}
      </p>
    </div>
  );
}

const hasClinical = (mapping: Record<string, ImportField>) =>
  Object.values(mapping).some((field) => field === 'conditions' || field === 'medications' || field === 'lab' || field === 'notes');

/** What the diagnosis, medication, lab and notes columns give the trial matcher, and the values it could not name. */
function ClinicalCard({ clinical }: { clinical: ImportPreview['clinical'] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Clinical facts</CardTitle>
        <CardDescription>
          {plural(clinical.facts, 'clinical fact')} read from the diagnosis, medication and lab columns; the trial matcher uses them.
          {clinical.notes ? ` ${plural(clinical.notes, 'row')} with notes: each is kept as a clinical note and read into facts when imported.` : ''}
          {clinical.labColumns.length
            ? ` Lab columns: ${clinical.labColumns.map((lab) => `“${lab.column}” as ${lab.measure}${lab.unit ? ` (${lab.unit})` : ''}`).join(', ')}.`
            : ''}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {clinical.unrecognised.length ? (
          <Table caption="Values not recognised">
            <thead>
              <tr>
                <Th>Column</Th>
                <Th>Value</Th>
                <Th>Rows</Th>
                <Th>What happens</Th>
              </tr>
            </thead>
            <tbody>
              {clinical.unrecognised.map((item) => (
                <tr key={`${item.column}:${item.value}`}>
                  <Td>{item.column}</Td>
                  <Td className="max-w-[16rem] truncate">{item.value}</Td>
                  <Td className="tabular-nums">{item.rows.toLocaleString('en-US')}</Td>
                  <Td>
                    {item.problem}; {item.kept ? 'kept by its name' : 'left out'}
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        ) : (
          <p className="text-sm text-green-800">Every value was recognised.</p>
        )}
      </CardContent>
    </Card>
  );
}

const today = () => new Date().toISOString().slice(0, 10);

/** When a consent column is mapped: where the file's consent was documented (required) and when. */
function ConsentCard({
  source,
  date,
  onSource,
  onDate,
  showError,
}: {
  source: string;
  date: string;
  onSource: (value: string) => void;
  onDate: (value: string) => void;
  showError: boolean;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Documented consent</CardTitle>
        <CardDescription>
          A consent column is mapped. Say where this file’s consent was given; it is kept with each candidate who said yes (rows with their own source or date
          keep theirs).
        </CardDescription>
      </CardHeader>
      <CardContent>
        <div className="grid max-w-2xl gap-4 sm:grid-cols-2">
          <Field
            label="Consent source (required)"
            hint='For example "paper form at clinic" or "web form".'
            error={showError && !source.trim() ? 'Say where the consent was given' : undefined}
          >
            <Input value={source} maxLength={maxLengthOf(ConsentSourceSchema)} onChange={(event) => onSource(event.target.value)} />
          </Field>
          <Field label="Consent date" hint="For rows without a date of their own.">
            <Input type="date" value={date} max={today()} onChange={(event) => onDate(event.target.value)} />
          </Field>
        </div>
      </CardContent>
    </Card>
  );
}

/** The import wizard: choose a file and options, check the column mapping, then follow the run. */
export function ImportCandidatesPage() {
  const [step, setStep] = useState<1 | 2 | 3>(1);
  const [file, setFile] = useState<ParsedFile | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [duplicates, setDuplicates] = useState<'merge' | 'skip'>('merge');
  const [defaultCountry, setDefaultCountry] = useState('US');
  const [trialId, setTrialId] = useState('');
  const createTargets = useCreateTargets();
  const [organizationId, setOrganizationId] = useState('');
  const [mapping, setMapping] = useState<Record<string, ImportField>>({});
  const [runId, setRunId] = useState<string | null>(null);
  const [previewData, setPreviewData] = useState<ImportPreview | null>(null);
  const [consentSource, setConsentSource] = useState('');
  const [consentDate, setConsentDate] = useState(today());
  const [consentTouched, setConsentTouched] = useState(false);
  const preview = usePreviewImport();
  const startJson = useStartImport();
  const [upload, setUpload] = useState<UploadProgress | null>(null);
  const startStream = useStartStreamedImport(setUpload);
  const start = file?.format === 'csv' ? startStream : startJson;
  const trialsQuery = useTrialsQuery();
  const targetOrganization = createTargets ? organizationId || createTargets[0]?.id : undefined;
  const trialOptions = useMemo(
    () => (trialsQuery.data?.trials ?? []).filter((trial) => !targetOrganization || trial.organizationId === targetOrganization).map(trialOption),
    [trialsQuery.data, targetOrganization],
  );
  const countryValid = /^[A-Za-z]{2}$/.test(defaultCountry);

  const request = (overrides: Partial<ImportRequest> = {}): ImportRequest | null =>
    file
      ? {
          format: file.format,
          data: file.data,
          duplicates,
          defaultCountry: defaultCountry.toUpperCase(),
          trialId: trialId || undefined,
          organizationId: targetOrganization,
          label: `Import of ${file.name}`,
          ...overrides,
        }
      : null;

  const runPreview = (input: ImportRequest) =>
    preview.mutate(input, {
      onSuccess: (result) => {
        setMapping(result.mapping);
        setPreviewData(result);
        setStep(2);
      },
    });

  if (step === 3 && runId) {
    return (
      <div>
        <PageHeader
          title="Import candidates"
          actions={
            <>
              <Link to="/admin/processed-runs" search={{ id: runId }} className={buttonClass('secondary')}>
                <ExternalLink aria-hidden="true" className="h-4 w-4" />
                View in processed runs
              </Link>
              <Link to="/candidates" className={buttonClass('primary')}>
                Go to candidates
              </Link>
            </>
          }
        />
        <Steps step={3} />
        <RunDetail runId={runId} />
      </div>
    );
  }

  return (
    <div>
      <PageHeader
        title="Import candidates"
        description={`Up to ${IMPORT_MAX_ROWS.toLocaleString('en-US')} candidates from a CSV file with a header row (up to ${IMPORT_STREAM_MAX_BYTES / 1024 / 1024} MB), or a JSON array of objects (up to ${IMPORT_MAX_BYTES / 1024 / 1024} MB).`}
        actions={
          <Link to="/candidates" className={buttonClass('secondary')}>
            <ArrowLeft aria-hidden="true" className="h-4 w-4" />
            Back to candidates
          </Link>
        }
      />
      <Steps step={step} />
      {step === 1 && (
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
                const input = request({ mapping: undefined });
                if (!input) {
                  setFileError('Choose a CSV or JSON file first');
                  return;
                }
                if (!countryValid) return;
                runPreview(input);
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
                    onChange={async (event) => {
                      const chosen = event.target.files?.[0];
                      setFile(null);
                      setFileError(null);
                      preview.reset();
                      if (!chosen) return;
                      try {
                        setFile(await readFile(chosen));
                      } catch (error) {
                        setFileError(errorMessage(error));
                      }
                    }}
                  />
                </DropZone>
              </Field>
              {createTargets && (
                <Field label="Organization">
                  <Select value={targetOrganization ?? ''} onChange={(event) => (setOrganizationId(event.target.value), setTrialId(''))}>
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
                    checked={duplicates === 'merge'}
                    onChange={() => setDuplicates('merge')}
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
                    checked={duplicates === 'skip'}
                    onChange={() => setDuplicates('skip')}
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
                    value={defaultCountry}
                    maxLength={2}
                    className="w-24 uppercase"
                    onChange={(event) => setDefaultCountry(event.target.value.toUpperCase())}
                  />
                </Field>
                <Field label="Link to trial (optional)">
                  <Combobox {...TRIAL_PICKER} options={trialOptions} value={trialId} onChange={setTrialId} noneLabel="No trial" />
                </Field>
              </div>
              {preview.isError && <FormError>{errorMessage(preview.error)}</FormError>}
              <div>
                <SubmitButton pending={preview.isPending} pendingLabel="Reading the file…">
                  Next: check columns
                </SubmitButton>
              </div>
            </form>
          </CardContent>
        </Card>
      )}
      {step === 2 && previewData && (
        <div className="grid gap-6">
          <MappingStep
            preview={previewData}
            mapping={mapping}
            refreshing={preview.isPending}
            partial={file?.format === 'csv' && !file.complete}
            onMappingChange={(column, field) => {
              const next = { ...mapping, [column]: field };
              setMapping(next);
              const input = request({ mapping: next });
              if (input) runPreview(input);
            }}
            onPage={(offset) => {
              const input = request({ mapping, previewOffset: offset });
              if (input) runPreview(input);
            }}
          />
          {previewData.consentMapped && (
            <ConsentCard source={consentSource} date={consentDate} onSource={setConsentSource} onDate={setConsentDate} showError={consentTouched} />
          )}
          {preview.isError && <FormError>{errorMessage(preview.error)}</FormError>}
          {start.isError && <FormError>{errorMessage(start.error)}</FormError>}
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => setStep(1)}>
              <ArrowLeft aria-hidden="true" className="h-4 w-4" />
              Back
            </Button>
            <Button
              disabled={start.isPending || preview.isPending}
              onClick={() => {
                if (previewData.consentMapped && !consentSource.trim()) {
                  setConsentTouched(true);
                  return;
                }
                const input = request({
                  mapping,
                  ...(previewData.consentMapped ? { consentSource: consentSource.trim(), consentDate: consentDate || undefined } : {}),
                });
                if (!input || !file) return;
                const started = {
                  onSuccess: ({ run }: { run: { id: string } }) => {
                    setRunId(run.id);
                    setStep(3);
                  },
                };
                if (file.format === 'json') startJson.mutate(input, started);
                else {
                  const { format: _format, data: _data, previewOffset: _offset, previewLimit: _limit, ...query } = input;
                  setUpload({ sent: 0, total: file.file.size });
                  startStream.mutate({ file: file.file, query }, started);
                }
              }}
            >
              <Upload aria-hidden="true" className="h-4 w-4" />
              {start.isPending
                ? 'Starting…'
                : file?.format === 'csv' && !file.complete
                  ? 'Import the whole file'
                  : `Import ${plural(previewData.totalRows, 'row')}`}
            </Button>
          </div>
          {startStream.isPending && upload && file ? <UploadBar name={file.name} progress={upload} /> : null}
        </div>
      )}
    </div>
  );
}
