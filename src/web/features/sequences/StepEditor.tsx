import { ItemActions } from '../../components/ItemActions';
import { FormError } from '../../components/FormError';
import { useRef, useState, type ReactNode } from 'react';
import type { SequenceStep } from '../../../contract/sequences';
import { Textarea } from '../../components/Textarea';
import { Badge, Field, Input, Select } from '../../components/ui';
import {
  AGENT_LABELS,
  AGENT_TYPES_LIST,
  BRANCH_CONDITION_LABELS,
  BRANCH_CONDITIONS_LIST,
  EMAIL_BODY_MAX,
  EMAIL_SUBJECT_MAX,
  insertVariable,
  MESSAGE_MAX,
  STEP_TYPE_LABELS,
  VARIABLES,
  WAIT_UNIT_LABELS,
  WAIT_UNITS,
  WEEKDAY_LABELS,
  WEEKDAY_LIST,
  type WaitUnit,
  type Weekday,
} from './format';
import { PreviewDialog } from './PreviewDialog';

type Problems = Map<string, string[]> | undefined;
const errorOf = (problems: Problems, field: string) => problems?.get(field)?.join(' ') || undefined;

/** The text fields of message steps, by their path in the step. */
type TextPath = 'message.en' | 'message.es' | 'subject.en' | 'subject.es' | 'body.en' | 'body.es';
const TEXT_LABELS: Record<TextPath, string> = {
  'message.en': 'Message (English)',
  'message.es': 'Message (Spanish)',
  'subject.en': 'Subject (English)',
  'subject.es': 'Subject (Spanish)',
  'body.en': 'Body (English)',
  'body.es': 'Body (Spanish)',
};

function readText(step: SequenceStep, path: TextPath): string {
  const [part, language] = path.split('.') as ['message' | 'subject' | 'body', 'en' | 'es'];
  const holder = (step as unknown as Record<string, { en: string; es?: string }>)[part];
  return holder?.[language] ?? '';
}

function writeText(step: SequenceStep, path: TextPath, value: string): SequenceStep {
  const [part, language] = path.split('.') as ['message' | 'subject' | 'body', 'en' | 'es'];
  const holder = (step as unknown as Record<string, { en: string; es?: string }>)[part];
  return { ...step, [part]: { ...holder, [language]: value } } as SequenceStep;
}

/** The words for a step's fields in the builder's list of problems. */
export const FIELD_LABELS: Record<string, string> = {
  ...TEXT_LABELS,
  key: 'Step key',
  agentType: 'Voice agent',
  amount: 'Amount',
  unit: 'Unit',
  untilTime: 'Local time',
  untilWeekday: 'Weekday',
  condition: 'Condition',
  ifTrue: 'If it did',
  ifFalse: 'If it did not',
};

/** The field ids of a step: `seq-step-<uid>-<field>`; the builder focuses them by these. */
export const fieldId = (uid: string, field: string) => `seq-step-${uid}-${field.replace(/\./g, '-')}`;

export interface StepEditorProps {
  uid: string;
  step: SequenceStep;
  index: number;
  steps: readonly SequenceStep[];
  problems: Problems;
  trialId: string | null;
  organizationId?: string;
  isFirst: boolean;
  isLast: boolean;
  onChange: (next: SequenceStep) => void;
  onKeyChange: (key: string) => void;
  onMove: (direction: -1 | 1) => void;
  onRemove: () => void;
}

