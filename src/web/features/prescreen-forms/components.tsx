import { ChevronDown, ChevronRight, Plus, X } from 'lucide-react';
import { ItemActions } from '../../components/ItemActions';
import { createContext, useContext, useState, type ReactNode } from 'react';
import type {
  AnswerPredicate,
  CriterionCoverage,
  CriterionLink,
  CriterionOutcome,
  Question,
  QuestionType,
  StudyBlock,
} from '../../../contract/prescreen-forms';
import { QUESTION_TYPES, QuestionSchema } from '../../../contract/prescreen-forms';
import { Badge, Button, Input, Label, Select } from '../../components/ui';
import { maxLengthOf } from '../../lib/limits';
import { cn } from '../../lib/utils';
import { hasOptions, withNewLink, withType, withWording } from './question-edits';
import {
  move,
  newQuestion,
  OP_LABELS,
  OPS_BY_TYPE,
  OUTCOME_LABELS,
  predicateFor,
  predicateInWords,
  QUESTION_TYPE_LABELS,
  spanishWordingMissing,
  type PredicateOp,
} from './format';

export const textareaClass =
  'w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700';

function Control({ id, label, children, className }: { id: string; label: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn('grid content-start gap-1', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children}
    </div>
  );
}

const OUTCOMES: CriterionOutcome[] = ['met', 'not_met', 'review'];

function PredicateFields({
  id,
  question,
  when,
  onChange,
}: {
  id: string;
  question: Question;
  when: AnswerPredicate;
  onChange: (next: AnswerPredicate) => void;
}) {
  const dateCompare = question.type === 'date' && !['age_lt', 'age_gte'].includes(when.op);
  const inputType = dateCompare ? 'date' : 'text';
  const unit = question.unit ? ` (${question.unit})` : '';
  // A value to compare the answer with: a day for a date question, else a number or text.
  const valueInput = (part: 'value' | 'upper', label: string, value: unknown, onText: (text: string) => void) => (
    <Control id={`${id}-${part}`} label={label}>
      <Input
        id={`${id}-${part}`}
        type={inputType}
        inputMode={dateCompare ? undefined : 'decimal'}
        value={String(value)}
        onChange={(event) => onText(event.target.value)}
      />
    </Control>
  );
  switch (when.op) {
    case 'is_yes':
    case 'is_no':
    case 'answered':
      return null;
    case 'age_lt':
    case 'age_gte':
      return (
        <Control id={`${id}-value`} label="Age in years">
          <Input
            id={`${id}-value`}
            inputMode="numeric"
            value={String(when.value)}
            onChange={(event) => onChange({ ...when, value: Number(event.target.value) || 0 })}
          />
        </Control>
      );
    case 'between':
      return (
        <>
          {valueInput('value', `From${unit}`, when.value, (value) => onChange({ ...when, value }))}
          {valueInput('upper', `To${unit}`, when.upper, (upper) => onChange({ ...when, upper }))}
        </>
      );
    case 'in':
      return (
        <fieldset className="col-span-full grid gap-1">
          <legend className="text-sm font-medium text-slate-800">Matching options</legend>
          {(question.options ?? []).length === 0 ? (
            <p className="text-sm text-slate-700">Add options to the question first.</p>
          ) : (
            <div className="flex flex-wrap gap-3">
              {(question.options ?? []).map((option, index) => (
                <label key={`${option.value}-${index}`} className="flex items-center gap-2 text-sm text-slate-800">
                  <input
                    type="checkbox"
                    className="h-4 w-4 accent-blue-700"
                    checked={when.values.includes(option.value)}
                    onChange={(event) =>
                      onChange({
                        ...when,
                        values: event.target.checked ? [...when.values, option.value] : when.values.filter((value) => value !== option.value),
                      })
                    }
                  />
                  {option.label.en || option.value}
                </label>
              ))}
            </div>
          )}
        </fieldset>
      );
    default:
      return valueInput('value', `Value${unit}`, when.value, (value) => onChange({ ...when, value }));
  }
}

