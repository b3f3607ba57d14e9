import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { ScheduleCallbackSchema, type Callback } from '../../../contract/callbacks';
import { VOICE_AGENT_TYPES, type VoiceAgentType } from '../../../contract/voice';
import { Dialog, DialogFooter } from '../../components/dialogs';
import { Textarea } from '../../components/Textarea';
import { Field, Input, Select } from '../../components/ui';
import { FormError } from '../../components/FormError';
import { maxLengthOf } from '../../lib/limits';
import { AGENT_TYPE_LABELS } from '../voice/format';
import { formatInZone, instantToWallTime, knownTimeZone, tomorrowAt, viewerTimeZone, wallTimeToInstant, zoneLabel } from './format';
import { apiProblem } from '../../lib/form-errors';
import { isMoving, scheduleCallbackTitle, type ScheduleCallbackDialogProps } from './dialogs';
import { useScheduleCallback } from './queries';
import { useCallPreCheck } from '../voice/queries';

type ZoneChoice = 'candidate' | 'viewer';

interface FormState {
  type: VoiceAgentType;
  zone: ZoneChoice;
  when: string;
  note: string;
}

function initialState(candidateZone: string, callback: Callback | null | undefined, defaultType: VoiceAgentType): FormState {
  const open = callback && (callback.status === 'pending' || callback.status === 'calling') && new Date(callback.scheduledFor).getTime() > Date.now();
  const when = open ? instantToWallTime(new Date(callback.scheduledFor), candidateZone) : tomorrowAt(10, candidateZone);
  return { type: callback?.type ?? defaultType, zone: 'candidate', when, note: callback?.note ?? '' };
}