/** One step of the builder: its fields by type, inline problems, variable chips, preview, move and delete. */
export function StepEditor({
  uid,
  step,
  index,
  steps,
  problems,
  trialId,
  organizationId,
  isFirst,
  isLast,
  onChange,
  onKeyChange,
  onMove,
  onRemove,
}: StepEditorProps) {
  const number = index + 1;
  const legendId = `seq-step-${uid}-legend`;
  const textPaths: TextPath[] =
    step.type === 'sms' ? ['message.en', 'message.es'] : step.type === 'email' ? ['subject.en', 'subject.es', 'body.en', 'body.es'] : [];
  const [lastText, setLastText] = useState<TextPath | null>(null);
  const target =
    lastText && textPaths.includes(lastText) ? lastText : (textPaths.find((path) => path.startsWith(step.type === 'email' ? 'body' : 'message')) ?? null);
  const refs = useRef(new Map<TextPath, HTMLInputElement | HTMLTextAreaElement>());
  const general = [
    ...(problems?.get('') ?? []),
    ...[...(problems?.entries() ?? [])].filter(([field]) => field !== '' && !shownFields(step).includes(field)).flatMap(([, messages]) => messages),
  ];

  const insert = (variable: string) => {
    if (!target) return;
    const element = refs.current.get(target);
    const current = readText(step, target);
    const { text, caret } = insertVariable(current, variable, element?.selectionStart, element?.selectionEnd);
    onChange(writeText(step, target, text));
    // Back to the text with the caret after the variable, unless focus has moved on since the click (a person
    // who went straight to another field would otherwise type into this one).
    const clicked = document.activeElement;
    requestAnimationFrame(() => {
      if (document.activeElement !== clicked && document.activeElement !== document.body) return;
      element?.focus();
      element?.setSelectionRange(caret, caret);
    });
  };

  const textField = (path: TextPath, multiline: boolean, max: number) => {
    const value = readText(step, path);
    const control = multiline ? (
      <Textarea
        id={fieldId(uid, path)}
        ref={(element) => {
          if (element) refs.current.set(path, element);
        }}
        rows={path.startsWith('body') ? 5 : 3}
        maxLength={max}
        value={value}
        placeholder={path.endsWith('.es') ? 'Optional: candidates who prefer Spanish get this' : undefined}
        onFocus={() => setLastText(path)}
        onChange={(event) => onChange(writeText(step, path, event.target.value))}
      />
    ) : (
      <Input
        id={fieldId(uid, path)}
        ref={(element) => {
          if (element) refs.current.set(path, element);
        }}
        maxLength={max}
        value={value}
        placeholder={path.endsWith('.es') ? 'Optional' : undefined}
        onFocus={() => setLastText(path)}
        onChange={(event) => onChange(writeText(step, path, event.target.value))}
      />
    );
    return (
      <Field
        label={TEXT_LABELS[path]}
        error={errorOf(problems, path)}
        hint={multiline ? `${value.length.toLocaleString('en-US')} of ${max.toLocaleString('en-US')} characters` : undefined}
      >
        {control}
      </Field>
    );
  };

  let body: ReactNode;
  switch (step.type) {
    case 'sms':
      body = (
        <div className="grid gap-3 md:grid-cols-2">
          {textField('message.en', true, MESSAGE_MAX)}
          {textField('message.es', true, MESSAGE_MAX)}
        </div>
      );
      break;
    case 'email':
      body = (
        <div className="grid gap-3 md:grid-cols-2">
          {textField('subject.en', false, EMAIL_SUBJECT_MAX)}
          {textField('subject.es', false, EMAIL_SUBJECT_MAX)}
          {textField('body.en', true, EMAIL_BODY_MAX)}
          {textField('body.es', true, EMAIL_BODY_MAX)}
        </div>
      );
      break;
    case 'call':
      body = <CallFields uid={uid} step={step} problems={problems} onChange={onChange} />;
      break;
    case 'wait':
      body = <WaitFields uid={uid} step={step} problems={problems} onChange={onChange} />;
      break;
    case 'branch':
      body = <BranchFields uid={uid} step={step} index={index} steps={steps} problems={problems} onChange={onChange} />;
      break;
  }

  return (
    <li data-step={uid}>
      <fieldset className="grid gap-4 rounded-lg border border-slate-300 bg-white p-4" aria-describedby={general.length ? `${legendId}-problems` : undefined}>
        <legend id={legendId} className="sr-only">
          Step {number}: {STEP_TYPE_LABELS[step.type]}
        </legend>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div className="flex items-center gap-2">
            <h3 className="text-base font-semibold text-slate-900" tabIndex={-1} data-step-heading>
              Step {number}: {STEP_TYPE_LABELS[step.type]}
            </h3>
            {problems && problems.size > 0 && <Badge tone="amber">Needs attention</Badge>}
          </div>
          <ItemActions
            describedBy={legendId}
            isFirst={isFirst}
            isLast={isLast}
            onMove={onMove}
            onRemove={onRemove}
            leading={
              (step.type === 'sms' || step.type === 'email') && <PreviewDialog step={step} number={number} trialId={trialId} organizationId={organizationId} />
            }
          />
        </div>
        {general.length > 0 && <StepProblems id={`${legendId}-problems`} messages={general} />}
        {textPaths.length > 0 && target && <VariableChips label={TEXT_LABELS[target]} number={number} onInsert={insert} />}
        {body}
        <Field label="Step key" error={errorOf(problems, 'key')} hint="Stays the same across versions: statistics and branches use it." className="max-w-xs">
          <Input id={fieldId(uid, 'key')} value={step.key} maxLength={40} className="font-mono" onChange={(event) => onKeyChange(event.target.value)} />
        </Field>
      </fieldset>
    </li>
  );
}

