import type { Language, Question } from '../../../contract/prescreen-forms';
import { Badge, FieldError, Input, Label } from '../../components/ui';
import { say } from '../prescreen-forms/format';
import type { AnswerDraft } from './answer-draft';

const textareaClass =
  'flex min-h-20 w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 aria-[invalid=true]:border-red-700';

/** One question in the language chosen, with its answer field (choices, yes/no, a number, text) and its error. */
export function QuestionInput({
  question,
  language,
  value,
  error,
  onChange,
  fromRecord,
}: {
  question: Question;
  language: Language;
  value: AnswerDraft | undefined;
  error?: string;
  onChange: (next: AnswerDraft) => void;
  fromRecord?: string;
}) {
  const id = `answer-${question.id}`;
  const label = say(question.wording.chat, language);
  const recordNote = fromRecord && (
    <p className="text-xs text-slate-700" data-testid={`from-record-${question.id}`}>
      <Badge tone="blue">From the record</Badge> <span className="ml-1">({fromRecord}; change it if the candidate says otherwise)</span>
    </p>
  );
  const errorId = `${id}-error`;
  const described = error ? { 'aria-describedby': errorId, 'aria-invalid': true as const } : {};
  const optional = !question.required && <span className="ml-1 font-normal text-slate-700">(optional)</span>;
  const errorText = <FieldError id={errorId}>{error}</FieldError>;
  const yesNo = question.type === 'yes_no';
  if (yesNo || question.type === 'single_choice' || question.type === 'multiple_choice') {
    const options = yesNo
      ? [
          { value: 'yes', label: language === 'es' ? 'Sí' : 'Yes' },
          { value: 'no', label: 'No' },
        ]
      : (question.options ?? []).map((option) => ({ value: option.value, label: say(option.label, language) }));
    const multiple = question.type === 'multiple_choice';
    const selected = Array.isArray(value) ? value : [];
    return (
      <fieldset className="grid gap-2" {...described} data-question={question.id}>
        <legend className="mb-1 text-sm font-medium text-slate-900">
          {label}
          {optional}
        </legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {options.map((option) => (
            <label key={option.value} className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type={multiple ? 'checkbox' : 'radio'}
                name={id}
                className="h-4 w-4 accent-blue-700"
                checked={multiple ? selected.includes(option.value) : value === option.value}
                onChange={(event) =>
                  onChange(multiple ? (event.target.checked ? [...selected, option.value] : selected.filter((item) => item !== option.value)) : option.value)
                }
              />
              {option.label}
            </label>
          ))}
        </div>
        {recordNote}
        {errorText}
      </fieldset>
    );
  }
  return (
    <div className="grid gap-1.5" data-question={question.id}>
      <Label htmlFor={id}>
        {label}
        {optional}
      </Label>
      {question.type === 'text' ? (
        <textarea
          id={id}
          className={textareaClass}
          maxLength={5000}
          value={typeof value === 'string' ? value : ''}
          onChange={(event) => onChange(event.target.value)}
          {...described}
        />
      ) : (
        <div className="flex items-center gap-2">
          <Input
            id={id}
            className="max-w-xs"
            type={question.type === 'date' ? 'date' : 'text'}
            inputMode={question.type === 'number' ? 'decimal' : undefined}
            value={typeof value === 'string' ? value : ''}
            onChange={(event) => onChange(event.target.value)}
            {...described}
          />
          {question.unit && <span className="text-sm text-slate-700">{question.unit}</span>}
        </div>
      )}
      {recordNote}
      {errorText}
    </div>
  );
}