function LinkEditor({
  id,
  link,
  number,
  question,
  criteria,
  labels,
  onChange,
  onRemove,
}: {
  id: string;
  link: CriterionLink;
  number: number;
  question: Question;
  criteria: CriterionCoverage[];
  labels: Map<string, string>;
  onChange: (next: CriterionLink) => void;
  onRemove: () => void;
}) {
  const legendId = `${id}-legend`;
  const ops = OPS_BY_TYPE[question.type];
  const criterionLabel = labels.get(link.criterionId);
  return (
    <li>
      <fieldset className="grid gap-3 rounded-md border border-slate-200 bg-slate-50 p-3" data-testid="criterion-link">
        <legend id={legendId} className="sr-only">
          Criterion link {number}
          {criterionLabel ? ` (${criterionLabel})` : ''}
        </legend>
        <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
          <Control id={`${id}-criterion`} label="Criterion" className="col-span-full">
            <Select id={`${id}-criterion`} value={link.criterionId} onChange={(event) => onChange({ ...link, criterionId: event.target.value })}>
              <option value="">Choose a criterion</option>
              {criteria.map((criterion) => (
                <option key={criterion.criterionId} value={criterion.criterionId}>
                  {labels.get(criterion.criterionId)}: {criterion.text.length > 90 ? `${criterion.text.slice(0, 90)}…` : criterion.text}
                </option>
              ))}
              {link.criterionId && !labels.has(link.criterionId) && <option value={link.criterionId}>Unknown criterion (no longer in the trial)</option>}
            </Select>
          </Control>
          <Control id={`${id}-op`} label="When">
            <Select
              id={`${id}-op`}
              value={link.when.op}
              onChange={(event) => onChange({ ...link, when: predicateFor(event.target.value as PredicateOp, link.when, question) })}
            >
              {!ops.includes(link.when.op) && <option value={link.when.op}>{OP_LABELS[link.when.op]} (does not fit this type)</option>}
              {ops.map((op) => (
                <option key={op} value={op}>
                  {OP_LABELS[op]}
                </option>
              ))}
            </Select>
          </Control>
          <PredicateFields id={id} question={question} when={link.when} onChange={(when) => onChange({ ...link, when })} />
          <Control id={`${id}-then`} label="Then the criterion is">
            <Select id={`${id}-then`} value={link.then} onChange={(event) => onChange({ ...link, then: event.target.value as CriterionOutcome })}>
              {OUTCOMES.map((outcome) => (
                <option key={outcome} value={outcome}>
                  {OUTCOME_LABELS[outcome]}
                </option>
              ))}
            </Select>
          </Control>
          <Control id={`${id}-otherwise`} label="Otherwise">
            <Select
              id={`${id}-otherwise`}
              value={link.otherwise ?? ''}
              onChange={(event) => onChange({ ...link, otherwise: (event.target.value || undefined) as CriterionOutcome | undefined })}
            >
              <option value="">Decides nothing</option>
              {OUTCOMES.map((outcome) => (
                <option key={outcome} value={outcome}>
                  {OUTCOME_LABELS[outcome]}
                </option>
              ))}
            </Select>
          </Control>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-xs text-slate-700">
            {predicateInWords(link.when, question)} → {OUTCOME_LABELS[link.then]}
            {link.otherwise ? `; otherwise ${OUTCOME_LABELS[link.otherwise]}` : ''}
          </p>
          <Button variant="ghost" size="sm" aria-describedby={legendId} onClick={onRemove} className="text-red-800 hover:bg-red-50">
            <X aria-hidden="true" className="h-4 w-4" />
            Remove link
          </Button>
        </div>
      </fieldset>
    </li>
  );
}

