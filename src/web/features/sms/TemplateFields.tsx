import { Field, Input, Select } from '../../components/ui';
import { SMS_VARIABLE_MAX_LENGTH, type SmsTemplateKey } from '../../../contract/sms';
import { VARIABLE_HINTS, VARIABLE_LABELS } from './format';
import { serverReason, type SmsThreadDetail } from './queries';
import { SegmentCount } from './SegmentCount';
import type { TemplateDraft } from './useTemplateDraft';

interface TemplateFieldsProps {
  draft: TemplateDraft;
  thread: SmsThreadDetail;
  ids: { count: string; trials: string };
  /** A new template was chosen: an earlier refusal no longer applies. */
  onChange: () => void;
}

/** The composer's template mode: the template, the variables it asks for, and a preview of the message as sent. */
export function TemplateFields({ draft, thread: { candidate, consent }, ids, onChange }: TemplateFieldsProps) {
  return (
    <div className="grid gap-3">
      <Field label="Template" hint={draft.templatesQuery.isError ? `Could not load the templates: ${serverReason(draft.templatesQuery.error)}` : undefined}>
        <Select
          value={draft.templateKey}
          onChange={(event) => {
            draft.setTemplateKey(event.target.value as SmsTemplateKey | '');
            onChange();
          }}
          disabled={draft.templatesQuery.isPending || draft.templatesQuery.isError}
        >
          <option value="">{draft.templatesQuery.isPending ? 'Loading templates…' : 'Choose a template'}</option>
          {draft.templates.map((item) => (
            <option key={item.key} value={item.key}>
              {item.label}
              {item.purpose === 'marketing' ? ' (marketing)' : ''}
            </option>
          ))}
        </Select>
      </Field>
      {draft.template && (
        <>
          {draft.template.purpose === 'marketing' && (
            <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-950">
              A marketing message: it goes only to candidates who consented to SMS, between 8:00 and 21:00 their time.
              {!consent.consentSms && ' This candidate has not consented to SMS, so it will be refused.'}
            </p>
          )}
          <p className="text-xs text-slate-700">
            Filled in for you: first name ({candidate.firstName || '—'})
            {draft.template.variables.includes('organizationName') ? `, organization (${draft.organizationName || 'yours'})` : ''}. Sent in{' '}
            {draft.language === 'es' ? 'Spanish' : 'English'}, the candidate’s language.
          </p>
          {draft.asked.length > 0 && (
            <div className="grid items-start gap-3 sm:grid-cols-2">
              {draft.asked.map((name) => (
                <Field key={name} label={VARIABLE_LABELS[name]} hint={VARIABLE_HINTS[name]}>
                  <Input
                    value={draft.variables[name] ?? ''}
                    maxLength={SMS_VARIABLE_MAX_LENGTH}
                    required
                    list={name === 'trialTitle' && draft.trialTitles.length > 0 ? ids.trials : undefined}
                    onChange={(event) => draft.setVariables((current) => ({ ...current, [name]: event.target.value }))}
                  />
                </Field>
              ))}
              {draft.trialTitles.length > 0 && (
                <datalist id={ids.trials}>
                  {draft.trialTitles.map((title) => (
                    <option key={title} value={title} />
                  ))}
                </datalist>
              )}
            </div>
          )}
          <div className="grid gap-1.5">
            <p className="text-sm font-medium text-slate-800">Preview</p>
            <p className="whitespace-pre-wrap rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-900" data-testid="sms-preview">
              {draft.preview}
            </p>
            <SegmentCount id={ids.count} text={draft.preview} />
            {draft.missing.length > 0 && (
              <p className="text-xs text-slate-700">Still to fill: {draft.missing.map((name) => VARIABLE_LABELS[name]).join(', ')}.</p>
            )}
          </div>
        </>
      )}
    </div>
  );
}