/** The step's problems no field shows, listed at its top. */
function StepProblems({ id, messages }: { id: string; messages: string[] }) {
  return (
    <FormError announce={false} id={id} data-testid="step-problems">
      <ul className="list-disc pl-5">
        {messages.map((message) => (
          <li key={message}>{message}</li>
        ))}
      </ul>
    </FormError>
  );
}

/** The variables a message may use, as buttons that insert one into the text last in focus. */
function VariableChips({ label, number, onInsert }: { label: string; number: number; onInsert: (variable: string) => void }) {
  return (
    <div className="flex flex-wrap items-center gap-2" role="group" aria-label={`Insert a variable into ${label} of step ${number}`}>
      <span className="text-xs text-slate-700">
        Insert into <span className="font-medium">{label}</span>:
      </span>
      {VARIABLES.map((variable) => (
        <button
          key={variable}
          type="button"
          data-raw-text
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => onInsert(variable)}
          className="rounded-full border border-blue-200 bg-blue-50 px-2.5 py-0.5 font-mono text-xs text-blue-900 hover:bg-blue-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
        >
          {`{${variable}}`}
        </button>
      ))}
    </div>
  );
}

type CallStep = Extract<SequenceStep, { type: 'call' }>;

/** A call step: which of the organization's voice agents places it. */
function CallFields({ uid, step, problems, onChange }: { uid: string; step: CallStep; problems: Problems; onChange: (next: SequenceStep) => void }) {
  return (
    <Field label="Voice agent" error={errorOf(problems, 'agentType')} className="max-w-sm">
      <Select
        id={fieldId(uid, 'agentType')}
        value={step.agentType}
        onChange={(event) => onChange({ ...step, agentType: event.target.value as CallStep['agentType'] })}
      >
        {AGENT_TYPES_LIST.map((type) => (
          <option key={type} value={type}>
            {AGENT_LABELS[type]}
          </option>
        ))}
      </Select>
    </Field>
  );
}

/** The fields a step's editor shows an error under; other problems of the step are listed at its top. */
function shownFields(step: SequenceStep): string[] {
  switch (step.type) {
    case 'sms':
      return ['key', 'message.en', 'message.es'];
    case 'email':
      return ['key', 'subject.en', 'subject.es', 'body.en', 'body.es'];
    case 'call':
      return ['key', 'agentType'];
    case 'wait':
      return ['key', 'amount', 'unit', 'untilTime', 'untilWeekday'];
    case 'branch':
      return ['key', 'condition', 'ifTrue', 'ifFalse'];
  }
}