/** Every reason the server would refuse the callback, in its sentences (nothing when none). */
function BlockingReasons({ reasons }: { reasons: Array<{ reason: string; message: string }> }) {
  if (reasons.length === 0) return null;
  return (
    <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-slate-900" data-testid="callback-pre-check">
      <p className="font-medium">The callback cannot be scheduled yet:</p>
      <ul className="mt-1 list-disc pl-5">
        {reasons.map((item) => (
          <li key={item.reason}>{item.message}</li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Schedule a callback for a candidate, or move their open one (`callback`): a date and time on the candidate's
 * clocks (or the viewer's), the agent type and a note. The server moves a time outside calling hours into them.
 * The dialog's content, loaded when it opens and mounted on every opening (`ScheduleCallbackDialog` in
 * ./dialogs holds the trigger and the open state).
 */
export function ScheduleCallbackDialog({
  candidateId,
  candidateName,
  organizationId,
  timeZone,
  callback,
  defaultType = 'PRESCREEN',
  onOpenChange,
  onScheduled,
}: ScheduleCallbackDialogProps) {
  const candidateZone = knownTimeZone(timeZone);
  const ownZone = viewerTimeZone();
  const sameZone = candidateZone === ownZone;
  const setOpen = (next: boolean) => onOpenChange?.(next);
  const [state, setState] = useState<FormState>(() => initialState(candidateZone, callback, defaultType));
  const [errors, setErrors] = useState<{ when?: string; note?: string; type?: string; form?: string }>({});
  const schedule = useScheduleCallback();
  const moving = isMoving(callback);
  // What would refuse the callback, asked when the dialog opens and when the call type changes (the same rules
  // "Call now" shows; the calling hours are no reason here: the time moves into them).
  const preCheck = useCallPreCheck(candidateId, true, state.type);
  const blocking = (preCheck.data?.reasons ?? []).filter((item) => item.reason !== 'quiet_hours');

  const zoneOf = (choice: ZoneChoice) => (choice === 'candidate' ? candidateZone : ownZone);
  const chosenZone = zoneOf(state.zone);
  const otherZone = zoneOf(state.zone === 'candidate' ? 'viewer' : 'candidate');
  const instant = state.when ? wallTimeToInstant(state.when, chosenZone) : null;

  const changeZone = (next: ZoneChoice) => {
    // Keep the same moment: show it on the other clocks.
    const at = state.when ? wallTimeToInstant(state.when, chosenZone) : null;
    setState((previous) => ({ ...previous, zone: next, when: at ? instantToWallTime(at, zoneOf(next)) : previous.when }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const nextErrors: typeof errors = {};
    if (!state.when || !instant) nextErrors.when = 'Choose a date and time';
    else if (instant.getTime() <= Date.now()) nextErrors.when = 'Choose a time in the future';
    if (state.note.trim().length > 500) nextErrors.note = 'Note must be at most 500 characters';
    setErrors(nextErrors);
    if (Object.keys(nextErrors).length > 0 || !instant) return;
    try {
      const result = await schedule.mutateAsync({
        candidateId,
        ...(organizationId ? { organizationId } : {}),
        type: state.type,
        at: instant.toISOString(),
        ...(state.note.trim() ? { note: state.note.trim() } : {}),
      });
      const when = formatInZone(result.callback.scheduledFor, knownTimeZone(result.callback.timeZone));
      const what = result.rescheduled ? 'Callback moved' : 'Callback scheduled';
      toast.success(
        result.moved
          ? `${what}: moved into calling hours, ${when} (${zoneLabel(knownTimeZone(result.callback.timeZone))})`
          : `${what} for ${when} (${zoneLabel(knownTimeZone(result.callback.timeZone))})`,
      );
      onScheduled?.(result);
      setOpen(false);
    } catch (error) {
      const problem = apiProblem(error);
      const placed: typeof errors = {};
      const rest: string[] = [];
      const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
      for (const detail of problem.details.map((item) => ({ ...item, message: sentence(item.message) }))) {
        if (detail.path === 'at') placed.when = detail.message;
        else if (detail.path === 'note') placed.note = detail.message;
        else if (detail.path === 'type') placed.type = detail.message;
        else rest.push(detail.message);
      }
      if (problem.details.length === 0 || rest.length > 0) placed.form = problem.details.length === 0 ? problem.message : rest.join('; ');
      setErrors(placed);
    }
  };

  return (
    <Dialog
      title={scheduleCallbackTitle({ candidateName, callback })}
      description="The organization’s active voice agent for this call type calls at this time. A time outside the agent’s calling hours in the candidate’s time zone is moved to the next opening."
    >
      <form onSubmit={(event) => void submit(event)} noValidate className="grid gap-4">
        <Field label="Call type" error={errors.type}>
          <Select
            id="callback-type"
            value={state.type}
            onChange={(event) => setState((previous) => ({ ...previous, type: event.target.value as VoiceAgentType }))}
          >
            {VOICE_AGENT_TYPES.map((value) => (
              <option key={value} value={value}>
                {AGENT_TYPE_LABELS[value]}
              </option>
            ))}
          </Select>
        </Field>
        {!sameZone && (
          <Field label="Clock" hint="Which clock the date and time below are on.">
            <Select id="callback-zone" value={state.zone} onChange={(event) => changeZone(event.target.value as ZoneChoice)}>
              <option value="candidate">The candidate’s time ({zoneLabel(candidateZone)})</option>
              <option value="viewer">Your time ({zoneLabel(ownZone)})</option>
            </Select>
          </Field>
        )}
        <Field
          label="Call at"
          error={errors.when}
          hint={
            <>
              {sameZone
                ? `Your time and the candidate’s (${zoneLabel(candidateZone)})`
                : state.zone === 'candidate'
                  ? `The candidate’s time (${zoneLabel(candidateZone)})`
                  : `Your time (${zoneLabel(ownZone)})`}
              {timeZone ? '' : '; the candidate has no time zone, so the organization default is used'}
              {instant && !sameZone ? `. That is ${formatInZone(instant, otherZone)} ${state.zone === 'candidate' ? 'your time' : 'for the candidate'}.` : '.'}
            </>
          }
        >
          <Input
            id="callback-at"
            type="datetime-local"
            value={state.when}
            onChange={(event) => setState((previous) => ({ ...previous, when: event.target.value }))}
          />
        </Field>
        <Field label="Note (optional)" error={errors.note} hint="For the team; the candidate does not hear it.">
          <Textarea
            id="callback-note"
            rows={3}
            maxLength={maxLengthOf(ScheduleCallbackSchema.shape.note)}
            value={state.note}
            onChange={(event) => setState((previous) => ({ ...previous, note: event.target.value }))}
          />
        </Field>
        <BlockingReasons reasons={blocking} />
        <FormError>{errors.form}</FormError>
        <DialogFooter
          onCancel={() => setOpen(false)}
          submitLabel={moving ? 'Move callback' : 'Schedule callback'}
          pending={schedule.isPending}
          submitDisabled={blocking.length > 0 || preCheck.isPending}
        />
      </form>
    </Dialog>
  );
}
