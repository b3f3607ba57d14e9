import { X } from 'lucide-react';
import { Link } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { toast } from 'sonner';
import { CANDIDATE_STATUSES } from '../../../contract/candidate-status';
import type { EnrollResult, Sequence } from '../../../contract/sequences';
import { Dialog, DialogFooter } from '../../components/dialogs';
import { FormError } from '../../components/FormError';
import { Spinner } from '../../components/Spinner';
import { Button, buttonClass, Field, Input, Select, Table, Td, Th } from '../../components/ui';
import type { LazyDialogProps } from '../../components/lazy-dialog';
import { CANDIDATE_STATUS_LABELS } from '../../../contract/words';
import { apiProblem } from '../../lib/form-errors';
import { useTrialsQuery } from '../trials/queries';
import { CandidatePicker, type PickedCandidate } from '../candidates/CandidateSearch';
import { BULK_MAX, plural, refusalWords } from './format';
import { useEnroll, useSequencesQuery, type EnrollRequest } from './queries';

/** What an enrollment did: how many went in, were in already, and who was refused and why. */
export function EnrollResultView({ result }: { result: EnrollResult }) {
  const more = result.refusedCount - result.refused.length;
  if (result.run) {
    // A large filter: enrolled in the background, person by person outcomes on the run's page.
    return (
      <div className="grid gap-3" data-testid="enroll-result">
        <p role="status" className="rounded-md border border-blue-200 bg-blue-50 px-3 py-2 text-sm text-blue-950">
          Enrolling {plural(result.run.total, 'candidate')} in the background. Each person&apos;s outcome, and why anyone was not enrolled, is on the run&apos;s
          page.
        </p>
        <Link to="/admin/processed-runs" search={{ id: result.run.id }} className={buttonClass('secondary')}>
          Follow the progress
        </Link>
      </div>
    );
  }
  return (
    <div className="grid gap-3" data-testid="enroll-result">
      <p role="status" className="rounded-md border border-blue-200 bg-blue-50 px-3 py-2 text-sm text-blue-950">
        {plural(result.enrolled, 'candidate')} enrolled
        {result.alreadyEnrolled > 0 && `, ${result.alreadyEnrolled.toLocaleString('en-US')} already in the sequence`}
        {result.refusedCount > 0 && `, ${result.refusedCount.toLocaleString('en-US')} not enrolled`}.
      </p>
      {result.refused.length > 0 && (
        <Table caption="Candidates not enrolled and why">
          <thead>
            <tr>
              <Th>Candidate</Th>
              <Th>Why not</Th>
            </tr>
          </thead>
          <tbody>
            {result.refused.map((refusal) => (
              <tr key={refusal.candidateId}>
                <Td>{refusal.candidateName}</Td>
                <Td>{refusalWords(refusal.reason)}</Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {more > 0 && (
        <p className="text-sm text-slate-700">
          And {plural(more, 'more candidate')} not enrolled (only the first {result.refused.length} are listed).
        </p>
      )}
    </div>
  );
}

export interface EnrollCandidatesDialogProps extends LazyDialogProps {
  sequence: Sequence;
}

type Mode = 'pick' | 'filter';

/**
 * "Enroll candidates" on a sequence: pick people by name, or everyone matching a filter (status, trial,
 * search). The answer lists who went in and who was refused, with the reason.
 */
/** The candidates chosen so far, each with a button that takes them off the list. */
function ChosenCandidates({ picked, error, onRemove }: { picked: PickedCandidate[]; error?: string; onRemove: (id: string) => void }) {
  return (
    <div className="grid gap-1.5">
      <p className="text-sm font-medium text-slate-800" id="enroll-chosen-label">
        Chosen ({picked.length})
      </p>
      {picked.length === 0 ? (
        <p className="text-sm text-slate-700">Nobody yet.</p>
      ) : (
        <ul aria-labelledby="enroll-chosen-label" className="flex flex-wrap gap-1.5">
          {picked.map((candidate) => (
            <li key={candidate.id} className="inline-flex items-center gap-1 rounded-full bg-slate-100 py-0.5 pl-2.5 pr-1 text-sm text-slate-900">
              {candidate.name}
              <button
                type="button"
                aria-label={`Remove ${candidate.name}`}
                className="rounded-full p-0.5 hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-blue-700"
                onClick={() => onRemove(candidate.id)}
              >
                <X aria-hidden="true" className="h-3.5 w-3.5" />
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && <p className="text-sm text-red-700">{error}</p>}
    </div>
  );
}

export function EnrollCandidatesDialog({ sequence, open, onOpenChange }: EnrollCandidatesDialogProps) {
  const [mode, setMode] = useState<Mode>('pick');
  const [picked, setPicked] = useState<PickedCandidate[]>([]);
  const [status, setStatus] = useState<(typeof CANDIDATE_STATUSES)[number] | ''>('');
  const [trialId, setTrialId] = useState(sequence.trialId ?? '');
  const [search, setSearch] = useState('');
  const [tried, setTried] = useState(false);
  const enroll = useEnroll();
  const trialsQuery = useTrialsQuery();
  const trials = (trialsQuery.data?.trials ?? []).filter((trial) => trial.organizationId === sequence.organizationId);
  const pickError = tried && mode === 'pick' && picked.length === 0 ? 'Choose at least one candidate' : undefined;

  const submit = () => {
    setTried(true);
    if (mode === 'pick' && picked.length === 0) return;
    const request: EnrollRequest =
      mode === 'pick'
        ? { candidateIds: picked.map((candidate) => candidate.id), source: 'manual' }
        : { filter: { ...(status ? { status } : {}), ...(trialId ? { trialId } : {}), ...(search.trim() ? { search: search.trim() } : {}) }, source: 'filter' };
    enroll.mutate(
      { sequenceId: sequence.id, request },
      {
        onSuccess: (result) =>
          toast.success(
            result.run
              ? `Enrolling ${plural(result.run.total, 'candidate')} in ${sequence.name}`
              : `${plural(result.enrolled, 'candidate')} enrolled in ${sequence.name}`,
          ),
      },
    );
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Enroll candidates in ${sequence.name}`}
      description="They start at step 1 now, within their contact hours. Candidates who cannot be reached the sequence’s way are listed with the reason."
    >
      {enroll.data ? (
        <div className="grid gap-4">
          <EnrollResultView result={enroll.data} />
          <div className="flex justify-end gap-2">
            <Button
              variant="secondary"
              onClick={() => {
                enroll.reset();
                setPicked([]);
                setTried(false);
              }}
            >
              Enroll more
            </Button>
            <Button onClick={() => onOpenChange?.(false)}>Done</Button>
          </div>
        </div>
      ) : (
        <form
          className="grid gap-4"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <fieldset className="flex flex-wrap gap-4">
            <legend className="mb-1 text-sm font-medium text-slate-800">Who</legend>
            <label className="flex items-center gap-2 text-sm text-slate-800">
              <input type="radio" name="enroll-mode" className="h-4 w-4 accent-blue-700" checked={mode === 'pick'} onChange={() => setMode('pick')} />
              Candidates I choose
            </label>
            <label className="flex items-center gap-2 text-sm text-slate-800">
              <input type="radio" name="enroll-mode" className="h-4 w-4 accent-blue-700" checked={mode === 'filter'} onChange={() => setMode('filter')} />
              Everyone matching a filter
            </label>
          </fieldset>
          {mode === 'pick' ? (
            <div className="grid gap-3">
              <CandidatePicker
                label="Find candidates"
                organizationId={sequence.organizationId}
                multiple
                selected={picked}
                onToggle={(candidate, on) =>
                  setPicked((current) =>
                    on ? [...current.filter((item) => item.id !== candidate.id), candidate] : current.filter((item) => item.id !== candidate.id),
                  )
                }
              />
              <ChosenCandidates picked={picked} error={pickError} onRemove={(id) => setPicked((current) => current.filter((item) => item.id !== id))} />
            </div>
          ) : (
            <div className="grid gap-3">
              <Field label="Candidate status">
                <Select
                  id="enroll-filter-status"
                  value={status}
                  onChange={(event) => setStatus(event.target.value as (typeof CANDIDATE_STATUSES)[number] | '')}
                >
                  <option value="">Any status</option>
                  {CANDIDATE_STATUSES.map((value) => (
                    <option key={value} value={value}>
                      {CANDIDATE_STATUS_LABELS[value]}
                    </option>
                  ))}
                </Select>
              </Field>
              <Field label="Trial">
                <Select id="enroll-filter-trial" value={trialId} onChange={(event) => setTrialId(event.target.value)}>
                  <option value="">Any trial</option>
                  {trials.map((trial) => (
                    <option key={trial.id} value={trial.id}>
                      {trial.publicTitle || trial.title}
                    </option>
                  ))}
                </Select>
              </Field>
              <Field label="Name, phone or email contains (optional)">
                <Input id="enroll-filter-search" value={search} maxLength={100} onChange={(event) => setSearch(event.target.value)} />
              </Field>
              <p className="text-sm text-slate-700">
                Up to {BULK_MAX.toLocaleString('en-US')} candidates are enrolled at a time; people already in the sequence are left where they are.
              </p>
            </div>
          )}
          <FormError>{enroll.isError ? apiProblem(enroll.error).message : null}</FormError>
          <DialogFooter
            onCancel={() => onOpenChange?.(false)}
            submitLabel={mode === 'pick' ? `Enroll ${picked.length ? plural(picked.length, 'candidate') : 'candidates'}` : 'Enroll everyone matching'}
            pending={enroll.isPending}
            pendingLabel="Enrolling…"
          />
        </form>
      )}
    </Dialog>
  );
}

export interface AddToSequenceDialogProps extends LazyDialogProps {
  candidateIds: string[];
  /** The organization of the candidates: only its sequences are offered. */
  organizationId?: string;
  source: 'manual' | 'trial_matcher';
  /** Sequences of this trial are offered first. */
  trialId?: string;
  onDone?: () => void;
}

/** "Add to sequence" for chosen candidates (the candidates list, the trial matcher, a candidate's page). */
export function AddToSequenceDialog({ candidateIds, organizationId, source, trialId, onDone, open, onOpenChange }: AddToSequenceDialogProps) {
  const query = useSequencesQuery({ status: 'active' });
  const [sequenceId, setSequenceId] = useState('');
  const [tried, setTried] = useState(false);
  const enroll = useEnroll();
  const sequences = useMemo(() => {
    const list = (query.data?.sequences ?? []).filter((sequence) => !organizationId || sequence.organizationId === organizationId);
    return [...list].sort(
      (a, b) => Number(b.trialId === trialId && Boolean(trialId)) - Number(a.trialId === trialId && Boolean(trialId)) || a.name.localeCompare(b.name),
    );
  }, [query.data, organizationId, trialId]);
  const chosen = sequences.find((sequence) => sequence.id === sequenceId);
  const count = plural(candidateIds.length, 'candidate');

  let content;
  if (enroll.data) {
    content = (
      <div className="grid gap-4">
        <EnrollResultView result={enroll.data} />
        <div className="flex justify-end">
          <Button
            onClick={() => {
              onOpenChange?.(false);
              onDone?.();
            }}
          >
            Done
          </Button>
        </div>
      </div>
    );
  } else if (query.isPending) content = <Spinner label="Loading sequences" />;
  else if (query.isError) content = <FormError>Could not load the sequences: {apiProblem(query.error).message}</FormError>;
  else if (sequences.length === 0)
    content = (
      <div className="grid gap-3">
        <p className="text-sm text-slate-800">
          There is no active sequence{organizationId ? ' in this organization' : ''} yet. Create one under Admin, Sequences.
        </p>
        <div className="flex justify-end">
          <Button variant="secondary" onClick={() => onOpenChange?.(false)}>
            Close
          </Button>
        </div>
      </div>
    );
  else
    content = (
      <form
        className="grid gap-4"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setTried(true);
          if (!sequenceId) return;
          enroll.mutate(
            { sequenceId, request: { candidateIds, source } },
            { onSuccess: (result) => toast.success(`${plural(result.enrolled, 'candidate')} added to ${chosen?.name ?? 'the sequence'}`) },
          );
        }}
      >
        <Field
          label="Sequence"
          error={tried && !sequenceId ? 'Choose a sequence' : undefined}
          hint={chosen ? `${plural(chosen.steps.length, 'step')}${chosen.trialTitle ? ` · ${chosen.trialTitle}` : ''}` : undefined}
        >
          <Select id="add-to-sequence" value={sequenceId} onChange={(event) => setSequenceId(event.target.value)}>
            <option value="">Choose a sequence</option>
            {sequences.map((sequence) => (
              <option key={sequence.id} value={sequence.id}>
                {sequence.name}
                {sequence.trialTitle ? ` (${sequence.trialTitle})` : ''}
              </option>
            ))}
          </Select>
        </Field>
        <FormError>{enroll.isError ? apiProblem(enroll.error).message : null}</FormError>
        <DialogFooter onCancel={() => onOpenChange?.(false)} submitLabel={`Add ${count}`} pending={enroll.isPending} pendingLabel="Adding…" />
      </form>
    );

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Add ${count} to a sequence`}
      description="They start at the sequence’s first step now. Anyone who cannot be contacted that way is listed with the reason."
    >
      {content}
    </Dialog>
  );
}
