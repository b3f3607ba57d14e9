import { useNavigate } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import { toast } from 'sonner';
import type { Sequence } from '../../../contract/sequences';
import { apiProblem } from '../../lib/form-errors';
import { normalizeSteps } from './format';
import { useCreateSequence, useUpdateSequence } from './queries';
import type { SequenceDraft } from './useSequenceDraft';
import { builderProblems, type StepProblem } from './validation';

/**
 * Saving the builder's draft: the local rules first (the problem summary takes the focus), then create or update.
 * Saving steps while people are enrolled makes a new version, and the notice says who gets which.
 */
export function useSaveSequence(sequence: Sequence | undefined, draft: SequenceDraft, isGlobal: boolean) {
  const navigate = useNavigate();
  const create = useCreateSequence();
  const update = useUpdateSequence();
  const [attempted, setAttempted] = useState(false);
  const [server, setServer] = useState<{ message: string; details: StepProblem[] } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // Set once the new sequence is saved: leaving for its page is not leaving unsaved work.
  const leaving = useRef(false);
  const summaryRef = useRef<HTMLDivElement>(null);
  const { organizationId, name, description, trialId, triggers, exitOnReply, steps } = draft;

  const save = async () => {
    setAttempted(true);
    setServer(null);
    setNotice(null);
    const problems = builderProblems(steps);
    if (problems.length > 0 || !name.trim() || (isGlobal && !sequence && !organizationId)) {
      requestAnimationFrame(() => summaryRef.current?.focus());
      return;
    }
    const normalized = normalizeSteps(steps);
    try {
      if (!sequence) {
        const created = await create.mutateAsync({
          ...(isGlobal && organizationId ? { organizationId } : {}),
          trialId: trialId || null,
          name: name.trim(),
          description: description.trim() || null,
          triggers,
          exitOnReply,
          steps: normalized,
        });
        leaving.current = true;
        toast.success('Sequence created');
        void navigate({ to: '/admin/sequences/$id', params: { id: created.id } });
        return;
      }
      const result = await update.mutateAsync({
        id: sequence.id,
        input: {
          name: name.trim(),
          description: description.trim() || null,
          trialId: trialId || null,
          triggers,
          exitOnReply,
          ...(draft.stepsChanged(normalized) ? { steps: normalized } : {}),
        },
      });
      draft.markSaved(result.sequence);
      setAttempted(false);
      const version = result.sequence.currentVersion;
      setNotice(
        result.newVersion
          ? `Saved as version ${version}. People already enrolled finish on version ${version - 1}; new enrollments use version ${version}.`
          : `Saved. Version ${version}.`,
      );
      toast.success('Sequence saved');
    } catch (error) {
      const problem = apiProblem(error);
      setServer({ message: problem.message, details: problem.details });
      requestAnimationFrame(() => summaryRef.current?.focus());
    }
  };

  return { save, pending: create.isPending || update.isPending, attempted, server, notice, leaving, summaryRef };
}
