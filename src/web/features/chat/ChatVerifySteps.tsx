import type { ReactNode } from 'react';
import { VerifyChatSchema } from '../../../contract/chat';
import { Button, Input } from '../../components/ui';
import { maxLengthOf } from '../../lib/limits';
import type { PublicChat } from './usePublicChat';

/** The longest phone number the verification accepts (src/contract/chat.ts). */
const PHONE_MAX = maxLengthOf(VerifyChatSchema.shape.phone);

/**
 * What a real phone would have received, while the SMS simulator stands in for a provider (issue 32): labelled
 * as a simulation so nobody takes it for a real text, and never shown with a real provider (the server sends it
 * only then).
 */
function SimulatedText({ title, note, body }: { title: string; note: string; body: string }) {
  return (
    <section
      aria-label={title}
      data-testid="simulated-text"
      className="rounded-md border border-dashed border-amber-400 bg-amber-50 p-3 text-sm text-slate-800"
    >
      <p className="font-medium">{title}</p>
      <p className="text-slate-700">{note}</p>
      <p className="mt-1 break-words font-medium">{body}</p>
    </section>
  );
}

/**
 * One step of the phone verification (the number, then the code): a labelled field with its submit button, and
 * the error in place of the hint once there is one.
 */
function VerifyStep({
  field,
  label,
  hint,
  submit,
  error,
  busy,
  onSubmit,
  input,
  children,
}: {
  field: 'phone' | 'code';
  label: string;
  hint: string;
  submit: string;
  error: string | null;
  busy: boolean;
  onSubmit: () => void;
  input: (aria: { id: string; 'aria-invalid': true | undefined; 'aria-describedby': string }) => ReactNode;
  children?: ReactNode;
}) {
  const id = `chat-${field}`;
  return (
    <form
      className="grid gap-1.5"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="flex gap-2">
        {input({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? 'chat-verify-error' : `${id}-hint` })}
        <Button type="submit" size="lg" disabled={busy}>
          {submit}
        </Button>
      </div>
      {error ? (
        <p id="chat-verify-error" role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="text-xs text-slate-700">
          {hint}
        </p>
      )}
      {children}
    </form>
  );
}

/** The verification's first step: the visitor's phone number, to send a code to. */
export function PhoneStep({ chat }: { chat: PublicChat }) {
  const { texts, verifyError, busy, phone, setPhone, verify } = chat;
  return (
    <VerifyStep
      field="phone"
      label={texts.phoneLabel}
      hint={texts.phoneHint}
      submit={texts.sendCode}
      error={verifyError}
      busy={busy}
      onSubmit={() => void verify({ phone })}
      input={(aria) => (
        <Input
          {...aria}
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          autoFocus
          maxLength={PHONE_MAX}
          value={phone}
          placeholder="+1 212 555 0123"
          onChange={(event) => setPhone(event.target.value)}
          className="h-11 text-base"
        />
      )}
    />
  );
}

/** The verification's second step: the six-digit code, with the simulated text and a way back to another number. */
export function CodeStep({ chat }: { chat: PublicChat }) {
  const { texts, verifyError, setVerifyError, busy, code, setCode, setChangingPhone, verify } = chat;
  return (
    <VerifyStep
      field="code"
      label={texts.codeLabel}
      hint={texts.codeHint}
      submit={texts.confirm}
      error={verifyError}
      busy={busy}
      onSubmit={() => void verify({ code })}
      input={(aria) => (
        <Input
          {...aria}
          inputMode="numeric"
          autoComplete="one-time-code"
          autoFocus
          maxLength={6}
          pattern="[0-9]*"
          value={code}
          onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 6))}
          className="h-11 font-mono text-base tracking-[0.3em]"
        />
      )}
    >
      {chat.simulatedText && <SimulatedText title={texts.simulatedTextTitle} note={texts.simulatedTextNote} body={chat.simulatedText} />}
      <div>
        <Button
          variant="link"
          size="sm"
          onClick={() => {
            setChangingPhone(true);
            setVerifyError(null);
          }}
        >
          {texts.otherNumber}
        </Button>
      </div>
    </VerifyStep>
  );
}
