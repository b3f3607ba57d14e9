import { Link } from '@tanstack/react-router';
import { useId, useState } from 'react';
import type { NextQuestionsResult } from '../../../contract/matching';
import { FormError } from '../../components/FormError';
import { Button, Label, Select } from '../../components/ui';
import { errorMessage } from '../../lib/utils';
import { usePrescreenFormsQuery } from '../prescreen-forms/queries';
import { useNextQuestionsForm } from './queries';

/** The form "Make prescreen questions" fills when staff do not choose a draft (NEXT_QUESTIONS_FORM_NAME on the server). */
const NEXT_QUESTIONS_FORM = 'Questions to ask next (from the trial matcher)';

/**
 * One click turns the unknown criteria into prescreen questions (issue 32): staff see where they go before they
 * go there: a new form (or the "questions to ask next" form's questions replaced), or added to a draft they choose.
 */
export function NextQuestions({ trialId, criterionIds }: { trialId: string; criterionIds: string[] }) {
  const make = useNextQuestionsForm(trialId);
  const forms = usePrescreenFormsQuery({ trialId });
  const [choosing, setChoosing] = useState(false);
  const [target, setTarget] = useState<'new' | 'draft'>('new');
  const [draftId, setDraftId] = useState('');
  const ids = { new: useId(), draft: useId(), select: useId() };
  const drafts = (forms.data?.prescreenForms ?? []).filter((form) => form.status === 'draft' && form.name !== NEXT_QUESTIONS_FORM);
  const nextForm = (forms.data?.prescreenForms ?? []).find((form) => form.name === NEXT_QUESTIONS_FORM);
  const chosenDraft = target === 'draft' ? draftId || drafts[0]?.id : undefined;

  if (!choosing)
    return (
      <div className="grid gap-2">
        <div>
          <Button variant="secondary" size="sm" onClick={() => setChoosing(true)}>
            Make prescreen questions for these
          </Button>
        </div>
        {make.data && <Made result={make.data} />}
      </div>
    );

  return (
    <fieldset className="grid gap-3 rounded-md border border-slate-200 bg-slate-50 p-3">
      <legend className="px-1 text-sm font-medium text-slate-900">Where should the questions go?</legend>
      <label htmlFor={ids.new} className="flex items-start gap-2 text-sm text-slate-900">
        <input id={ids.new} type="radio" className="mt-0.5 h-4 w-4 accent-blue-700" checked={target === 'new'} onChange={() => setTarget('new')} />
        {nextForm ? (
          <span>
            Replace the questions of the draft form “{NEXT_QUESTIONS_FORM}” <span className="text-slate-700">(made by an earlier click)</span>
          </span>
        ) : (
          <span>A new draft form, “{NEXT_QUESTIONS_FORM}”</span>
        )}
      </label>
      <label htmlFor={ids.draft} className="flex items-start gap-2 text-sm text-slate-900">
        <input
          id={ids.draft}
          type="radio"
          className="mt-0.5 h-4 w-4 accent-blue-700"
          checked={target === 'draft'}
          disabled={drafts.length === 0}
          onChange={() => setTarget('draft')}
        />
        <span>{drafts.length ? 'Add them to a draft form of this trial' : 'Add them to a draft form (this trial has no other draft)'}</span>
      </label>
      {target === 'draft' && drafts.length > 0 && (
        <div className="grid max-w-md gap-1 pl-6">
          <Label htmlFor={ids.select}>Draft form</Label>
          <Select id={ids.select} value={chosenDraft} onChange={(event) => setDraftId(event.target.value)}>
            {drafts.map((form) => (
              <option key={form.id} value={form.id}>
                {form.name} ({form.questionCount} {form.questionCount === 1 ? 'question' : 'questions'})
              </option>
            ))}
          </Select>
        </div>
      )}
      <FormError>{make.isError ? errorMessage(make.error) : null}</FormError>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" disabled={make.isPending} onClick={() => make.mutate({ criterionIds, formId: chosenDraft }, { onSuccess: () => setChoosing(false) })}>
          {make.isPending ? 'Writing questions…' : 'Make the questions'}
        </Button>
        <Button variant="secondary" size="sm" onClick={() => setChoosing(false)}>
          Cancel
        </Button>
      </div>
    </fieldset>
  );
}

function Made({ result }: { result: NextQuestionsResult }) {
  const count = `${result.questionCount} ${result.questionCount === 1 ? 'question' : 'questions'}`;
  const said = {
    created: `Created a new draft form “${result.formName}” with ${count}.`,
    replaced: `Replaced the questions of the draft form “${result.formName}”: ${count}.`,
    added: result.questionCount ? `Added ${count} to the draft form “${result.formName}”.` : `The draft form “${result.formName}” already asks all of these.`,
  }[result.outcome];
  return (
    <p role="status" className="text-sm text-slate-800">
      {said}{' '}
      <Link to="/admin/prescreen-forms/$formId" params={{ formId: result.formId }} className="font-medium text-blue-800 underline underline-offset-4">
        Review and publish the form
      </Link>
    </p>
  );
}
