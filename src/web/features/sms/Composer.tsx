import { Send } from 'lucide-react';
import { useId, useMemo, useRef, useState } from 'react';
import { toast } from 'sonner';
import { SMS_MAX_BODY_LENGTH, SMS_VARIABLE_MAX_LENGTH, type SmsTemplateKey, type SmsTemplateVariable } from '../../../contract/sms';
import { Field, Input, Label, Select, SubmitButton } from '../../components/ui';
import { FormError } from '../../components/FormError';
import { useActiveOrganization } from '../../lib/active-organization';
import { cn } from '../../lib/utils';
import { useTrialsQuery } from '../trials/queries';
import { blockReasonText, renderPreview, smsSegments, templateLanguage, VARIABLE_HINTS, VARIABLE_LABELS } from './format';
import { serverReason, useSendSms, useSmsTemplatesQuery, type SmsThreadDetail } from './queries';

const textareaClass =
  'flex min-h-24 w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:cursor-not-allowed disabled:bg-slate-100 aria-[invalid=true]:border-red-700';

/** Filled from the thread (the server fills them the same way); the others are asked for. */
const AUTOMATIC: SmsTemplateVariable[] = ['firstName', 'organizationName'];

function SegmentCount({ id, text }: { id: string; text: string }) {
  const count = smsSegments(text);
  const over = text.length > SMS_MAX_BODY_LENGTH;
  return (
    <p id={id} className={cn('text-xs', over ? 'font-medium text-red-800' : 'text-slate-700')} data-testid="sms-count">
      {text.length} / {SMS_MAX_BODY_LENGTH} characters · {count.segments === 1 ? '1 SMS segment' : `${count.segments} SMS segments`}
      {count.encoding === 'Unicode' && text ? ' (special characters: 70 per segment)' : ''}
    </p>
  );
}

