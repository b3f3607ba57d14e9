import { Plus, Save, Undo2 } from 'lucide-react';
import type { Trial } from '../../../contract/trials';
import { Button, EmptyState } from '../../components/ui';
import { CriterionEditor, KIND_LABELS } from './CriterionEditor';
import { SuggestionsPanel } from './SuggestionsPanel';
import { useCriteriaDraft } from './useCriteriaDraft';

/** A trial's criteria editor: the suggestions, the inclusion and exclusion lists, and the bar that saves them. */
export function CriteriaEditor({ trial }: { trial: Trial }) {
  const draft = useCriteriaDraft(trial);

  return (
    <div className="grid gap-6 pb-24" ref={draft.listRef}>
      <SuggestionsPanel
        trial={trial}
        items={draft.items}
        dirty={draft.dirty}
        onAccept={draft.acceptProposal}
        onReject={draft.rejectProposal}
        onEdit={(key) => {
          draft.setReviewOnly(false);
          draft.focusCriterionText(key);
        }}
      />
      <div className="flex flex-wrap items-center gap-4 rounded-lg border border-slate-200 bg-white px-4 py-3">
        <p className="text-sm text-slate-900" data-testid="review-count">
          <span className="font-semibold">
            {draft.review} of {draft.items.length}
          </span>{' '}
          criteria need review
        </p>
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            className="h-4 w-4 accent-blue-700"
            checked={draft.reviewOnly}
            onChange={(event) => draft.setReviewOnly(event.target.checked)}
          />
          Needs review only
        </label>
        <p className="text-xs text-slate-700">Rules state what an eligible candidate must satisfy: an exclusion “eGFR &lt; 45” is the rule “eGFR ≥ 45”.</p>
      </div>
      <p className="sr-only" aria-live="polite">
        {draft.announcement}
      </p>

      {(['inclusion', 'exclusion'] as const).map((kind) => {
        const all = draft.items.filter((item) => item.kind === kind);
        const shown = draft.reviewOnly ? all.filter((item) => item.needsReview) : all;
        return (
          <section key={kind} aria-labelledby={`${kind}-heading`} className="grid gap-3">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h2 id={`${kind}-heading`} className="text-lg font-semibold text-slate-900">
                {KIND_LABELS[kind]} criteria <span className="font-normal text-slate-700">({all.length})</span>
              </h2>
              <Button variant="secondary" size="sm" onClick={() => draft.add(kind)}>
                <Plus aria-hidden="true" className="h-4 w-4" />
                Add {kind} criterion
              </Button>
            </div>
            {shown.length === 0 ? (
              <EmptyState title={draft.reviewOnly && all.length > 0 ? `No ${kind} criteria need review` : `No ${kind} criteria`} />
            ) : (
              <ol className="grid gap-3">
                {shown.map((item) => {
                  const number = all.indexOf(item) + 1;
                  return (
                    <CriterionEditor
                      key={item.key}
                      criterion={item}
                      number={number}
                      isFirst={number === 1}
                      isLast={number === all.length}
                      showErrors={draft.showErrors}
                      onChange={(next) => draft.change(item.key, next)}
                      onMove={(direction) => draft.move(item.key, direction)}
                      onRemove={() => draft.remove(item.key)}
                    />
                  );
                })}
              </ol>
            )}
          </section>
        );
      })}

      <div className="fixed inset-x-0 bottom-0 z-20 border-t border-slate-200 bg-white/95 px-4 py-3 shadow-[0_-2px_8px_rgba(0,0,0,0.06)] md:left-60">
        <div className="flex flex-wrap items-center justify-end gap-3">
          <p className="mr-auto text-sm text-slate-800" aria-live="polite">
            {draft.saving ? 'Saving…' : draft.dirty ? 'Unsaved changes' : 'All changes saved'}
            {draft.showErrors && draft.invalidCount > 0 && (
              <span className="ml-2 text-red-700">{draft.invalidCount === 1 ? '1 criterion needs fixing' : `${draft.invalidCount} criteria need fixing`}</span>
            )}
          </p>
          <Button variant="secondary" onClick={draft.discard} disabled={!draft.dirty || draft.saving}>
            <Undo2 aria-hidden="true" className="h-4 w-4" />
            Discard changes
          </Button>
          <Button onClick={draft.save} disabled={!draft.dirty || draft.saving}>
            <Save aria-hidden="true" className="h-4 w-4" />
            {draft.saving ? 'Saving…' : 'Save criteria'}
          </Button>
        </div>
      </div>
    </div>
  );
}
