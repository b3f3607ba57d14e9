import { normalizePhone } from '../../../contract/candidates';
import type { Transaction } from '../../db/scoped';
import { CALLBACK_TOOLS, type CallbackToolName } from '../../integrations/voice/port';
import { findCandidate, findCandidateByPhone, type CandidateRow } from '../candidates/service';
import { zoneOrDefault } from '../../calling-hours';
import { localTimeToUtc } from '../../../contract/time-zones';
import { whenInWords } from '../../../contract/when-words';
import { findOpenCallback } from './queries';
import { callbackRefusal, closeCallback, openCallback } from './service';
import type { call } from '../../db/schema';

/** A call as callbacks read it (the row `calls` writes). */
type CallRow = typeof call.$inferSelect;

/**
 * The voice agent's callback tools (schedule-callback, scheduled-callback), by candidatePhoneNumber or the
 * call's candidate. Over HTTP: POST schedules (or moves), GET reads, DELETE cancels. In a Vapi tool-calls
 * message there is no method: schedule-callback schedules, scheduled-callback reads (or cancels with
 * { action: "cancel" }). Answers are sentences the agent may read out.
 */

export const isCallbackTool = (name: string): name is CallbackToolName => (CALLBACK_TOOLS as readonly string[]).includes(name);
export type CallbackToolAction = 'schedule' | 'read' | 'cancel';

/** A callback tool could not do what was asked: answered to the agent, never a 500. */
export class CallbackToolError extends Error {}

const VOICE_AGENT = { userId: null, label: 'Voice agent' };
const text = (value: unknown) => (typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '');

export function toolAction(name: CallbackToolName, method: string, args: Record<string, unknown>): CallbackToolAction {
  if (method === 'GET') return 'read';
  if (method === 'DELETE') return 'cancel';
  if (name === 'scheduled-callback' && method === 'TOOL') return /^(cancel|delete|remove)$/i.test(text(args.action)) ? 'cancel' : 'read';
  return 'schedule';
}

/** The time asked for: an ISO instant (at, dateTime, callbackTime, time), a local YYYY-MM-DDTHH:mm in the candidate's zone, or inMinutes. */
export function requestedTime(args: Record<string, unknown>, timeZone: string | null, now: Date): Date {
  const minutes = Number(args.inMinutes ?? args.minutesFromNow);
  if (Number.isFinite(minutes) && minutes >= 0 && text(args.inMinutes ?? args.minutesFromNow)) return new Date(now.getTime() + minutes * 60_000);
  const raw = text(args.at ?? args.dateTime ?? args.callbackTime ?? args.time ?? args.localTime);
  if (!raw) throw new CallbackToolError("Give the time: at (ISO 8601 with a zone), localTime (YYYY-MM-DDTHH:mm in the candidate's time zone) or inMinutes");
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(raw)) {
    const converted = localTimeToUtc(raw, zoneOrDefault(timeZone));
    if (!converted.ok) throw new CallbackToolError(converted.message);
    return converted.instant;
  }
  const parsed = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.test(raw) ? new Date(raw) : new Date(Number.NaN);
  if (Number.isNaN(parsed.getTime()))
    throw new CallbackToolError(`Cannot read the time "${raw.slice(0, 40)}": use ISO 8601 with a zone, e.g. 2026-11-23T15:00:00-05:00`);
  if (parsed.getTime() < now.getTime() - 60_000) throw new CallbackToolError('That time is in the past');
  return parsed.getTime() < now.getTime() ? now : parsed;
}

/** The candidate the tool is about: candidatePhoneNumber in the organization, else the call's candidate. */
export async function toolCandidate(tx: Transaction, organizationId: string, args: Record<string, unknown>, call: CallRow | undefined): Promise<CandidateRow> {
  const rawPhone = text(args.candidatePhoneNumber ?? args.phoneNumber);
  if (rawPhone) {
    const phone = normalizePhone(rawPhone);
    const found = phone ? await findCandidateByPhone(tx, organizationId, phone) : undefined;
    if (!found) throw new CallbackToolError('No candidate with that phone number');
    return (await findCandidate(tx, found.id, true))!;
  }
  const found = call?.candidateId ? await findCandidate(tx, call.candidateId, true) : undefined;
  if (!found) throw new CallbackToolError('candidatePhoneNumber is required');
  return found;
}

/** What the agent says aloud (issue 32): "Thursday 3 December at 10:30 am (Sydney time)", never an ISO time or zone id. */
const describe = (at: Date, timeZone: string | null) => whenInWords(at, zoneOrDefault(timeZone), 'en');

/** Runs one callback tool in `tx` (row security for `organizationId`). */
export async function runCallbackTool(
  tx: Transaction,
  action: CallbackToolAction,
  organizationId: string,
  args: Record<string, unknown>,
  call: CallRow | undefined,
  now = new Date(),
): Promise<string> {
  const person = await toolCandidate(tx, organizationId, args, call);
  if (action === 'read') {
    const open = await findOpenCallback(tx, person.id);
    return open ? `A callback is scheduled for ${describe(open.scheduledFor, person.timeZone)}.` : 'No callback is scheduled.';
  }
  if (action === 'cancel') {
    const open = await findOpenCallback(tx, person.id, true);
    if (!open) return 'No callback was scheduled.';
    if (open.status === 'calling') throw new CallbackToolError('The callback call is in progress');
    await closeCallback(tx, open, 'cancelled', { actor: VOICE_AGENT, summary: 'Callback cancelled by the voice agent' });
    return 'The callback was cancelled.';
  }
  const type = call?.type ?? 'PRESCREEN';
  const refusal = callbackRefusal(person, type);
  if (refusal) throw new CallbackToolError(`Cannot schedule a callback: ${refusal}`);
  const requestedFor = requestedTime(args, person.timeZone, now);
  const note = text(args.note ?? args.reason).slice(0, 500) || null;
  const { row, moved } = await openCallback(tx, { candidate: person, type, reason: 'requested', requestedFor, actor: VOICE_AGENT, note });
  return `Callback scheduled for ${describe(row.scheduledFor, person.timeZone)}${moved ? ' (moved into calling hours, 8 AM to 9 PM)' : ''}.`;
}