function WaitFields({
  uid,
  step,
  problems,
  onChange,
}: {
  uid: string;
  step: Extract<SequenceStep, { type: 'wait' }>;
  problems: Problems;
  onChange: (next: SequenceStep) => void;
}) {
  const byClock = step.untilTime !== undefined || step.untilWeekday !== undefined;
  const name = `seq-step-${uid}-wait-kind`;
  return (
    <div className="grid gap-3">
      <fieldset className="flex flex-wrap gap-4">
        <legend className="mb-1 text-sm font-medium text-slate-800">Wait</legend>
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input
            type="radio"
            name={name}
            className="h-4 w-4 accent-blue-700"
            checked={!byClock}
            onChange={() => onChange({ key: step.key, type: 'wait', amount: step.amount ?? 1, unit: step.unit ?? 'days' })}
          />
          For a while
        </label>
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input
            type="radio"
            name={name}
            className="h-4 w-4 accent-blue-700"
            checked={byClock}
            onChange={() => onChange({ key: step.key, type: 'wait', untilTime: step.untilTime ?? '09:00' })}
          />
          Until a time of day (the candidate’s own clock)
        </label>
      </fieldset>
      {byClock ? (
        <div className="flex flex-wrap items-start gap-3">
          <Field label="Local time" error={errorOf(problems, 'untilTime')} className="w-40">
            <Input
              id={fieldId(uid, 'untilTime')}
              type="time"
              value={step.untilTime ?? ''}
              onChange={(event) => onChange({ ...step, untilTime: event.target.value })}
            />
          </Field>
          <Field label="On" error={errorOf(problems, 'untilWeekday')} className="w-48">
            <Select
              id={fieldId(uid, 'untilWeekday')}
              value={step.untilWeekday ?? ''}
              onChange={(event) => onChange({ ...step, untilWeekday: (event.target.value || undefined) as Weekday | undefined })}
            >
              <option value="">The next day it comes</option>
              {WEEKDAY_LIST.map((day) => (
                <option key={day} value={day}>
                  {WEEKDAY_LABELS[day]}
                </option>
              ))}
            </Select>
          </Field>
        </div>
      ) : (
        <div className="flex flex-wrap items-start gap-3">
          <Field label="Amount" error={errorOf(problems, 'amount')} className="w-28">
            <Input
              id={fieldId(uid, 'amount')}
              type="number"
              min={1}
              max={365}
              inputMode="numeric"
              value={step.amount ?? ''}
              onChange={(event) => onChange({ ...step, amount: event.target.value === '' ? undefined : Number(event.target.value) })}
            />
          </Field>
          <Field label="Unit" error={errorOf(problems, 'unit')} className="w-36">
            <Select
              id={fieldId(uid, 'unit')}
              value={step.unit ?? ''}
              onChange={(event) => onChange({ ...step, unit: (event.target.value || undefined) as WaitUnit | undefined })}
            >
              {WAIT_UNITS.map((unit) => (
                <option key={unit} value={unit}>
                  {WAIT_UNIT_LABELS[unit]}
                </option>
              ))}
            </Select>
          </Field>
        </div>
      )}
    </div>
  );
}

function BranchFields({
  uid,
  step,
  index,
  steps,
  problems,
  onChange,
}: {
  uid: string;
  step: Extract<SequenceStep, { type: 'branch' }>;
  index: number;
  steps: readonly SequenceStep[];
  problems: Problems;
  onChange: (next: SequenceStep) => void;
}) {
  const later = steps.map((item, i) => ({ item, i })).filter(({ i }) => i > index);
  const targetSelect = (field: 'ifTrue' | 'ifFalse', label: string) => {
    const value = step[field];
    const known = value === 'next' || value === 'end' || later.some(({ item }) => item.key === value);
    return (
      <Field label={label} error={errorOf(problems, field)} className="min-w-56 flex-1">
        <Select id={fieldId(uid, field)} value={value} onChange={(event) => onChange({ ...step, [field]: event.target.value })}>
          <option value="next">Go on to the next step</option>
          <option value="end">End the sequence</option>
          {later.map(({ item, i }) => (
            <option key={`${i}-${item.key}`} value={item.key}>
              Go to step {i + 1}: {STEP_TYPE_LABELS[item.type]} ({item.key})
            </option>
          ))}
          {!known && <option value={value}>{value} (not a later step)</option>}
        </Select>
      </Field>
    );
  };
  return (
    <div className="grid gap-3">
      <Field label="Condition: since the candidate entered the sequence" error={errorOf(problems, 'condition')} className="max-w-md">
        <Select
          id={fieldId(uid, 'condition')}
          value={step.condition}
          onChange={(event) => onChange({ ...step, condition: event.target.value as typeof step.condition })}
        >
          {BRANCH_CONDITIONS_LIST.map((condition) => (
            <option key={condition} value={condition}>
              {BRANCH_CONDITION_LABELS[condition]}
            </option>
          ))}
        </Select>
      </Field>
      <div className="flex flex-wrap gap-3">
        {targetSelect('ifTrue', 'If it did')}
        {targetSelect('ifFalse', 'If it did not')}
      </div>
    </div>
  );
}
