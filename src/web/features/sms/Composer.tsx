import { Send } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { SMS_MAX_BODY_LENGTH, type SmsTemplateKey } from '../../../contract/sms';
import { Label, SubmitButton } from '../../components/ui';
import { FormError } from '../../components/FormError';
import { blockReasonText } from './format';
import { serverReason, useSendSms, type SmsThreadDetail } from './queries';
import { SegmentCount } from './SegmentCount';
import { TemplateFields } from './TemplateFields';
import { useTemplateDraft } from './useTemplateDraft';

const textareaClass =
  'flex min-h-24 w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:cursor-not-allowed disabled:bg-slate-100 aria-[invalid=true]:border-red-700';

/** Free text or a template with its variables, sent to one candidate; a refusal shows the server's reason. */
export function Composer({ thread }: { thread: SmsThreadDetail }) {
  const { candidate, consent } = thread;
  const ids = { body: useId(), count: useId(), reason: useId(), trials: useId() };
  const [mode, setMode] = useState<'text' | 'template'>('text');
  const [body, setBody] = useState('');
  const draft = useTemplateDraft(candidate);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const send = useSendSms();
  const { template, asked, variables, missing } = draft;

  const blocked = !consent.canSend;
  const ready = mode === 'text' ? body.trim().length > 0 && body.length <= SMS_MAX_BODY_LENGTH : Boolean(template) && missing.length === 0;

  const submit = () => {
    if (blocked || !ready || send.isPending) return;
    const input =
      mode === 'text'
        ? { candidateId: candidate.id, body: body.trim() }
        : {
            candidateId: candidate.id,
            templateKey: draft.templateKey as SmsTemplateKey,
            variables: Object.fromEntries(asked.map((name) => [name, variables[name]!.trim()])),
          };
    send.mutate(input, {
      onSuccess: (message) => {
        toast.success(message.status === 'failed' || message.status === 'undelivered' ? 'The provider did not accept the message' : 'Message sent');
        if (mode === 'text') setBody('');
        else draft.setVariables({});
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
            <TemplateFields draft={draft} thread={thread} ids={ids} onChange={() => send.reset()} />
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
