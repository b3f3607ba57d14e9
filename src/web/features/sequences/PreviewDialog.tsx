import { Eye } from 'lucide-react';
import { useState } from 'react';
import type { PreviewResult, SequenceStep } from '../../../contract/sequences';
import { Dialog } from '../../components/dialogs';
import { FormError } from '../../components/FormError';
import { Spinner } from '../../components/Spinner';
import { Button } from '../../components/ui';
import { apiProblem } from '../../lib/form-errors';
import { CandidatePicker, type PickedCandidate } from '../candidates/CandidateSearch';
import { normalizeSteps, STEP_TYPE_LABELS } from './format';
import { usePreviewStep } from './queries';

function Rendered({ language, label, part }: { language: 'en' | 'es'; label: string; part: PreviewResult['en'] }) {
  return (
    <section aria-label={label} lang={language} className="grid gap-1 rounded-md border border-slate-200 bg-slate-50 p-3" data-testid={`preview-${language}`}>
      <h3 className="text-sm font-semibold text-slate-900">{label}</h3>
      {part.subject !== null && (
        <p className="text-sm text-slate-900">
          <span className="font-medium">Subject: </span>
          {part.subject}
        </p>
      )}
      <p className="whitespace-pre-wrap break-words text-sm text-slate-900">{part.text}</p>
    </section>
  );
}

/**
 * A message step rendered for one real candidate, in English and Spanish (POST /api/sequences/preview): pick a
 * candidate and the server fills the variables with theirs, and says which have no value.
 */
export function PreviewDialog({
  step,
  number,
  trialId,
  organizationId,
}: {
  step: SequenceStep;
  number: number;
  trialId: string | null;
  organizationId?: string;
}) {
  const [open, setOpen] = useState(false);
  const [candidate, setCandidate] = useState<PickedCandidate | null>(null);
  const preview = usePreviewStep();
  const run = (picked: PickedCandidate | null) => {
    setCandidate(picked);
    preview.mutate({ step: normalizeSteps([step])[0], candidateId: picked?.id, trialId, organizationId });
  };
  const result = preview.data;
  return (
    <Dialog
      open={open}
      onOpenChange={(value) => {
        setOpen(value);
        if (value) {
          setCandidate(null);
          preview.reset();
        }
      }}
      title={`Preview step ${number}: ${STEP_TYPE_LABELS[step.type]}`}
      description="Choose a candidate: the message is shown as they would get it, in English and in Spanish."
      trigger={
        <Button variant="secondary" size="sm">
          <Eye aria-hidden="true" className="h-4 w-4" />
          Preview<span className="sr-only"> step {number}</span>
        </Button>
      }
    >
      <div className="grid gap-4">
        <CandidatePicker
          label="Candidate to preview with"
          organizationId={organizationId}
          selected={candidate ? [candidate] : []}
          onToggle={(picked) => run(picked)}
        />
        <div aria-live="polite" className="grid gap-3">
          {preview.isPending && <Spinner label="Rendering the preview" className="p-4" />}
          {preview.isError && <FormError>{apiProblem(preview.error).message}</FormError>}
          {result && !preview.isPending && (
            <>
              <p className="text-sm text-slate-800">{result.candidateName ? `As ${result.candidateName} would get it:` : 'With no candidate chosen:'}</p>
              {result.missing.length > 0 && (
                <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-950" data-testid="preview-missing">
                  No value for {result.missing.map((name) => `{${name}}`).join(', ')}: this message would not be sent to{' '}
                  {result.candidateName ?? 'this candidate'}.
                </p>
              )}
              <Rendered language="en" label="English" part={result.en} />
              <Rendered language="es" label="Spanish" part={result.es} />
            </>
          )}
        </div>
      </div>
    </Dialog>
  );
}