function OptionsEditor({ id, question, onChange }: { id: string; question: Question; onChange: (next: Question) => void }) {
  const options = question.options ?? [];
  const setOptions = (next: NonNullable<Question['options']>) => onChange({ ...question, options: next });
  return (
    <fieldset className="grid gap-2">
      <legend className="text-sm font-semibold text-slate-900">Options</legend>
      <ol className="grid gap-2">
        {options.map((option, index) => {
          const optionId = `${id}-option-${index}`;
          return (
            <li key={index} className="grid items-end gap-2 sm:grid-cols-[8rem_1fr_1fr_auto]">
              <Control id={`${optionId}-value`} label={`Option ${index + 1} value`}>
                <Input
                  id={`${optionId}-value`}
                  value={option.value}
                  onChange={(event) => setOptions(options.map((item, i) => (i === index ? { ...item, value: event.target.value } : item)))}
                />
              </Control>
              <Control id={`${optionId}-en`} label={`Option ${index + 1} label (English)`}>
                <Input
                  id={`${optionId}-en`}
                  value={option.label.en}
                  onChange={(event) =>
                    setOptions(options.map((item, i) => (i === index ? { ...item, label: { ...item.label, en: event.target.value } } : item)))
                  }
                />
              </Control>
              <Control id={`${optionId}-es`} label={`Option ${index + 1} label (Spanish)`}>
                <Input
                  id={`${optionId}-es`}
                  value={option.label.es ?? ''}
                  onChange={(event) =>
                    setOptions(options.map((item, i) => (i === index ? { ...item, label: { ...item.label, es: event.target.value } } : item)))
                  }
                />
              </Control>
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Remove option ${index + 1}`}
                onClick={() => setOptions(options.filter((_, i) => i !== index))}
                className="text-red-800 hover:bg-red-50"
              >
                <X aria-hidden="true" className="h-4 w-4" />
              </Button>
            </li>
          );
        })}
      </ol>
      <div>
        <Button variant="secondary" size="sm" onClick={() => setOptions([...options, { value: `option-${options.length + 1}`, label: { en: '', es: '' } }])}>
          <Plus aria-hidden="true" className="h-4 w-4" />
          Add option
        </Button>
      </div>
    </fieldset>
  );
}

/**
 * Which questions of the builder are open. A long form is ~100 questions: they start collapsed (a one-line
 * summary each), opening one closes the others, and "Expand all" opens every one. Without a provider
 * (anywhere but the builder) every question is open.
 */
export interface QuestionExpansion {
  isOpen: (id: string) => boolean;
  toggle: (id: string) => void;
  open: (id: string) => void;
}
export const QuestionExpansionContext = createContext<QuestionExpansion | null>(null);

export function useQuestionExpansionState(): QuestionExpansion & { expandAll: (ids: string[]) => void; collapseAll: () => void; count: number } {
  const [openIds, setOpenIds] = useState<Set<string>>(() => new Set());
  return {
    isOpen: (id) => openIds.has(id),
    toggle: (id) => setOpenIds((current) => (current.has(id) ? new Set([...current].filter((item) => item !== id)) : new Set([id]))),
    open: (id) => setOpenIds((current) => new Set([...current, id])),
    expandAll: (ids) => setOpenIds(new Set(ids)),
    collapseAll: () => setOpenIds(new Set()),
    count: openIds.size,
  };
}

/** What the editor of one item of an ordered list (a block, a question) is given: its place, the criteria it can decide, and its changes. */
interface OrderedItemEditorProps<T> {
  number: number;
  isFirst: boolean;
  isLast: boolean;
  criteria: CriterionCoverage[];
  labels: Map<string, string>;
  onChange: (next: T) => void;
  onMove: (direction: -1 | 1) => void;
  onRemove: () => void;
}

/** A question's four wordings, chat then phone, English then Spanish (Spanish falls back to English). */
const WORDINGS = [
  { channel: 'chat', language: 'en', label: 'Chat wording (English)' },
  { channel: 'chat', language: 'es', label: 'Chat wording (Spanish)' },
  { channel: 'phone', language: 'en', label: 'Phone wording (English)' },
  { channel: 'phone', language: 'es', label: 'Phone wording (Spanish)' },
] as const;

/** What the parts of a question's editor share: the question, its element id prefix, and its changes. */
interface QuestionPartProps {
  id: string;
  question: Question;
  onChange: (next: Question) => void;
}

/** A question's top line: open or close it, its number and (closed) wording, its badges, and move and delete. */
function QuestionSummaryBar({
  id,
  question,
  number,
  expanded,
  isFirst,
  isLast,
  onMove,
  onRemove,
}: Pick<OrderedItemEditorProps<Question>, 'number' | 'isFirst' | 'isLast' | 'onMove' | 'onRemove'> & { id: string; question: Question; expanded: boolean }) {
  const expansion = useContext(QuestionExpansionContext);
  const legendId = `${id}-legend`;
  const bodyId = `${id}-body`;
  const summary = question.wording.chat.en || question.wording.phone.en || 'No wording yet';
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <div className="flex min-w-0 flex-1 flex-wrap items-center gap-2">
        {expansion && (
          <Button
            variant="ghost"
            size="sm"
            aria-expanded={expanded}
            aria-controls={bodyId}
            aria-describedby={legendId}
            onClick={() => expansion.toggle(question.id)}
          >
            {expanded ? <ChevronDown aria-hidden="true" className="h-4 w-4" /> : <ChevronRight aria-hidden="true" className="h-4 w-4" />}
            {expanded ? 'Collapse' : 'Edit'}
          </Button>
        )}
        <span aria-hidden="true" className="text-sm font-semibold text-slate-900">
          Question {number}
        </span>
        {!expanded && <span className="w-0 min-w-32 max-w-md flex-1 truncate text-sm text-slate-800">{summary}</span>}
        {question.source === 'criterion_text' && (
          <Badge tone="amber" title="Generated from the criterion's text: check the links">
            From criterion text
          </Badge>
        )}
        {question.audience === 'site' && (
          <Badge tone="blue" title="Answered by site staff; the chat and voice agents never ask it">
            Site review (staff only)
          </Badge>
        )}
        {question.criterionLinks.length === 0 && <Badge>No criterion</Badge>}
        {spanishWordingMissing(question) && (
          <Badge tone="amber" title="No Spanish name is known for a term it asks about: write the Spanish chat and phone wording before publishing">
            Spanish wording needed
          </Badge>
        )}
      </div>
      <ItemActions describedBy={legendId} isFirst={isFirst} isLast={isLast} onMove={onMove} onRemove={onRemove} />
    </div>
  );
}

/** A question's answer type, its unit (numbers), and whether it must be answered. */
function QuestionSettings({ id, question, onChange }: QuestionPartProps) {
  return (
    <div className="grid gap-3 sm:grid-cols-3">
      <Control id={`${id}-type`} label="Answer type">
        <Select id={`${id}-type`} value={question.type} onChange={(event) => onChange(withType(question, event.target.value as QuestionType))}>
          {QUESTION_TYPES.map((type) => (
            <option key={type} value={type}>
              {QUESTION_TYPE_LABELS[type]}
            </option>
          ))}
        </Select>
      </Control>
      {question.type === 'number' && (
        <Control id={`${id}-unit`} label="Unit (optional)">
          <Input
            id={`${id}-unit`}
            value={question.unit ?? ''}
            maxLength={maxLengthOf(QuestionSchema.shape.unit)}
            placeholder="mL/min"
            onChange={(event) => onChange({ ...question, unit: event.target.value })}
          />
        </Control>
      )}
      <label className="flex items-center gap-2 self-end pb-2 text-sm text-slate-800">
        <input
          type="checkbox"
          className="h-4 w-4 accent-blue-700"
          checked={question.required}
          onChange={(event) => onChange({ ...question, required: event.target.checked })}
        />
        Required
      </label>
    </div>
  );
}

/** A question's four wordings. */
function WordingFields({ id, question, onChange }: QuestionPartProps) {
  return (
    <div className="grid gap-3 md:grid-cols-2">
      {WORDINGS.map(({ channel, language, label }) => (
        <Control key={`${channel}-${language}`} id={`${id}-${channel}-${language}`} label={label}>
          <textarea
            id={`${id}-${channel}-${language}`}
            rows={2}
            className={textareaClass}
            value={question.wording[channel][language] ?? ''}
            placeholder={language === 'es' ? 'Falls back to English' : undefined}
            onChange={(event) => onChange(withWording(question, channel, language, event.target.value))}
          />
        </Control>
      ))}
    </div>
  );
}

/** The criteria a question's answer decides, each link editable, and a button to add one. */
function CriterionLinksSection({
  id,
  question,
  criteria,
  labels,
  onChange,
}: QuestionPartProps & Pick<OrderedItemEditorProps<Question>, 'criteria' | 'labels'>) {
  const legendId = `${id}-legend`;
  return (
    <section aria-labelledby={`${id}-links`} className="grid gap-2">
      <h4 id={`${id}-links`} className="text-sm font-semibold text-slate-900">
        Criterion links ({question.criterionLinks.length})
      </h4>
      {question.criterionLinks.length > 0 && (
        <ol className="grid gap-2">
          {question.criterionLinks.map((link, index) => (
            <LinkEditor
              key={index}
              id={`${id}-link-${index}`}
              number={index + 1}
              link={link}
              question={question}
              criteria={criteria}
              labels={labels}
              onChange={(next) => onChange({ ...question, criterionLinks: question.criterionLinks.map((item, i) => (i === index ? next : item)) })}
              onRemove={() => onChange({ ...question, criterionLinks: question.criterionLinks.filter((_, i) => i !== index) })}
            />
          ))}
        </ol>
      )}
      <div>
        <Button variant="secondary" size="sm" aria-describedby={legendId} onClick={() => onChange(withNewLink(question))}>
          <Plus aria-hidden="true" className="h-4 w-4" />
          Link to a criterion
        </Button>
      </div>
    </section>
  );
}

export function QuestionEditor({
  question,
  blockTitle,
  criteria,
  labels,
  onChange,
  ...place
}: OrderedItemEditorProps<Question> & { question: Question; blockTitle: string }) {
  const id = `q-${question.id}`;
  const expansion = useContext(QuestionExpansionContext);
  const expanded = expansion ? expansion.isOpen(question.id) : true;
  return (
    <li data-item={question.id}>
      <fieldset className="grid min-w-0 gap-4 rounded-lg border border-slate-200 bg-white p-4">
        <legend id={`${id}-legend`} className="sr-only">
          Question {place.number} in {blockTitle || 'untitled block'}
        </legend>
        <QuestionSummaryBar id={id} question={question} expanded={expanded} {...place} />
        {expanded && (
          <div id={`${id}-body`} className="grid gap-4">
            <QuestionSettings id={id} question={question} onChange={onChange} />
            <WordingFields id={id} question={question} onChange={onChange} />
            {hasOptions(question) && <OptionsEditor id={id} question={question} onChange={onChange} />}
            <CriterionLinksSection id={id} question={question} criteria={criteria} labels={labels} onChange={onChange} />
          </div>
        )}
      </fieldset>
    </li>
  );
}

export function BlockEditor({
  block,
  number,
  isFirst,
  isLast,
  criteria,
  labels,
  onChange,
  onMove,
  onRemove,
  onFocus,
}: OrderedItemEditorProps<StudyBlock> & { block: StudyBlock; onFocus: (target: { id: string; action: 'up' | 'down' | 'text' }) => void }) {
  const id = `b-${block.id}`;
  const legendId = `${id}-legend`;
  const setQuestions = (questions: Question[]) => onChange({ ...block, questions });
  const expansion = useContext(QuestionExpansionContext);
  return (
    <li data-item={block.id}>
      <fieldset className="grid min-w-0 gap-4 rounded-xl border border-slate-300 bg-slate-100/60 p-4">
        <legend id={legendId} className="sr-only">
          Block {number}: {block.title.en || 'untitled'}
        </legend>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 className="text-lg font-semibold text-slate-900">
            Block {number}: {block.title.en || <span className="text-slate-700">Untitled</span>}
          </h3>
          <ItemActions describedBy={legendId} isFirst={isFirst} isLast={isLast} onMove={onMove} onRemove={onRemove} removeLabel="Delete block" />
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          <Control id={`${id}-title-en`} label="Block title (English)">
            <Input
              id={`${id}-title-en`}
              value={block.title.en}
              onChange={(event) => onChange({ ...block, title: { ...block.title, en: event.target.value } })}
            />
          </Control>
          <Control id={`${id}-title-es`} label="Block title (Spanish)">
            <Input
              id={`${id}-title-es`}
              value={block.title.es ?? ''}
              placeholder="Falls back to English"
              onChange={(event) => onChange({ ...block, title: { ...block.title, es: event.target.value } })}
            />
          </Control>
        </div>
        {block.questions.length === 0 ? (
          <p className="text-sm text-slate-700">No questions in this block. Empty blocks are fine while editing; add a question or delete the block.</p>
        ) : (
          <ol className="grid gap-3">
            {block.questions.map((question, index) => (
              <QuestionEditor
                key={question.id}
                question={question}
                number={index + 1}
                blockTitle={block.title.en}
                isFirst={index === 0}
                isLast={index === block.questions.length - 1}
                criteria={criteria}
                labels={labels}
                onChange={(next) => setQuestions(block.questions.map((item) => (item.id === question.id ? next : item)))}
                onMove={(direction) => {
                  setQuestions(move(block.questions, index, direction));
                  onFocus({ id: question.id, action: direction === -1 ? 'up' : 'down' });
                }}
                onRemove={() => setQuestions(block.questions.filter((item) => item.id !== question.id))}
              />
            ))}
          </ol>
        )}
        <div>
          <Button
            variant="secondary"
            size="sm"
            aria-describedby={legendId}
            onClick={() => {
              const question = newQuestion();
              expansion?.open(question.id);
              setQuestions([...block.questions, question]);
              onFocus({ id: question.id, action: 'text' });
            }}
          >
            <Plus aria-hidden="true" className="h-4 w-4" />
            Add question
          </Button>
        </div>
      </fieldset>
    </li>
  );
}
