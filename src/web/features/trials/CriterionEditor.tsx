import { ItemActions } from '../../components/ItemActions';
import type { CriterionKind } from '../../../contract/trials';
import { Badge, Field, Select } from '../../components/ui';
import { cn } from '../../lib/utils';
import { NeedsReviewBadge, PopulationBadge } from './components';
import { RULE_TYPE_LABELS, RULE_TYPES, ruleOf, type EditableCriterion, type RuleType } from './criteria-editor';
import { RULE_SOURCE_LABELS, ruleInWords } from './format';
import { fieldIdOf, RuleFieldsEditor } from './RuleFieldsEditor';

export const KIND_LABELS: Record<CriterionKind, string> = { inclusion: 'Inclusion', exclusion: 'Exclusion' };

const textareaClass =
  'w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 aria-[invalid=true]:border-red-700';

/** One criterion: its text, kind and structured rule, its badges, and the actions that move or delete it. */
export function CriterionEditor({
  criterion,
  number,
  isFirst,
  isLast,
  showErrors,
  onChange,
  onMove,
  onRemove,
}: {
  criterion: EditableCriterion;
  number: number;
  isFirst: boolean;
  isLast: boolean;
  showErrors: boolean;
  onChange: (next: EditableCriterion) => void;
  onMove: (direction: -1 | 1) => void;
  onRemove: () => void;
}) {
  const id = fieldIdOf(criterion);
  const legendId = id('legend');
  const { rule, errors: allErrors } = ruleOf(criterion);
  const errors = showErrors ? allErrors : {};
  const setRule = (patch: Partial<EditableCriterion>) => {
    const next = { ...criterion, ...patch };
    // A rule a person sets or changes is theirs, and reviewed (they may tick "Needs review" again).
    onChange({ ...next, ruleSource: next.ruleType ? 'manual' : null, needsReview: next.ruleType ? false : criterion.needsReview });
  };
  return (
    <li data-criterion={criterion.key}>
      <fieldset className={cn('grid gap-4 rounded-lg border bg-white p-4', criterion.needsReview ? 'border-amber-300' : 'border-slate-200')}>
        <legend id={legendId} className="sr-only">
          {KIND_LABELS[criterion.kind]} criterion {number}
        </legend>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div className="flex flex-wrap items-center gap-2">
            <span aria-hidden="true" className="text-sm font-semibold text-slate-900">
              {KIND_LABELS[criterion.kind]} {number}
            </span>
            {criterion.ruleSource && rule ? <Badge tone="blue">{RULE_SOURCE_LABELS[criterion.ruleSource]}</Badge> : <Badge>No rule</Badge>}
            {criterion.needsReview && <NeedsReviewBadge />}
            {criterion.population && <PopulationBadge population={criterion.population} />}
            {!criterion.id && <Badge tone="green">New</Badge>}
          </div>
          <ItemActions describedBy={legendId} isFirst={isFirst} isLast={isLast} onMove={onMove} onRemove={onRemove} />
        </div>
        <Field className="content-start" label="Text" error={errors.text}>
          <textarea
            id={id('text')}
            rows={Math.min(8, Math.max(2, criterion.text.split('\n').length))}
            className={textareaClass}
            value={criterion.text}
            onChange={(event) =>
              onChange({
                ...criterion,
                text: event.target.value,
                // A parsed rule may no longer match edited text: flag it for a person.
                needsReview: criterion.needsReview || Boolean(rule && criterion.ruleSource && criterion.ruleSource !== 'manual'),
              })
            }
          />
        </Field>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <Field className="content-start" label="Kind">
            <Select id={id('kind')} value={criterion.kind} onChange={(event) => onChange({ ...criterion, kind: event.target.value as CriterionKind })}>
              <option value="inclusion">Inclusion</option>
              <option value="exclusion">Exclusion</option>
            </Select>
          </Field>
          <Field className="content-start" label="Rule" error={errors.ruleType}>
            <Select id={id('ruleType')} value={criterion.ruleType} onChange={(event) => setRule({ ruleType: event.target.value as RuleType | '' })}>
              <option value="">No structured rule</option>
              {RULE_TYPES.map((type) => (
                <option key={type} value={type}>
                  {RULE_TYPE_LABELS[type]}
                </option>
              ))}
            </Select>
          </Field>
          <RuleFieldsEditor criterion={criterion} errors={errors} onFields={(patch) => setRule({ fields: { ...criterion.fields, ...patch } })} />
        </div>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-slate-800">
            {rule ? (
              <>
                <span className="font-medium">Eligible when: </span>
                {ruleInWords(rule)}
              </>
            ) : criterion.ruleType ? (
              <span className="text-slate-700">The rule is not complete yet.</span>
            ) : (
              <span className="text-slate-700">Checked by a person from the text.</span>
            )}
          </p>
          <label className="flex items-center gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              className="h-4 w-4 accent-amber-700"
              checked={criterion.needsReview}
              onChange={(event) => onChange({ ...criterion, needsReview: event.target.checked })}
            />
            Needs review
          </label>
        </div>
      </fieldset>
    </li>
  );
}
