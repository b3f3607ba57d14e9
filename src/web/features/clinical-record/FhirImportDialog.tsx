import { OrganizationOptions } from '../../components/OrganizationOptions';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { FHIR_BUNDLE_MAX_BYTES, type FhirImportResult } from '../../../contract/matching';
import { Dialog, DialogFooter } from '../../components/dialogs';
import { FormError } from '../../components/FormError';
import { Button, buttonClass, Field, Input, Select } from '../../components/ui';
import { apiProblem } from '../../lib/form-errors';
import { candidateName, plural } from '../candidates/format';
import { useCandidateQuery } from '../candidates/queries';
import { FHIR_IMPORT_TITLE, type FhirImportDialogProps } from './dialogs';
import { useImportFhirBundle } from './queries';

const MAX_MB = FHIR_BUNDLE_MAX_BYTES / 1024 / 1024;

/** What the import did, in words, with the candidate's name once it is loaded. */
function Outcome({ result, onClose }: { result: FhirImportResult; onClose: () => void }) {
  const candidate = useCandidateQuery(result.candidateId);
  const name = candidate.data ? candidateName(candidate.data) : 'the candidate';
  const facts = plural(result.factCount, 'fact');
  return (
    <div className="grid gap-3">
      <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">
        {result.outcome === 'created' ? `Created ${name} with ${facts}` : `Updated ${name}: ${facts}`}
      </p>
      {result.warnings.length > 0 && (
        <div className="grid gap-1">
          <p className="text-sm font-medium text-slate-900">{plural(result.warnings.length, 'warning')}</p>
          <ul className="grid list-disc gap-0.5 pl-5 text-sm text-slate-800">
            {result.warnings.map((warning, index) => (
              <li key={index}>{warning}</li>
            ))}
          </ul>
        </div>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
        <Link to="/candidates/$id" params={{ id: result.candidateId }} className={buttonClass('primary')} onClick={onClose}>
          Open {name}
        </Link>
      </div>
    </div>
  );
}

/**
 * Import one patient's FHIR R4 bundle: the dialog's content, loaded when it opens (`FhirImportDialog` in
 * ./dialogs holds the trigger). The file is read and parsed here, so a file that is not JSON is told at once.
 */
export function FhirImportDialog({ organizations, onOpenChange }: FhirImportDialogProps) {
  const close = () => onOpenChange?.(false);
  const [file, setFile] = useState<File | null>(null);
  const [organizationId, setOrganizationId] = useState(organizations?.[0]?.id ?? '');
  const [fileError, setFileError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const importBundle = useImportFhirBundle();
  const pending = reading || importBundle.isPending;

  if (importBundle.data)
    return (
      <Dialog title={FHIR_IMPORT_TITLE}>
        <Outcome result={importBundle.data} onClose={close} />
      </Dialog>
    );

  const submit = async () => {
    setServerError(null);
    if (!file) return setFileError('Choose a .json file');
    if (file.size > FHIR_BUNDLE_MAX_BYTES) return setFileError(`The file is larger than ${MAX_MB} MB`);
    let bundle: unknown;
    setReading(true);
    try {
      bundle = JSON.parse(await file.text());
    } catch {
      return setFileError('The file is not JSON');
    } finally {
      setReading(false);
    }
    if (!bundle || typeof bundle !== 'object' || Array.isArray(bundle)) return setFileError('The file is not a FHIR bundle');
    setFileError(null);
    importBundle.mutate(
      { bundle, organizationId: organizations ? organizationId : undefined },
      { onError: (error) => setServerError(apiProblem(error).message) },
    );
  };

  return (
    <Dialog
      title={FHIR_IMPORT_TITLE}
      description="One patient’s FHIR R4 bundle: a new candidate with their conditions, medications, labs and vitals, or new health-record facts of the candidate with the same phone or email."
    >
      <form
        className="grid gap-4"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        {organizations && (
          <Field label="Organization">
            <Select value={organizationId} onChange={(event) => setOrganizationId(event.target.value)}>
              <OrganizationOptions organizations={organizations} />
            </Select>
          </Field>
        )}
        <Field label="FHIR bundle (.json)" error={fileError ?? undefined} hint={`A FHIR R4 Bundle of one patient, up to ${MAX_MB} MB.`}>
          <Input
            type="file"
            accept=".json,application/json,application/fhir+json"
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              setFileError(null);
              setServerError(null);
            }}
          />
        </Field>
        <FormError>{serverError}</FormError>
        <DialogFooter onCancel={close} submitLabel="Import" pending={pending} pendingLabel="Importing…" />
      </form>
    </Dialog>
  );
}
