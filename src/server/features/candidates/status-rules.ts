import type { ActivitySource } from '../../../contract/activity';
import { statusChangeSummary } from '../../../contract/words';
import { type CandidateStatus, type UpdateCandidateInput, DEFAULT_DO_NOT_CONTACT_REASON } from '../../../contract/candidates';
import { deriveTimeZone, type ZoneHints } from '../../../contract/zone-derivation';
import type { Transaction } from '../../db/scoped';
import { badRequest } from '../../http/errors';
import { recordAudit, type Actor } from '../../audit';
import { funnelSignals } from '../../funnel-signals';
import { insertContactEvents, updateCandidateRow, type CandidateRow, type NewCandidateRow, type NewContactEvent } from './queries';

// ---- status and consent rules ----

/**
 * The status and do-not-contact flag after a change, kept consistent: status `do_not_contact` if and only if
 * the flag is set. Turning the flag off moves a do-not-contact candidate back to `new`.
 */
export function resolveStatusAndFlag(
  current: { status: CandidateStatus; doNotContact: boolean },
  input: { status?: CandidateStatus; doNotContact?: boolean },
): { status: CandidateStatus; doNotContact: boolean } {
  if (input.status !== undefined && input.doNotContact !== undefined && (input.status === 'do_not_contact') !== input.doNotContact) {
    throw badRequest('status: status do_not_contact and consent.doNotContact must agree', [{ path: 'status', message: 'Contradicts consent.doNotContact' }]);
  }
  if (input.status !== undefined) return { status: input.status, doNotContact: input.status === 'do_not_contact' };
  if (input.doNotContact !== undefined) {
    if (input.doNotContact) return { status: 'do_not_contact', doNotContact: true };
    return { status: current.status === 'do_not_contact' ? 'new' : current.status, doNotContact: false };
  }
  return { status: current.status, doNotContact: current.doNotContact };
}

/** The source kept with consent staff turn on without saying where it was given. */
export const DEFAULT_CONSENT_SOURCE = 'Recorded by staff';

/** A consent date (YYYY-MM-DD: noon UTC of that day, so it reads as that day everywhere) or now. */
export function consentInstant(date: string | undefined): Date {
  if (!date) return new Date();
  return new Date(date.length === 10 ? `${date}T12:00:00.000Z` : date);
}

/**
 * The time zone to store: the one given, else one derived from the address or phone (create, update). On
 * update a derived zone follows the address/phone when they change; a zone someone chose is kept.
 */
export function zoneFor(next: ZoneHints & { timeZone?: string | null }, previous?: ZoneHints & { timeZone: string | null }): string | null | undefined {
  if (next.timeZone) return next.timeZone;
  if (!previous) return deriveTimeZone(next)?.timeZone ?? null;
  if (next.timeZone === null) return null;
  const wasDerived = previous.timeZone === null || previous.timeZone === (deriveTimeZone(previous)?.timeZone ?? null);
  if (!wasDerived) return undefined;
  const merged = {
    postalCode: next.postalCode !== undefined ? next.postalCode : previous.postalCode,
    region: next.region !== undefined ? next.region : previous.region,
    country: next.country !== undefined ? next.country : previous.country,
    phone: next.phone !== undefined ? next.phone : previous.phone,
  };
  const zone = deriveTimeZone(merged)?.timeZone ?? previous.timeZone;
  return zone === previous.timeZone ? undefined : zone;
}

interface Change {
  values: Partial<NewCandidateRow>;
  events: Array<Omit<NewContactEvent, 'organizationId' | 'candidateId'>>;
  audit: Record<string, unknown>;
}

