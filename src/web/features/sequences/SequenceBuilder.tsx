import { Link } from '@tanstack/react-router';
import { useUnsavedChangesGuard } from '../../components/ItemActions';
import { Save } from 'lucide-react';
import { useRef, useState } from 'react';
import type { Sequence } from '../../../contract/sequences';
import { SequenceLoadError } from './SequenceLoadError';
import { Spinner } from '../../components/Spinner';
import { buttonClass, PageHeader, SubmitButton } from '../../components/ui';
import { useIsGlobal } from '../trials/hooks';
import { useSequenceQuery } from './queries';
import { BuilderProblems, problemsOf } from './BuilderProblems';
import { SequenceAboutCard } from './SequenceAboutCard';
import { StepList } from './StepList';
import { useSaveSequence } from './useSaveSequence';
import { useSequenceDraft } from './useSequenceDraft';

/**
 * The sequence builder, for a new sequence (no `sequence`) or to edit one: name, description, trial,
 * triggers and the steps. The contract's rules run as you edit (rules across steps at once, required texts
 * once a save was tried); the server's refusals land on the same fields. Saving steps while people are
 * enrolled makes a new version, and the builder says who gets which.
 */
export function SequenceBuilder({ sequence }: { sequence?: Sequence }) {
  const isGlobal = useIsGlobal();
  const draft = useSequenceDraft(sequence);
  const { save, pending, attempted, server, notice, leaving, summaryRef } = useSaveSequence(sequence, draft, isGlobal);
  const [announcement, setAnnouncement] = useState('');
  const rootRef = useRef<HTMLFormElement>(null);
  const { name, organizationId, steps, dirty } = draft;
  const scopeOrganization = sequence?.organizationId ?? (organizationId || undefined);

  const problems = problemsOf({ steps, attempted, server, name, needsOrganization: isGlobal && !sequence && !organizationId });

  useUnsavedChangesGuard(dirty, 'You have unsaved changes to this sequence. Leave without saving?', leaving);

  return (
    <form
      ref={rootRef}
      className="grid gap-6"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <PageHeader
        title={sequence ? `Edit: ${sequence.name}` : 'New sequence'}
        description="Steps run in order for each enrolled candidate, within their contact hours, until they reply, book, opt out or reach the end."
        actions={
          sequence ? (
            <Link to="/admin/sequences/$id" params={{ id: sequence.id }} className={buttonClass('secondary')}>
              Back to the sequence
            </Link>
          ) : (
            <Link to="/admin/sequences" className={buttonClass('secondary')}>
              Back to sequences
            </Link>
          )
        }
      />
      {notice && (
        <p role="status" className="rounded-md border border-blue-200 bg-blue-50 px-4 py-3 text-sm text-blue-950" data-testid="save-notice">
          {notice}
        </p>
      )}
      {(server || (attempted && problems.count > 0)) && <BuilderProblems problems={problems} items={draft.items} rootRef={rootRef} summaryRef={summaryRef} />}
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>

      <SequenceAboutCard
        draft={draft}
        askOrganization={isGlobal && !sequence}
        organizationProblem={problems.organizationProblem}
        nameProblem={problems.nameProblem}
      />

      <StepList draft={draft} grouped={problems.grouped} organizationId={scopeOrganization} announce={setAnnouncement} />

      <div className="sticky bottom-0 z-20 -mx-4 border-t border-slate-200 bg-white/95 px-4 py-3 backdrop-blur">
        <div className="flex flex-wrap items-center justify-end gap-3">
          <p className="mr-auto text-sm text-slate-700" aria-live="polite">
            {dirty ? 'Unsaved changes' : sequence ? 'No unsaved changes' : ''}
          </p>
          <SubmitButton pending={pending} icon={<Save aria-hidden="true" className="h-4 w-4" />} disabled={Boolean(sequence) && !dirty}>
            {sequence ? 'Save changes' : 'Create sequence'}
          </SubmitButton>
        </div>
      </div>
    </form>
  );
}

/** /admin/sequences/new */
export function NewSequencePage() {
  return <SequenceBuilder />;
}

/** /admin/sequences/$id/edit: loads the sequence, then the builder. */
export function EditSequencePage({ sequenceId }: { sequenceId: string }) {
  const query = useSequenceQuery(sequenceId);
  if (query.isPending) return <Spinner label="Loading the sequence" />;
  if (query.isError) {
    return <SequenceLoadError error={query.error} heading="Edit sequence" onRetry={() => void query.refetch()} />;
  }
  return <SequenceBuilder key={query.data.id} sequence={query.data} />;
}