/** Free text or a template with its variables, sent to one candidate; a refusal shows the server's reason. */
export function Composer({ thread }: { thread: SmsThreadDetail }) {
  const { candidate, consent } = thread;
  const ids = { body: useId(), count: useId(), reason: useId(), trials: useId() };
  const [mode, setMode] = useState<'text' | 'template'>('text');
  const [body, setBody] = useState('');
  const [templateKey, setTemplateKey] = useState<SmsTemplateKey | ''>('');
  const [variables, setVariables] = useState<Partial<Record<SmsTemplateVariable, string>>>({});
  const textarea = useRef<HTMLTextAreaElement>(null);
  const send = useSendSms();
  const templatesQuery = useSmsTemplatesQuery();
  const { organizations, activeOrganization } = useActiveOrganization();
  const trialsQuery = useTrialsQuery();
  const trialTitles = useMemo(
    () => [
      ...new Set(
        (trialsQuery.data?.trials ?? []).filter((trial) => trial.organizationId === candidate.organizationId).map((trial) => trial.publicTitle || trial.title),
      ),
    ],
    [trialsQuery.data, candidate.organizationId],
  );
  const organizationName =
    organizations.find((org) => org.id === candidate.organizationId)?.name ??
    (activeOrganization?.id === candidate.organizationId ? activeOrganization.name : '');

  const templates = templatesQuery.data?.templates ?? [];
  const template = templates.find((item) => item.key === templateKey);
  const language = templateLanguage(candidate.preferredLanguage);
  const asked = template ? template.variables.filter((name) => !AUTOMATIC.includes(name)) : [];
  const filled: Record<string, string | undefined> = { firstName: candidate.firstName, organizationName, ...variables };
  const preview = template ? renderPreview(template.text[language], filled) : '';
  const missing = asked.filter((name) => !variables[name]?.trim());

  const blocked = !consent.canSend;
  const ready = mode === 'text' ? body.trim().length > 0 && body.length <= SMS_MAX_BODY_LENGTH : Boolean(template) && missing.length === 0;

  const submit = () => {
    if (blocked || !ready || send.isPending) return;
    const input =
      mode === 'text'
        ? { candidateId: candidate.id, body: body.trim() }
        : {
            candidateId: candidate.id,
            templateKey: templateKey as SmsTemplateKey,
            variables: Object.fromEntries(asked.map((name) => [name, variables[name]!.trim()])),
          };
    send.mutate(input, {
      onSuccess: (message) => {
        toast.success(message.status === 'failed' || message.status === 'undelivered' ? 'The provider did not accept the message' : 'Message sent');
        if (mode === 'text') setBody('');
        else setVariables({});
        textarea.current?.focus();
      },
    });
  };

  return (
    <section aria-labelledby="sms-composer-heading" className="grid gap-3 border-t border-slate-200 pt-4">
      <h3 id="sms-composer-heading" className="text-sm font-semibold text-slate-900">
        New message
      </h3>
      {blocked && (
        <FormError announce={false} id={ids.reason} data-testid="composer-disabled-reason">
          Sending is turned off: {blockReasonText(consent.blockReason)}
        </FormError>
      )}
      <form
        className="grid gap-3"
        aria-describedby={blocked ? ids.reason : undefined}
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <fieldset disabled={blocked} className="grid gap-3 disabled:opacity-80">
          <fieldset className="flex flex-wrap items-center gap-4">
            <legend className="sr-only">Message type</legend>
            {(
              [
                ['text', 'Free text'],
                ['template', 'From a template'],
              ] as const
            ).map(([value, label]) => (
              <label key={value} className="inline-flex cursor-pointer items-center gap-2 text-sm text-slate-800">
                <input
                  type="radio"
                  name={`${ids.body}-mode`}
                  value={value}
                  checked={mode === value}
                  onChange={() => {
                    setMode(value);
                    send.reset();
                  }}
                  className="h-4 w-4 accent-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
                />
                {label}
              </label>
            ))}
          </fieldset>

          {mode === 'text' ? (
            <div className="grid gap-1.5">
              <Label htmlFor={ids.body}>Message</Label>
              <textarea
                id={ids.body}
                ref={textarea}
                className={textareaClass}
                rows={3}
                value={body}
                maxLength={SMS_MAX_BODY_LENGTH}
                aria-describedby={ids.count}
                placeholder={`Write to ${candidate.firstName || 'the candidate'}…`}
                onChange={(event) => setBody(event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
                    event.preventDefault();
                    submit();
                  }
                }}
              />
              <SegmentCount id={ids.count} text={body} />
            </div>
          ) : (
            <div className="grid gap-3">
              <Field label="Template" hint={templatesQuery.isError ? `Could not load the templates: ${serverReason(templatesQuery.error)}` : undefined}>
                <Select
                  value={templateKey}
                  onChange={(event) => {
                    setTemplateKey(event.target.value as SmsTemplateKey | '');
                    send.reset();
                  }}
                  disabled={templatesQuery.isPending || templatesQuery.isError}
                >
                  <option value="">{templatesQuery.isPending ? 'Loading templates…' : 'Choose a template'}</option>
                  {templates.map((item) => (
                    <option key={item.key} value={item.key}>
                      {item.label}
                      {item.purpose === 'marketing' ? ' (marketing)' : ''}
                    </option>
                  ))}
                </Select>
              </Field>
              {template && (
                <>
                  {template.purpose === 'marketing' && (
                    <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-950">
                      A marketing message: it goes only to candidates who consented to SMS, between 8:00 and 21:00 their time.
                      {!consent.consentSms && ' This candidate has not consented to SMS, so it will be refused.'}
                    </p>
                  )}
                  <p className="text-xs text-slate-700">
                    Filled in for you: first name ({candidate.firstName || '—'})
                    {template.variables.includes('organizationName') ? `, organization (${organizationName || 'yours'})` : ''}. Sent in{' '}
                    {language === 'es' ? 'Spanish' : 'English'}, the candidate’s language.
                  </p>
                  {asked.length > 0 && (
                    <div className="grid items-start gap-3 sm:grid-cols-2">
                      {asked.map((name) => (
                        <Field key={name} label={VARIABLE_LABELS[name]} hint={VARIABLE_HINTS[name]}>
                          <Input
                            value={variables[name] ?? ''}
                            maxLength={SMS_VARIABLE_MAX_LENGTH}
                            required
                            list={name === 'trialTitle' && trialTitles.length > 0 ? ids.trials : undefined}
                            onChange={(event) => setVariables((current) => ({ ...current, [name]: event.target.value }))}
                          />
                        </Field>
                      ))}
                      {trialTitles.length > 0 && (
                        <datalist id={ids.trials}>
                          {trialTitles.map((title) => (
                            <option key={title} value={title} />
                          ))}
                        </datalist>
                      )}
                    </div>
                  )}
                  <div className="grid gap-1.5">
                    <p className="text-sm font-medium text-slate-800">Preview</p>
                    <p
                      className="whitespace-pre-wrap rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-900"
                      data-testid="sms-preview"
                    >
                      {preview}
                    </p>
                    <SegmentCount id={ids.count} text={preview} />
                    {missing.length > 0 && <p className="text-xs text-slate-700">Still to fill: {missing.map((name) => VARIABLE_LABELS[name]).join(', ')}.</p>}
                  </div>
                </>
              )}
            </div>
          )}

          {send.isError && <FormError data-testid="send-error">{serverReason(send.error)}</FormError>}
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-xs text-slate-700">{mode === 'text' && !blocked ? 'Ctrl+Enter sends.' : ''}</p>
            <SubmitButton pending={send.isPending} pendingLabel="Sending…" disabled={blocked || !ready} icon={<Send aria-hidden="true" className="h-4 w-4" />}>
              Send
            </SubmitButton>
          </div>
        </fieldset>
      </form>
    </section>
  );
}
