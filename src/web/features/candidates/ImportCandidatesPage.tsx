import { Link } from '@tanstack/react-router';
import { ArrowLeft, ExternalLink } from 'lucide-react';
import { useState } from 'react';
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, IMPORT_STREAM_MAX_BYTES, type ImportField, type ImportPreview } from '../../../contract/candidates';
import { buttonClass, PageHeader } from '../../components/ui';
import { cn, errorMessage } from '../../lib/utils';
import { RunDetail } from '../processing-runs/RunDetail';
import { useCreateTargets } from '../trials/hooks';
import { type ParsedFile, readFile } from './import-file';
import { FileStep, type ImportOptions } from './ImportFileStep';
import { type ImportConsent, ReviewStep, today } from './ImportReviewStep';
import { type ImportRequest, usePreviewImport, useStartImport } from './queries';
import { type UploadProgress, useStartStreamedImport } from './upload';

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

/** Step 3: the import's run as it goes, with the way to processed runs and to the candidates. */
function ImportRunView({ runId }: { runId: string }) {
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

/** The import wizard: choose a file and options, check the column mapping, then follow the run. */
export function ImportCandidatesPage() {
  const [step, setStep] = useState<1 | 2 | 3>(1);
  const [file, setFile] = useState<ParsedFile | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [options, setOptions] = useState<ImportOptions>({ duplicates: 'merge', defaultCountry: 'US', trialId: '', organizationId: '' });
  const createTargets = useCreateTargets();
  const [mapping, setMapping] = useState<Record<string, ImportField>>({});
  const [runId, setRunId] = useState<string | null>(null);
  const [previewData, setPreviewData] = useState<ImportPreview | null>(null);
  const [consent, setConsent] = useState<ImportConsent>(() => ({ source: '', date: today(), touched: false }));
  const preview = usePreviewImport();
  const startJson = useStartImport();
  const [upload, setUpload] = useState<UploadProgress | null>(null);
  const startStream = useStartStreamedImport(setUpload);
  const start = file?.format === 'csv' ? startStream : startJson;
  const targetOrganization = createTargets ? options.organizationId || createTargets[0]?.id : undefined;
  const countryValid = /^[A-Za-z]{2}$/.test(options.defaultCountry);
  const partial = file?.format === 'csv' && !file.complete;

  const request = (overrides: Partial<ImportRequest> = {}): ImportRequest | null =>
    file
      ? {
          format: file.format,
          data: file.data,
          duplicates: options.duplicates,
          defaultCountry: options.defaultCountry.toUpperCase(),
          trialId: options.trialId || undefined,
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

  const choose = async (chosen: File | undefined) => {
    setFile(null);
    setFileError(null);
    preview.reset();
    if (!chosen) return;
    try {
      setFile(await readFile(chosen));
    } catch (error) {
      setFileError(errorMessage(error));
    }
  };

  const submitFile = () => {
    const input = request({ mapping: undefined });
    if (!input) {
      setFileError('Choose a CSV or JSON file first');
      return;
    }
    if (!countryValid) return;
    runPreview(input);
  };

  const startImport = () => {
    if (!previewData) return;
    if (previewData.consentMapped && !consent.source.trim()) {
      setConsent((current) => ({ ...current, touched: true }));
      return;
    }
    const input = request({
      mapping,
      ...(previewData.consentMapped ? { consentSource: consent.source.trim(), consentDate: consent.date || undefined } : {}),
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
  };

  if (step === 3 && runId) return <ImportRunView runId={runId} />;

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
        <FileStep
          file={file}
          fileError={fileError}
          onChoose={(chosen) => void choose(chosen)}
          options={options}
          onOptions={(patch) => setOptions((current) => ({ ...current, ...patch }))}
          createTargets={createTargets}
          targetOrganization={targetOrganization}
          countryValid={countryValid}
          previewing={preview.isPending}
          previewError={preview.isError ? preview.error : null}
          onSubmit={submitFile}
        />
      )}
      {step === 2 && previewData && (
        <ReviewStep
          preview={previewData}
          mapping={mapping}
          partial={partial}
          refreshing={preview.isPending}
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
          consent={consent}
          onConsent={(patch) => setConsent((current) => ({ ...current, ...patch }))}
          previewError={preview.isError ? preview.error : null}
          startError={start.isError ? start.error : null}
          starting={start.isPending}
          upload={startStream.isPending && upload && file ? { name: file.name, progress: upload } : null}
          onBack={() => setStep(1)}
          onImport={startImport}
        />
      )}
    </div>
  );
}
