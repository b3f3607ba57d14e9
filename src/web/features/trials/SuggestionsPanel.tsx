import { Check, Pencil, RefreshCw, Sparkles, X } from 'lucide-react';
import { useState } from 'react';
import type { CriterionRule, Trial } from '../../../contract/trials';
import { Badge, Button } from '../../components/ui';
import { errorMessage } from '../../lib/utils';
import { ruleOf, type EditableCriterion } from './criteria-editor';
import { ruleInWords } from './format';
import { useReparseTrial, useSuggestRules } from './queries';

type Outcome = { tone: 'ok' | 'error'; text: string; details?: string[] };

/**
 * "Improve with suggestions" (issue 10): the criteria no reader could read, and the language model's
 * proposals to accept, edit or reject. Both actions save on the server at once, so they wait until the
 * editor has no unsaved changes; accepting or rejecting a proposal changes the editor, then "Save criteria"
 * keeps it, like any other edit.
 */
export function SuggestionsPanel({
  trial,
  items,
  dirty,
  onAccept,
  onReject,
  onEdit,
}: {
  trial: Trial;
  items: EditableCriterion[];
  dirty: boolean;
  onAccept: (key: string) => void;
  onReject: (key: string) => void;
  onEdit: (key: string) => void;
}) {
  const reparse = useReparseTrial();
  const suggest = useSuggestRules();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const proposals = items.filter((item) => item.ruleSource === 'llm' && item.needsReview && item.ruleType !== '');
  const unread = items.filter((item) => item.ruleType === '' && item.text.trim());
  const busy = reparse.isPending || suggest.isPending;
  const number = (item: EditableCriterion) =>
    `${item.kind === 'inclusion' ? 'Inclusion' : 'Exclusion'} ${items.filter((other) => other.kind === item.kind).indexOf(item) + 1}`;

  const reread = () =>
    reparse.mutate(trial.id, {
      onSuccess: (result) =>
        setOutcome({
          tone: 'ok',
          text:
            result.changes.length === 0
              ? 'Read again: no rule changed.'
              : `Read again: ${result.changes.length === 1 ? '1 criterion has' : `${result.changes.length} criteria have`} a new rule to review.`,
          details: result.changes.slice(0, 10).map((change) => `${change.text.slice(0, 80)}: ${change.after ? ruleInWords(change.after) : 'no rule'}`),
        }),
      onError: (error) => setOutcome({ tone: 'error', text: errorMessage(error) }),
    });
  const ask = () =>
    suggest.mutate(trial.id, {
      onSuccess: (result) =>
        setOutcome({
          tone: 'ok',
          text:
            result.asked === 0
              ? 'Every criterion already has a rule: nothing to ask.'
              : `${result.model} proposed ${result.suggested.length} of ${result.asked} rules. Review each one below before it counts.`,
          details: result.unread.slice(0, 10).map((item) => `Not read: ${item.text.slice(0, 80)} (${item.reason})`),
        }),
      onError: (error) => setOutcome({ tone: 'error', text: errorMessage(error) }),
    });

  return (
    <section aria-labelledby="suggestions-heading" className="grid gap-3 rounded-lg border border-slate-200 bg-white px-4 py-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="suggestions-heading" className="text-base font-semibold text-slate-900">
          Improve with suggestions
        </h2>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" size="sm" onClick={reread} disabled={busy || dirty}>
            <RefreshCw aria-hidden="true" className="h-4 w-4" />
            {reparse.isPending ? 'Reading…' : 'Read the text again'}
          </Button>
          <Button variant="secondary" size="sm" onClick={ask} disabled={busy || dirty || unread.length === 0}>
            <Sparkles aria-hidden="true" className="h-4 w-4" />
            {suggest.isPending ? 'Asking…' : 'Suggest rules for unread criteria'}
          </Button>
        </div>
      </div>
      <p className="text-sm text-slate-800">
        {unread.length === 0
          ? 'Every criterion has a rule.'
          : `${unread.length === 1 ? '1 criterion has' : `${unread.length} criteria have`} no rule yet: the prescreen form asks its text as it is, or staff review it.`}
        {dirty && ' Save or discard your changes to use these actions.'}
      </p>
      <div aria-live="polite">
        {outcome && (
          <div
            className={
              outcome.tone === 'error'
                ? 'rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900'
                : 'rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-900'
            }
          >
            <p>{outcome.text}</p>
            {outcome.details && outcome.details.length > 0 && (
              <ul className="mt-1 list-disc pl-5 text-xs text-slate-800">
                {outcome.details.map((line, index) => (
                  <li key={index}>{line}</li>
                ))}
              </ul>
            )}
          </div>
        )}
      </div>
      {proposals.length > 0 && (
        <div className="grid gap-2">
          <h3 className="text-sm font-semibold text-slate-900">Proposed rules to review ({proposals.length})</h3>
          <ul className="grid gap-2" aria-label="Proposed rules">
            {proposals.map((item) => {
              const rule = ruleOf(item).rule as CriterionRule | null;
              return (
                <li key={item.key} className="grid gap-1 rounded-md border border-amber-200 bg-amber-50 px-3 py-2">
                  <p className="text-sm text-slate-900">
                    <span className="font-medium">{number(item)}:</span> {item.text}
                  </p>
                  <p className="flex flex-wrap items-center gap-2 text-sm text-slate-900">
                    <Badge tone="amber">Suggested</Badge>
                    {rule ? ruleInWords(rule) : 'No usable rule'}
                  </p>
                  <div className="flex flex-wrap gap-2">
                    <Button size="sm" variant="secondary" onClick={() => onAccept(item.key)} aria-label={`Accept the rule for ${number(item)}`}>
                      <Check aria-hidden="true" className="h-4 w-4" />
                      Accept
                    </Button>
                    <Button size="sm" variant="secondary" onClick={() => onEdit(item.key)} aria-label={`Edit the rule for ${number(item)}`}>
                      <Pencil aria-hidden="true" className="h-4 w-4" />
                      Edit
                    </Button>
                    <Button size="sm" variant="secondary" onClick={() => onReject(item.key)} aria-label={`Reject the rule for ${number(item)}`}>
                      <X aria-hidden="true" className="h-4 w-4" />
                      Reject
                    </Button>
                  </div>
                </li>
              );
            })}
          </ul>
          <p className="text-xs text-slate-700">
            Accepting or rejecting changes the list below; “Save criteria” keeps it. A proposal never excludes anyone until it is accepted.
          </p>
        </div>
      )}
    </section>
  );
}
