import { OrganizationOptions } from '../../components/OrganizationOptions';
import { Link, useNavigate } from '@tanstack/react-router';
import { focusMoveButton, useUnsavedChangesGuard } from '../../components/ItemActions';
import { Plus, Save } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { toast } from 'sonner';
import type { Sequence, SequenceStep, SequenceStepType, SequenceTrigger } from '../../../contract/sequences';
import { SequenceLoadError } from './SequenceLoadError';
import { FormError } from '../../components/FormError';
import { Spinner } from '../../components/Spinner';
import { Textarea } from '../../components/Textarea';
import { Button, buttonClass, Card, CardContent, CardHeader, CardTitle, EmptyState, Field, Input, PageHeader, Select, SubmitButton } from '../../components/ui';
import { apiProblem } from '../../lib/form-errors';
import { Combobox } from '../../components/Combobox';
import { TRIAL_PICKER, trialOption } from '../trials/trial-option';
import { useCreateTargets, useIsGlobal } from '../trials/hooks';
import { useTrialsQuery } from '../trials/queries';
import {
  DESCRIPTION_MAX,
  groupProblems,
  MAX_STEPS,
  move,
  NAME_MAX,
  newStep,
  normalizeSteps,
  removeStep,
  renameKey,
  STEP_TYPE_LABELS,
  STEP_TYPES,
  TRIGGER_LABELS,
  TRIGGERS,
} from './format';
import { useCreateSequence, useSequenceQuery, useUpdateSequence } from './queries';
import { FIELD_LABELS, fieldId, StepEditor } from './StepEditor';
import { builderProblems, structuralProblems, type StepProblem } from './validation';

interface Item {
  uid: string;
  step: SequenceStep;
}

let counter = 0;
const nextUid = () => `s${(++counter).toString(36)}`;
const itemsOf = (steps: readonly SequenceStep[]): Item[] => steps.map((step) => ({ uid: nextUid(), step }));

interface Draft {
  name: string;
  description: string;
  trialId: string;
  triggers: SequenceTrigger[];
  exitOnReply: boolean;
  steps: SequenceStep[];
}

/** What saving compares: a change in any of these makes the builder "dirty". */
const snapshot = (draft: Draft) =>
  JSON.stringify({
    name: draft.name.trim(),
    description: draft.description.trim(),
    trialId: draft.trialId,
    triggers: [...draft.triggers].sort(),
    exitOnReply: draft.exitOnReply,
    steps: normalizeSteps(draft.steps),
  });

const STARTER: SequenceStep[] = [newStep('sms', [])];

/**
 * The sequence builder, for a new sequence (no `sequence`) or to edit one: name, description, trial,
 * triggers and the steps. The contract's rules run as you edit (rules across steps at once, required texts
 * once a save was tried); the server's refusals land on the same fields. Saving steps while people are
 * enrolled makes a new version, and the builder says who gets which.
 */
