import { useMemo, useState } from 'react';
import type { Sequence, SequenceStep, SequenceTrigger } from '../../../contract/sequences';
import { newStep, normalizeSteps } from './format';

/** A step in the builder, with a key for React that survives moves and key renames. */
export interface Item {
  uid: string;
  step: SequenceStep;
}

let counter = 0;
export const nextUid = () => `s${(++counter).toString(36)}`;
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

/** The draft as the last save left it (or as loaded). */
const draftOf = (sequence: Sequence | undefined): Draft => ({
  name: sequence?.name ?? '',
  description: sequence?.description ?? '',
  trialId: sequence?.trialId ?? '',
  triggers: sequence?.triggers ?? [],
  exitOnReply: sequence?.exitOnReply ?? true,
  steps: sequence?.steps ?? STARTER,
});

/** The sequence being built: its fields, its steps, and whether they differ from what was last saved. */
export function useSequenceDraft(sequence: Sequence | undefined) {
  const initial = useMemo(() => draftOf(sequence), [sequence]);
  const [organizationId, setOrganizationId] = useState(sequence?.organizationId ?? '');
  const [name, setName] = useState(initial.name);
  const [description, setDescription] = useState(initial.description);
  const [trialId, setTrialId] = useState(initial.trialId);
  const [triggers, setTriggers] = useState<SequenceTrigger[]>(initial.triggers);
  const [exitOnReply, setExitOnReply] = useState(initial.exitOnReply);
  const [items, setItems] = useState<Item[]>(() => itemsOf(initial.steps));
  const [baseline, setBaseline] = useState(() => snapshot(initial));

  const steps = items.map((item) => item.step);
  const dirty = snapshot({ name, description, trialId, triggers, exitOnReply, steps }) !== baseline;
  const toggleTrigger = (trigger: SequenceTrigger, on: boolean) =>
    setTriggers((current) => (on ? [...current.filter((item) => item !== trigger), trigger] : current.filter((item) => item !== trigger)));
  /** Whether these (normalized) steps differ from the saved ones: only then does saving send steps. */
  const stepsChanged = (normalized: SequenceStep[]) =>
    JSON.stringify(normalized) !== JSON.stringify(normalizeSteps((JSON.parse(baseline) as { steps: SequenceStep[] }).steps));
  /** The server saved the sequence: its steps and fields become the new baseline. */
  const markSaved = (saved: Sequence) => {
    setItems(itemsOf(saved.steps));
    setBaseline(snapshot(draftOf(saved)));
  };
  return {
    organizationId,
    setOrganizationId,
    name,
    setName,
    description,
    setDescription,
    trialId,
    setTrialId,
    triggers,
    toggleTrigger,
    exitOnReply,
    setExitOnReply,
    items,
    setItems,
    steps,
    dirty,
    stepsChanged,
    markSaved,
  };
}

export type SequenceDraft = ReturnType<typeof useSequenceDraft>;
