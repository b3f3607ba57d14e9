import { useId } from 'react';
import { ArrowLeft, Upload } from 'lucide-react';
import { ConsentSourceSchema, IMPORT_FIELDS, type ImportField, type ImportPreview } from '../../../contract/candidates';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Field, Input, Label, Select, Table, Td, Th } from '../../components/ui';
import { FormError } from '../../components/FormError';
import { maxLengthOf } from '../../lib/limits';
import { errorMessage } from '../../lib/utils';
import { formatBirthDate, plural } from './format';
import { IMPORT_FIELD_LABELS } from './import-fields';
import type { UploadProgress } from './upload';

const SAMPLE_FIELDS: ImportField[] = ['firstName', 'lastName', 'phone', 'email', 'dateOfBirth'];

/** A mapped value as a person reads it: a date of birth in words, never the stored "1971-04-12". */
function display(field: ImportField, value: unknown) {
  if (value === null || value === undefined || value === '') return '—';
  if (field === 'dateOfBirth' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return formatBirthDate(value);
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
    <div className="grid grid-cols-1 gap-6">
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
                      {display(field, row.values[field])}
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
          <Table caption="Values not recognized">
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
          <p className="text-sm text-green-800">Every value was recognized.</p>
        )}
      </CardContent>
    </Card>
  );
}

export const today = () => new Date().toISOString().slice(0, 10);

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

/** The consent the file's rows carry when a consent column is mapped; `touched` once Import was pressed. */
export interface ImportConsent {
  source: string;
  date: string;
  touched: boolean;
}

/**
 * Step 2 of the import: the column mapping and its preview, the consent it needs, and Import (the whole file when
 * only its first rows were previewed), with the upload's progress.
 */
export function ReviewStep({
  preview,
  mapping,
  partial,
  refreshing,
  onMappingChange,
  onPage,
  consent,
  onConsent,
  previewError,
  startError,
  starting,
  upload,
  onBack,
  onImport,
}: {
  preview: ImportPreview;
  mapping: Record<string, ImportField>;
  /** The preview read the file's first rows only (a large CSV file). */
  partial: boolean;
  refreshing: boolean;
  onMappingChange: (column: string, field: ImportField) => void;
  onPage: (offset: number) => void;
  consent: ImportConsent;
  onConsent: (patch: Partial<ImportConsent>) => void;
  previewError: unknown;
  startError: unknown;
  starting: boolean;
  /** The file being sent and how far, while a CSV file uploads. */
  upload: { name: string; progress: UploadProgress } | null;
  onBack: () => void;
  onImport: () => void;
}) {
  return (
    <div className="grid grid-cols-1 gap-6">
      <MappingStep preview={preview} mapping={mapping} refreshing={refreshing} partial={partial} onMappingChange={onMappingChange} onPage={onPage} />
      {preview.consentMapped && (
        <ConsentCard
          source={consent.source}
          date={consent.date}
          onSource={(source) => onConsent({ source })}
          onDate={(date) => onConsent({ date })}
          showError={consent.touched}
        />
      )}
      {previewError ? <FormError>{errorMessage(previewError)}</FormError> : null}
      {startError ? <FormError>{errorMessage(startError)}</FormError> : null}
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={onBack}>
          <ArrowLeft aria-hidden="true" className="h-4 w-4" />
          Back
        </Button>
        <Button disabled={starting || refreshing} onClick={onImport}>
          <Upload aria-hidden="true" className="h-4 w-4" />
          {starting ? 'Starting…' : partial ? 'Import the whole file' : `Import ${plural(preview.totalRows, 'row')}`}
        </Button>
      </div>
      {upload ? <UploadBar name={upload.name} progress={upload.progress} /> : null}
    </div>
  );
}
