import { focusMoveButton } from '../../components/ItemActions';
import { Plus } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { SequenceStep, SequenceStepType } from '../../../contract/sequences';
import { Button, EmptyState } from '../../components/ui';
import { type groupProblems, MAX_STEPS, move, newStep, removeStep, renameKey, STEP_TYPE_LABELS, STEP_TYPES } from './format';
import { StepEditor } from './StepEditor';
import { nextUid, type SequenceDraft } from './useSequenceDraft';

interface StepListProps {
  draft: SequenceDraft;
  grouped: ReturnType<typeof groupProblems>;
  organizationId: string | undefined;
  /** Says a change a screen reader user cannot see (a step added, moved or deleted). */
  announce: (message: string) => void;
}

type Focus = { uid: string; target: 'first' | 'up' | 'down' | 'heading' } | { uid: null; target: 'add' };

/** The sequence's steps, each in its editor, and the buttons that add one; the focus follows a step that moves. */
export function StepList({ draft, grouped, organizationId, announce }: StepListProps) {
  const { items, setItems, steps, trialId } = draft;
  const [focus, setFocus] = useState<Focus | null>(null);
  const rootRef = useRef<HTMLElement>(null);

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
    announce(`${STEP_TYPE_LABELS[type]} step added as step ${items.length + 1}.`);
    setFocus({ uid: item.uid, target: 'first' });
  };

  return (
    <section ref={rootRef} aria-labelledby="steps-heading" className="grid gap-3">
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
              organizationId={organizationId}
              isFirst={index === 0}
              isLast={index === items.length - 1}
              onChange={(next) => setStep(item.uid, next)}
              onKeyChange={(key) => {
                const renamed = renameKey(steps, index, key);
                setItems((current) => current.map((entry, i) => ({ ...entry, step: renamed[i] })));
              }}
              onMove={(direction) => {
                setItems(move(items, index, direction));
                announce(`Step moved to position ${index + direction + 1} of ${items.length}.`);
                setFocus({ uid: item.uid, target: direction === -1 ? 'up' : 'down' });
              }}
              onRemove={() => {
                const remaining = removeStep(steps, index);
                const pointed = steps.some((step) => step.type === 'branch' && (step.ifTrue === item.step.key || step.ifFalse === item.step.key));
                setItems(items.filter((entry) => entry.uid !== item.uid).map((entry, i) => ({ ...entry, step: remaining[i] })));
                announce(`Step ${index + 1} deleted.${pointed ? ' Branches that went to it now go on to the next step.' : ''}`);
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
  );
}