/** The values, contact events and audit entries of a status / consent change of one candidate. */
export function planFunnelChange(
  row: CandidateRow,
  input: { status?: CandidateStatus; statusReason?: string; consent?: UpdateCandidateInput['consent'] },
): Change {
  const change: Change = { values: {}, events: [], audit: {} };
  const next = resolveStatusAndFlag(row, { status: input.status, doNotContact: input.consent?.doNotContact });
  if (next.status !== row.status) {
    change.values.status = next.status;
    change.events.push({
      kind: 'status_change',
      summary: statusChangeSummary(row.status, next.status),
      details: { from: row.status, to: next.status, ...(input.statusReason ? { reason: input.statusReason } : {}) },
    });
    change.audit.status = { from: row.status, to: next.status };
  }
  const consent: Record<string, { from: unknown; to: unknown }> = {};
  if (next.doNotContact !== row.doNotContact) {
    change.values.doNotContact = next.doNotContact;
    change.values.doNotContactAt = next.doNotContact ? new Date() : null;
    change.values.doNotContactReason = next.doNotContact ? (input.consent?.doNotContactReason ?? input.statusReason ?? DEFAULT_DO_NOT_CONTACT_REASON) : null;
    consent.doNotContact = { from: row.doNotContact, to: next.doNotContact };
  } else if (next.doNotContact && input.consent?.doNotContactReason && input.consent.doNotContactReason !== row.doNotContactReason) {
    change.values.doNotContactReason = input.consent.doNotContactReason;
    consent.doNotContactReason = { from: 'previous', to: 'changed' };
  }
  const documented = { source: input.consent?.source ?? DEFAULT_CONSENT_SOURCE, at: consentInstant(input.consent?.date) };
  if (input.consent?.sms !== undefined && input.consent.sms !== row.consentSms) {
    change.values.consentSms = input.consent.sms;
    change.values.consentSmsSource = input.consent.sms ? documented.source : null;
    change.values.consentSmsAt = input.consent.sms ? documented.at : null;
    consent.sms = { from: row.consentSms, to: input.consent.sms };
  }
  if (input.consent?.calls !== undefined && input.consent.calls !== row.consentCalls) {
    change.values.consentCalls = input.consent.calls;
    change.values.consentCallsSource = input.consent.calls ? documented.source : null;
    change.values.consentCallsAt = input.consent.calls ? documented.at : null;
    consent.calls = { from: row.consentCalls, to: input.consent.calls };
  }
  if (Object.keys(consent).length) {
    const parts: string[] = [];
    if (consent.sms) parts.push(`SMS ${consent.sms.to ? 'on' : 'off'}`);
    if (consent.calls) parts.push(`calls ${consent.calls.to ? 'on' : 'off'}`);
    if (consent.doNotContact) parts.push(`do not contact ${consent.doNotContact.to ? 'on' : 'off'}`);
    if (consent.doNotContactReason) parts.push('do-not-contact reason changed');
    const reason = change.values.doNotContactReason;
    const turnedOn = consent.sms?.to === true || consent.calls?.to === true;
    change.events.push({
      kind: 'consent',
      summary: `Consent: ${parts.join(', ')}${turnedOn ? ` (${documented.source}, ${documented.at.toISOString().slice(0, 10)})` : ''}`,
      details: { ...consent, ...(reason ? { reason } : {}), ...(turnedOn ? { source: documented.source, consentAt: documented.at.toISOString() } : {}) },
    });
    change.audit.consent = Object.keys(consent);
  }
  return change;
}

/**
 * Moves one candidate (a row read in the caller's transaction) to `status` the way PATCH does: the
 * status_change contact event and an audit record. For features that move the funnel (prescreen).
 * Never lifts do-not-contact: a do-not-contact candidate is returned unchanged.
 */
export async function changeCandidateStatus(
  tx: Transaction,
  row: CandidateRow,
  status: CandidateStatus,
  options: { actor: Actor; reason?: string; action: string; channel?: ActivitySource },
): Promise<CandidateRow> {
  if (row.doNotContact || row.status === status) return row;
  const change = planFunnelChange(row, { status, statusReason: options.reason });
  const updated = await updateCandidateRow(tx, row.id, change.values);
  await funnelSignals.funnelChanged(tx, row.id, change.values);
  const { userId, label } = options.actor;
  await insertContactEvents(
    tx,
    change.events.map((values) => ({
      organizationId: row.organizationId,
      candidateId: row.id,
      actorUserId: userId,
      actorLabel: label,
      channel: options.channel,
      ...values,
    })),
  );
  await recordAudit(tx, {
    organizationId: row.organizationId,
    actorUserId: userId,
    action: options.action,
    entityType: 'candidate',
    entityId: row.id,
    changes: change.audit,
  });
  return updated;
}