export function SequenceBuilder({ sequence }: { sequence?: Sequence }) {
  const isGlobal = useIsGlobal();
  const createTargets = useCreateTargets();
  const navigate = useNavigate();
  const create = useCreateSequence();
  const update = useUpdateSequence();
  const pending = create.isPending || update.isPending;

  const initial: Draft = useMemo(
    () => ({
      name: sequence?.name ?? '',
      description: sequence?.description ?? '',
      trialId: sequence?.trialId ?? '',
      triggers: sequence?.triggers ?? [],
      exitOnReply: sequence?.exitOnReply ?? true,
      steps: sequence?.steps ?? STARTER,
    }),
    [sequence],
  );
  const [organizationId, setOrganizationId] = useState(sequence?.organizationId ?? '');
  const [name, setName] = useState(initial.name);
  const [description, setDescription] = useState(initial.description);
  const [trialId, setTrialId] = useState(initial.trialId);
  const [triggers, setTriggers] = useState<SequenceTrigger[]>(initial.triggers);
  const [exitOnReply, setExitOnReply] = useState(initial.exitOnReply);
  const [items, setItems] = useState<Item[]>(() => itemsOf(initial.steps));
  const [baseline, setBaseline] = useState(() => snapshot(initial));
  const [attempted, setAttempted] = useState(false);
  const [server, setServer] = useState<{ message: string; details: StepProblem[] } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [focus, setFocus] = useState<{ uid: string; target: 'first' | 'up' | 'down' | 'heading' } | { uid: null; target: 'add' } | null>(null);
  const rootRef = useRef<HTMLFormElement>(null);
  // Set once the new sequence is saved: leaving for its page is not leaving unsaved work.
  const leaving = useRef(false);
  const summaryRef = useRef<HTMLDivElement>(null);

  const steps = items.map((item) => item.step);
  const draft: Draft = { name, description, trialId, triggers, exitOnReply, steps };
  const repliedBranch = exitOnReply && steps.some((step) => step.type === 'branch' && step.condition === 'replied');
  const dirty = snapshot(draft) !== baseline;

  const trialsQuery = useTrialsQuery(isGlobal && organizationId ? [organizationId] : undefined);
  const trials = useMemo(
    () => (trialsQuery.data?.trials ?? []).filter((trial) => !isGlobal || !organizationId || trial.organizationId === organizationId),
    [trialsQuery.data, isGlobal, organizationId],
  );
  const trialOptions = useMemo(() => trials.map(trialOption), [trials]);
  const scopeOrganization = sequence?.organizationId ?? (organizationId || undefined);

  // Rules across steps always show; "Required" and the like once a save was tried. The server's own details join them.
  const local = attempted ? builderProblems(steps) : structuralProblems(steps);
  const nameProblem = attempted && !name.trim() ? 'Enter a name' : server?.details.find((detail) => detail.path === 'name')?.message;
  const organizationProblem = attempted && isGlobal && !sequence && !organizationId ? 'Choose the organization' : undefined;
  const grouped = groupProblems([...local, ...(server?.details.filter((detail) => detail.path.startsWith('steps')) ?? [])]);
  const problemCount = local.length + (nameProblem ? 1 : 0) + (organizationProblem ? 1 : 0);

  useUnsavedChangesGuard(dirty, 'You have unsaved changes to this sequence. Leave without saving?', leaving);

  useEffect(() => {
    if (!focus) return;
    const root = rootRef.current;
    if (focus.target === 'add') (root?.querySelector('[data-add-step]') as HTMLElement | null)?.focus();
    else {
      const container = root?.querySelector(`[data-step="${focus.uid}"]`);
      if (focus.target === 'first') (container?.querySelector('textarea, input:not([type=radio]), select') as HTMLElement | null)?.focus();
      else if (focus.target === 'heading') (container?.querySelector('[data-step-heading]') as HTMLElement | null)?.focus();
      else focusMoveButton(container, focus.target);
    }
    setFocus(null);
  }, [focus]);

  const setStep = (uid: string, step: SequenceStep) => setItems((current) => current.map((item) => (item.uid === uid ? { ...item, step } : item)));

  const addStep = (type: SequenceStepType) => {
    const item = { uid: nextUid(), step: newStep(type, steps) };
    setItems([...items, item]);
    setAnnouncement(`${STEP_TYPE_LABELS[type]} step added as step ${items.length + 1}.`);
    setFocus({ uid: item.uid, target: 'first' });
  };

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
      const stepsChanged = JSON.stringify(normalized) !== JSON.stringify(normalizeSteps(initialSteps(baseline)));
      const result = await update.mutateAsync({
        id: sequence.id,
        input: {
          name: name.trim(),
          description: description.trim() || null,
          trialId: trialId || null,
          triggers,
          exitOnReply,
          ...(stepsChanged ? { steps: normalized } : {}),
        },
      });
      setItems(itemsOf(result.sequence.steps));
      setBaseline(
        snapshot({
          name: result.sequence.name,
          description: result.sequence.description ?? '',
          trialId: result.sequence.trialId ?? '',
          triggers: result.sequence.triggers,
          exitOnReply: result.sequence.exitOnReply,
          steps: result.sequence.steps,
        }),
      );
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

  const toggleTrigger = (trigger: SequenceTrigger, on: boolean) =>
    setTriggers((current) => (on ? [...current.filter((item) => item !== trigger), trigger] : current.filter((item) => item !== trigger)));

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
      {(server || (attempted && problemCount > 0)) && (
        <FormError ref={summaryRef} tabIndex={-1} className="focus:outline-2 focus:outline-red-700" data-testid="builder-problems">
          <p className="font-semibold">
            {server ? 'The sequence was not saved' : `Fix ${problemCount === 1 ? 'this problem' : `these ${problemCount} problems`} before saving`}
          </p>
          {server && <p className="mt-1">{server.message}</p>}
          {!server && (
            <ul className="mt-2 list-disc pl-5">
              {organizationProblem && <li>{organizationProblem}</li>}
              {nameProblem && (
                <li>
                  <button
                    type="button"
                    className="text-left underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-red-700"
                    onClick={() => document.getElementById('sequence-name')?.focus()}
                  >
                    Name: {nameProblem}
                  </button>
                </li>
              )}
              {grouped.general.map((message) => (
                <li key={message}>{message}</li>
              ))}
              {[...grouped.byStep.entries()].flatMap(([index, fields]) =>
                [...fields.entries()].map(([field, messages]) => {
                  const uid = items[index]?.uid;
                  const where = `Step ${index + 1}${FIELD_LABELS[field] ? `, ${FIELD_LABELS[field]}` : ''}`;
                  return (
                    <li key={`${index}-${field}`}>
                      <button
                        type="button"
                        className="text-left underline underline-offset-2 hover:text-red-950 focus-visible:outline-2 focus-visible:outline-red-700"
                        onClick={() => {
                          const target =
                            uid && (document.getElementById(fieldId(uid, field)) ?? rootRef.current?.querySelector(`[data-step="${uid}"] [data-step-heading]`));
                          (target as HTMLElement | null | undefined)?.focus();
                        }}
                      >
                        {where}: {messages.join(' ')}
                      </button>
                    </li>
                  );
                }),
              )}
            </ul>
          )}
        </FormError>
      )}
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>

      <Card>
        <CardHeader>
          <CardTitle>About the sequence</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4">
          {isGlobal && !sequence && createTargets && (
            <Field label="Organization" error={organizationProblem} className="max-w-md">
              <Select
                id="sequence-organization"
                value={organizationId}
                onChange={(event) => {
                  setOrganizationId(event.target.value);
                  setTrialId('');
                }}
              >
                <option value="">Choose the organization</option>
                <OrganizationOptions organizations={createTargets} />
              </Select>
            </Field>
          )}
          <Field label="Name" error={nameProblem} className="max-w-xl">
            <Input id="sequence-name" value={name} maxLength={NAME_MAX} onChange={(event) => setName(event.target.value)} />
          </Field>
          <Field label="Description (optional)" className="max-w-xl">
            <Textarea
              id="sequence-description"
              rows={2}
              maxLength={DESCRIPTION_MAX}
              value={description}
              onChange={(event) => setDescription(event.target.value)}
            />
          </Field>
          <Field
            label="Trial (optional)"
            hint="With a trial, triggers only enroll that trial’s candidates, and {trialTitle} and {siteAddress} are the trial’s."
            className="max-w-xl"
          >
            <Combobox
              {...TRIAL_PICKER}
              id="sequence-trial"
              options={trialOptions}
              value={trialId}
              onChange={setTrialId}
              noneLabel="No trial: any candidate"
              loading={trialsQuery.isPending}
              placeholder="Choose a trial"
            />
          </Field>
          <fieldset className="grid gap-2">
            <legend className="text-sm font-medium text-slate-800">Enroll automatically when</legend>
            <p className="text-xs text-slate-700">
              Candidates can always be enrolled by hand as well. Leave every box clear for a sequence you only fill by hand.
            </p>
            {TRIGGERS.map((trigger) => (
              <label key={trigger} className="flex items-center gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  className="h-4 w-4 accent-blue-700"
                  checked={triggers.includes(trigger)}
                  onChange={(event) => toggleTrigger(trigger, event.target.checked)}
                />
                {TRIGGER_LABELS[trigger]}
              </label>
            ))}
          </fieldset>
          <div className="grid gap-1">
            <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
              <input
                type="checkbox"
                className="h-4 w-4 accent-blue-700"
                checked={exitOnReply}
                aria-describedby="sequence-exit-on-reply-hint"
                onChange={(event) => setExitOnReply(event.target.checked)}
              />
              End the sequence for a candidate when they reply
            </label>
            <p id="sequence-exit-on-reply-hint" className="pl-6 text-xs text-slate-700">
              A person reads the reply. Clear this to keep going after a reply, and decide with a branch step (“The candidate replied”).
            </p>
            {repliedBranch && (
              <p className="pl-6 text-xs text-amber-900" data-testid="replied-branch-note">
                A branch here asks whether the candidate replied, but a reply already ends the sequence: that branch only ever sees “did not”.
              </p>
            )}
          </div>
        </CardContent>
      </Card>

      <section aria-labelledby="steps-heading" className="grid gap-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="steps-heading" className="text-lg font-semibold text-slate-900">
            Steps ({items.length})
          </h2>
        </div>
        {items.length === 0 ? (
          <EmptyState title="No steps yet">
            <p>Add a first step below: a text message is the usual start.</p>
          </EmptyState>
        ) : (
          <ol className="grid gap-3">
            {items.map((item, index) => (
              <StepEditor
                key={item.uid}
                uid={item.uid}
                step={item.step}
                index={index}
                steps={steps}
                problems={grouped.byStep.get(index)}
                trialId={trialId || null}
                organizationId={scopeOrganization}
                isFirst={index === 0}
                isLast={index === items.length - 1}
                onChange={(next) => setStep(item.uid, next)}
                onKeyChange={(key) => {
                  const renamed = renameKey(steps, index, key);
                  setItems((current) => current.map((entry, i) => ({ ...entry, step: renamed[i] })));
                }}
                onMove={(direction) => {
                  setItems(move(items, index, direction));
                  setAnnouncement(`Step moved to position ${index + direction + 1} of ${items.length}.`);
                  setFocus({ uid: item.uid, target: direction === -1 ? 'up' : 'down' });
                }}
                onRemove={() => {
                  const remaining = removeStep(steps, index);
                  const pointed = steps.some((step) => step.type === 'branch' && (step.ifTrue === item.step.key || step.ifFalse === item.step.key));
                  setItems(items.filter((entry) => entry.uid !== item.uid).map((entry, i) => ({ ...entry, step: remaining[i] })));
                  setAnnouncement(`Step ${index + 1} deleted.${pointed ? ' Branches that went to it now go on to the next step.' : ''}`);
                  const neighbour = items[index + 1] ?? items[index - 1];
                  setFocus(neighbour ? { uid: neighbour.uid, target: 'heading' } : { uid: null, target: 'add' });
                }}
              />
            ))}
          </ol>
        )}
        <div className="flex flex-wrap items-center gap-2 rounded-lg border border-dashed border-slate-300 bg-white p-3" role="group" aria-label="Add a step">
          <span className="text-sm font-medium text-slate-800">Add a step:</span>
          {STEP_TYPES.map((type, i) => (
            <Button
              key={type}
              variant="secondary"
              size="sm"
              disabled={items.length >= MAX_STEPS}
              onClick={() => addStep(type)}
              {...(i === 0 ? { 'data-add-step': true } : {})}
            >
              <Plus aria-hidden="true" className="h-4 w-4" />
              {STEP_TYPE_LABELS[type]}
            </Button>
          ))}
          {items.length >= MAX_STEPS && <span className="text-sm text-slate-700">A sequence has at most {MAX_STEPS} steps.</span>}
        </div>
      </section>

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

/** The steps of a baseline snapshot (what was last saved). */
function initialSteps(baseline: string): SequenceStep[] {
  return (JSON.parse(baseline) as { steps: SequenceStep[] }).steps;
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
