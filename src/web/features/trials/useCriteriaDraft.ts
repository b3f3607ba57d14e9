import { focusMoveButton, useUnsavedChangesGuard } from '../../components/ItemActions';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import type { CriterionKind, Trial } from '../../../contract/trials';
import { needsReviewCount } from './components';
import { EMPTY_FIELDS, newKey, ordered, ruleOf, toEditable, toInputs, type EditableCriterion } from './criteria-editor';
import { useUpdateTrial } from './queries';

/** A new criterion of a kind, with no text and no rule yet. */
const blankCriterion = (kind: CriterionKind): EditableCriterion => ({
  key: newKey(),
  kind,
  text: '',
  ruleType: '',
  fields: { ...EMPTY_FIELDS },
  ruleSource: null,
  needsReview: false,
  population: null,
  original: null,
});

/** The list with a criterion swapped with the next one of its kind up or down, and where it now stands; null at an end. */
function movedWithinKind(current: EditableCriterion[], key: string, direction: -1 | 1) {
  const index = current.findIndex((item) => item.key === key);
  const kind = current[index]?.kind;
  let swap = index + direction;
  while (swap >= 0 && swap < current.length && current[swap].kind !== kind) swap += direction;
  if (index < 0 || swap < 0 || swap >= current.length) return null;
  const items = [...current];
  [items[index], items[swap]] = [items[swap], items[index]];
  const sameKind = items.filter((item) => item.kind === kind);
  return { items, kind, position: sameKind.findIndex((item) => item.key === key) + 1, count: sameKind.length };
}

/**
 * A trial's criteria being edited: the ordered list, what changed since the last save, the moves and deletions
 * (said aloud, the focus following a moved criterion), and saving the whole list at once.
 */
export function useCriteriaDraft(trial: Trial) {
  const update = useUpdateTrial();
  const [items, setItems] = useState<EditableCriterion[]>(() => ordered(trial.criteria.map(toEditable)));
  const [baseline, setBaseline] = useState(() => JSON.stringify(toInputs(ordered(trial.criteria.map(toEditable)))));
  const [showErrors, setShowErrors] = useState(false);
  const [reviewOnly, setReviewOnly] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const [focusTarget, setFocusTarget] = useState<{ key: string; action: 'up' | 'down' | 'text' } | null>(null);
  const listRef = useRef<HTMLDivElement>(null);

  const dirty = JSON.stringify(toInputs(items)) !== baseline;
  const savedAt = useRef(trial.updatedAt);
  // The trial changed elsewhere (or was saved here): take its criteria unless there are unsaved edits.
  useEffect(() => {
    if (trial.updatedAt === savedAt.current) return;
    savedAt.current = trial.updatedAt;
    if (!dirty) {
      const fresh = ordered(trial.criteria.map(toEditable));
      setItems(fresh);
      setBaseline(JSON.stringify(toInputs(fresh)));
    }
  }, [trial, dirty]);

  useUnsavedChangesGuard(dirty, 'You have unsaved criteria changes. Leave without saving?');

  useEffect(() => {
    if (!focusTarget) return;
    const root = listRef.current?.querySelector(`[data-criterion="${focusTarget.key}"]`);
    if (focusTarget.action === 'text') (root?.querySelector('textarea') as HTMLTextAreaElement | null)?.focus();
    else focusMoveButton(root, focusTarget.action);
    setFocusTarget(null);
  }, [focusTarget]);

  const review = needsReviewCount(items);
  const errorsByKey = new Map(items.map((item) => [item.key, ruleOf(item).errors]));
  const invalidCount = [...errorsByKey.values()].filter((errors) => Object.keys(errors).length > 0).length;

  const change = (key: string, next: EditableCriterion) =>
    setItems((current) => {
      const before = current.find((item) => item.key === key);
      const replaced = current.map((item) => (item.key === key ? next : item));
      if (before && before.kind !== next.kind) {
        // A criterion that changes kind goes to the end of its new list.
        const rest = replaced.filter((item) => item.key !== key);
        setAnnouncement(`Moved to the ${next.kind} criteria, last.`);
        return ordered([...rest, next]);
      }
      return replaced;
    });

  const move = (key: string, direction: -1 | 1) =>
    setItems((current) => {
      const moved = movedWithinKind(current, key, direction);
      if (!moved) return current;
      setAnnouncement(`Moved to position ${moved.position} of ${moved.count} ${moved.kind} criteria.`);
      setFocusTarget({ key, action: direction === -1 ? 'up' : 'down' });
      return moved.items;
    });

  const remove = (key: string) => {
    setItems((current) => current.filter((item) => item.key !== key));
    setAnnouncement('Criterion deleted. Save to keep the change, or discard changes to undo.');
  };

  const add = (kind: CriterionKind) => {
    const item = blankCriterion(kind);
    setItems((current) => ordered([...current, item]));
    setReviewOnly(false);
    setFocusTarget({ key: item.key, action: 'text' });
  };

  const discard = () => {
    const fresh = ordered(trial.criteria.map(toEditable));
    setItems(fresh);
    setBaseline(JSON.stringify(toInputs(fresh)));
    setShowErrors(false);
    setAnnouncement('Changes discarded.');
  };

  const save = () => {
    setShowErrors(true);
    if (invalidCount > 0) {
      setAnnouncement(`${invalidCount === 1 ? '1 criterion has' : `${invalidCount} criteria have`} a problem to fix before saving.`);
      toast.error('Fix the highlighted criteria before saving');
      return;
    }
    const criteria = toInputs(items);
    update.mutate(
      { trialId: trial.id, input: { criteria } },
      {
        onSuccess: (saved) => {
          savedAt.current = saved.updatedAt;
          const fresh = ordered(saved.criteria.map(toEditable));
          setItems(fresh);
          setBaseline(JSON.stringify(toInputs(fresh)));
          setShowErrors(false);
          toast.success('Criteria saved');
        },
      },
    );
  };

  const acceptProposal = (key: string) => {
    const item = items.find((candidate) => candidate.key === key);
    if (item) change(key, { ...item, needsReview: false });
    setAnnouncement('Rule accepted. Save criteria to keep it.');
  };
  const rejectProposal = (key: string) => {
    const item = items.find((candidate) => candidate.key === key);
    if (item) change(key, { ...item, ruleType: '', fields: { ...EMPTY_FIELDS }, ruleSource: null, original: null, needsReview: true });
    setAnnouncement('Rule rejected. Save criteria to keep the change.');
  };

  return {
    items,
    dirty,
    review,
    invalidCount,
    showErrors,
    reviewOnly,
    setReviewOnly,
    announcement,
    saving: update.isPending,
    listRef,
    focusCriterionText: (key: string) => setFocusTarget({ key, action: 'text' }),
    change,
    move,
    remove,
    add,
    discard,
    save,
    acceptProposal,
    rejectProposal,
  };
}

export type CriteriaDraft = ReturnType<typeof useCriteriaDraft>;
