import { randomUUID } from 'node:crypto';
import type { SmsBlockReason, SmsMessage, SmsPurpose, SmsTemplateKey } from '../../../contract/sms';
import { normalizePhone } from '../../../contract/candidates';
import { runAsOrganization, type Transaction } from '../../db/scoped';
import { badRequest, notFound } from '../../http/errors';
import { SmsSendError, type SmsDeliveryStatus } from '../../integrations/sms/port';
import { recordAudit, recordAudits, type AuditEntry, type Actor } from '../../audit';
import { recordActivity, type ActivityEntry } from '../../activity';
import { smsSegments } from '../../../contract/sms-segments';
import {
  eventTime,
  findCandidate,
  findCandidateByPhone,
  findCandidates,
  insertContactEvents,
  userName,
  type CandidateRow,
  type NewContactEvent,
} from '../candidates/service';
import { organizationSmsNumber } from '../phone-numbers/service';
import { contactPermission, type ConsentSubject } from './consent';
import {
  candidateSmsOptOutAt,
  insertSms,
  organizationName,
  phoneSmsOptOutAt,
  phonesSmsOptOutAt,
  insertSmsRows,
  updateSentMessages,
  type NewSmsRow,
  updateSms,
  type SmsRow,
} from './queries';
import { renderTemplate, templateLanguage } from './templates';
import { blockReasonWords } from '../../../contract/words';

import { toSmsMessage, type SmsDeps, STATUS_CALLBACK_PATH } from './message';
import { applyStatusUpdate } from './delivery-status';

/** `work` in the caller's transaction, else in one of its own under the organization's row security. */
function inTransaction<T>(deps: SmsDeps, tx: Transaction | undefined, organizationId: string, work: (tx: Transaction) => Promise<T>): Promise<T> {
  return tx ? work(tx) : runAsOrganization(deps.db, organizationId, work);
}

/**
 * The number an organization texts from: its own SMS number in the registry, so that a reply comes back to it
 * and is routed by it (decision 118); else the installation's shared sender.
 */
async function senderNumber(deps: SmsDeps, tx: Transaction, organizationId: string): Promise<string> {
  return (await organizationSmsNumber(tx, organizationId)) ?? deps.sms.fromNumber;
}

/** The consent facts of a candidate, read in `tx`: the row, the recorded opt-out and the number's own STOP. */
export async function consentSubjectOf(tx: Transaction, row: CandidateRow): Promise<ConsentSubject & { phoneOptedOutAt: Date | null }> {
  const smsOptedOutAt = row.consentSms ? null : await candidateSmsOptOutAt(tx, row.id);
  const phoneOptedOutAt = row.phone ? await phoneSmsOptOutAt(tx, row.organizationId, row.phone) : null;
  return { doNotContact: row.doNotContact, consentSms: row.consentSms, consentCalls: row.consentCalls, timeZone: row.timeZone, smsOptedOutAt, phoneOptedOutAt };
}

/** contactPermission for SMS, plus the number-level opt-out (a STOP from the handset binds until START). */
export function smsPermission(subject: ConsentSubject & { phoneOptedOutAt: Date | null }, purpose: SmsPurpose, now: Date) {
  const base = contactPermission(subject, 'sms', purpose, now);
  if (!base.allowed) return base;
  if (subject.phoneOptedOutAt) return { allowed: false as const, reason: 'sms_opted_out' as const };
  return base;
}

export interface SendSmsRequest {
  organizationId: string;
  /** The candidate the message is for; their phone is used when `to` is absent. */
  candidateId?: string;
  /** A phone number (any format libphonenumber reads, US default), e.g. a chat visitor's. */
  to?: string;
  body?: string;
  templateKey?: SmsTemplateKey;
  /** The template's values; a function when they depend on the language the person reads (dates, trial names). */
  variables?: Record<string, string> | ((language: 'en' | 'es') => Record<string, string>);
  /** The consent rule to apply; a marketing template is always sent as marketing. */
  purpose: SmsPurpose;
  sentByUserId?: string | null;
  /** The moment consent (marketing hours) is judged at; now by default. */
  now?: Date;
  /** en or es; by default the candidate's preferred language. */
  language?: 'en' | 'es';
  /** What the contact history calls the message instead of its template key (e.g. a sequence step). */
  historyLabel?: string;
  /**
   * Runs in the transaction that stores the message (sent or blocked), before anything goes to the provider:
   * a sequence records its step there, so a retried job never sends the same step twice. Throwing rolls the
   * message back and nothing is sent.
   */
  onStored?: (tx: Transaction, message: SmsRow) => Promise<void>;
}

export type SendSmsResult = { status: 'blocked'; reason: SmsBlockReason; message: SmsMessage | null } | { status: SmsDeliveryStatus; message: SmsMessage };

const summaryLabel = (templateKey: string | null | undefined, historyLabel?: string) => historyLabel ?? templateKey ?? 'message';

/** The contact event of a message consent refused (never the body). */
function blockedEvent(row: SmsRow, reason: SmsBlockReason, label: string, actor: Actor): NewContactEvent {
  return {
    organizationId: row.organizationId,
    candidateId: row.candidateId!,
    kind: 'sms',
    summary: `SMS not sent (${blockReasonWords(reason)}): ${label}`,
    details: { messageId: row.id, direction: 'outbound', purpose: row.purpose, templateKey: row.templateKey, status: 'blocked', reason },
    referenceId: row.id,
    actorUserId: actor.userId,
    actorLabel: actor.label,
  };
}

/** The contact event of a message handed to the provider (or that it refused). */
function sentEvent(row: SmsRow, label: string, actor: Actor): NewContactEvent {
  return {
    organizationId: row.organizationId,
    candidateId: row.candidateId!,
    kind: 'sms',
    summary: row.status === 'failed' ? `SMS failed: ${label}` : `SMS sent: ${label}`,
    details: { messageId: row.id, direction: 'outbound', purpose: row.purpose, templateKey: row.templateKey, status: row.status, provider: row.provider },
    referenceId: row.id,
    actorUserId: actor.userId,
    actorLabel: actor.label,
  };
}

/**
 * The activity of messages that left (decision 031): sent, with its cost (segments at the configured rate), and
 * delivered when the simulator delivered it at once. Failed and blocked messages are not activity.
 */
function sentActivity(rows: SmsRow[], rates: SmsDeps['config']['rates']): ActivityEntry[] {
  return rows
    .filter((row) => row.status !== 'failed' && row.status !== 'blocked')
    .flatMap((row) => {
      const base = { organizationId: row.organizationId, candidateId: row.candidateId, source: 'sms' as const, referenceId: row.id };
      const segments = smsSegments(row.body).segments;
      return [
        { ...base, kind: 'sms_sent' as const, label: row.purpose },
        { ...base, kind: 'spend' as const, label: 'sms_segments', value: segments * rates.smsSegmentUsd },
        ...(row.status === 'delivered' ? [{ ...base, kind: 'sms_delivered' as const, label: row.purpose }] : []),
      ];
    });
}

function blockedAudit(row: SmsRow, reason: SmsBlockReason): AuditEntry {
  return {
    organizationId: row.organizationId,
    actorUserId: row.sentByUserId,
    action: 'sms.blocked',
    entityType: 'sms_message',
    entityId: row.id,
    changes: { candidateId: row.candidateId, purpose: row.purpose, templateKey: row.templateKey, reason },
  };
}

function sentAudit(row: SmsRow, error: string | null): AuditEntry {
  return {
    organizationId: row.organizationId,
    actorUserId: row.sentByUserId,
    action: 'sms.send',
    entityType: 'sms_message',
    entityId: row.id,
    changes: {
      candidateId: row.candidateId,
      purpose: row.purpose,
      templateKey: row.templateKey,
      status: row.status,
      provider: row.provider,
      ...(error ? { error } : {}),
    },
  };
}

/**
 * THE one way anything sends an SMS. Resolves the phone, renders the template, checks consent
 * (consent.ts), stores the message (blocked ones too, with the reason in `error`), sends it through the
 * port, and writes a contact event ('sms', never the body) and an audit record (never the body or phone).
 * A refusal returns `{ status: 'blocked', reason }`; a bad template variable throws 400.
 *
 * With `tx`, everything (the provider call too) runs in the caller's transaction. Without, the message is
 * stored 'queued' in one transaction, sent outside any transaction, and updated in a second one, so a slow
 * provider never holds database locks.
 */
export async function sendSms(deps: SmsDeps, input: SendSmsRequest, tx?: Transaction): Promise<SendSmsResult> {
  const now = input.now ?? new Date();
  const prepared = await inTransaction(deps, tx, input.organizationId, async (t) => {
    let row: CandidateRow | undefined;
    if (input.candidateId) {
      row = await findCandidate(t, input.candidateId, true);
      if (!row || row.organizationId !== input.organizationId) throw notFound('Candidate not found');
    }
    let to: string | null | undefined = row?.phone;
    if (input.to !== undefined) {
      to = normalizePhone(input.to);
      if (!to) throw badRequest('to: Not a valid phone number', [{ path: 'to', message: 'Not a valid phone number' }]);
    }
    if (!to) return { blocked: 'no_phone' as const };
    // A number given without a candidate may still be a candidate's: their consent applies.
    if (!row && input.to !== undefined) row = await findCandidateByPhone(t, input.organizationId, to);

    const orgName = (await organizationName(t, input.organizationId)) ?? '';
    const sender = await senderNumber(deps, t, input.organizationId);
    let body = input.body?.trim() ?? '';
    let purpose = input.purpose;
    const templateKey = input.templateKey ?? null;
    if (templateKey) {
      const language = input.language ?? templateLanguage(row?.preferredLanguage);
      const variables = typeof input.variables === 'function' ? input.variables(language) : input.variables;
      const rendered = renderTemplate(templateKey, language, { firstName: row?.firstName, organizationName: orgName, ...variables });
      body = rendered.text;
      if (rendered.template.purpose === 'marketing') purpose = 'marketing';
    }
    if (!body) throw badRequest('body: Give a message or a template', [{ path: 'body', message: 'Required' }]);

    const subject = row
      ? await consentSubjectOf(t, row)
      : {
          doNotContact: false,
          consentSms: false,
          consentCalls: false,
          timeZone: null,
          smsOptedOutAt: null,
          phoneOptedOutAt: await phoneSmsOptOutAt(t, input.organizationId, to),
        };
    const permission = smsPermission(subject, purpose, now);
    const actorLabel = input.sentByUserId ? ((await userName(t, input.sentByUserId)) ?? 'Staff') : 'Cohortly';
    const base = {
      organizationId: input.organizationId,
      candidateId: row?.id ?? null,
      direction: 'outbound' as const,
      toPhone: to,
      fromPhone: sender,
      body,
      purpose,
      provider: deps.sms.provider,
      templateKey,
      sentByUserId: input.sentByUserId ?? null,
      createdAt: eventTime(),
    };
    if (!permission.allowed) {
      const stored = await insertSms(t, { ...base, status: 'blocked', error: permission.reason });
      if (row)
        await insertContactEvents(t, [
          blockedEvent(stored, permission.reason, summaryLabel(templateKey, input.historyLabel), { userId: input.sentByUserId ?? null, label: actorLabel }),
        ]);
      await recordAudit(t, blockedAudit(stored, permission.reason));
      await input.onStored?.(t, stored);
      return { stored, blocked: permission.reason };
    }
    const stored = await insertSms(t, { ...base, status: 'queued' });
    await input.onStored?.(t, stored);
    return { stored, blocked: null, to, sender, body, purpose, templateKey, actorLabel };
  });

  if (prepared.blocked === 'no_phone') return { status: 'blocked', reason: 'no_phone', message: null };
  if (prepared.blocked) return { status: 'blocked', reason: prepared.blocked, message: toSmsMessage(prepared.stored) };

  const { stored } = prepared;
  let outcome: { providerMessageId: string | null; status: SmsDeliveryStatus; error: string | null };
  try {
    const sent = await deps.sms.send({
      to: prepared.to!,
      from: prepared.sender!,
      body: prepared.body!,
      statusCallbackUrl: deps.sms.provider === 'twilio' ? `${deps.config.publicBaseUrl}${STATUS_CALLBACK_PATH}` : undefined,
    });
    outcome = { providerMessageId: sent.providerMessageId, status: sent.status, error: null };
  } catch (error) {
    const code = error instanceof SmsSendError ? error.code : 'error';
    deps.logger.warn({ smsId: stored.id, provider: deps.sms.provider, code }, 'sms send failed');
    outcome = { providerMessageId: null, status: 'failed', error: code };
  }

  const final = await inTransaction(deps, tx, input.organizationId, async (t) => {
    let row = await updateSms(t, stored.id, outcome);
    // The simulator "delivers" at once, through the same status update Twilio's callback takes.
    const delivered =
      deps.sms.provider === 'simulator' && outcome.providerMessageId
        ? await applyStatusUpdate(t, 'simulator', outcome.providerMessageId, 'delivered', undefined, false)
        : undefined;
    row = delivered ?? row;
    await recordActivity(t, sentActivity([row], deps.config.rates));
    if (row.candidateId)
      await insertContactEvents(t, [
        sentEvent(row, summaryLabel(prepared.templateKey, input.historyLabel), { userId: input.sentByUserId ?? null, label: prepared.actorLabel! }),
      ]);
    await recordAudit(t, sentAudit(row, outcome.error));
    return row;
  });
  return { status: final.status as SmsDeliveryStatus, message: toSmsMessage(final) };
}

/** One message of a burst: a candidate of the organization and its text, already rendered. */
export interface SmsBatchItem {
  candidateId: string;
  body: string;
  /** What the contact history calls the message. */
  historyLabel: string;
}

export interface SmsBatchOutcome {
  candidateId: string;
  /** The stored message (null: no such candidate, or no phone). */
  message: SmsRow | null;
  blocked: SmsBlockReason | null;
}

/** Messages handed to the provider at once (Twilio's API takes them one request each). */
const PROVIDER_CONCURRENCY = 8;

/**
 * Many messages of one organization at once, for bursts (thousands of sequence steps due the same minute):
 * exactly sendSms's rules (consent per person, the number's own STOP, marketing hours), contact events and
 * audit, in three round trips instead of three per message. `onStored` runs in the transaction that stores
 * them (sent or blocked) before anything reaches the provider, as sendSms's does.
 */
export async function sendSmsBatch(
  deps: SmsDeps,
  input: {
    organizationId: string;
    purpose: SmsPurpose;
    now: Date;
    items: SmsBatchItem[];
    /**
     * Locks the caller's own rows first, before the candidates: a caller that also locks them elsewhere in the
     * order (its rows, then the candidates) keeps one lock order, so two deliveries of the same work cannot
     * deadlock (the sequence engine's enrollments).
     */
    lockFirst?: (tx: Transaction) => Promise<void>;
    onStored?: (tx: Transaction, outcomes: SmsBatchOutcome[]) => Promise<void>;
  },
): Promise<SmsBatchOutcome[]> {
  const actor = { userId: null, label: 'Cohortly' };
  const labels = new Map(input.items.map((item) => [item.candidateId, item.historyLabel]));
  const outcomes = await runAsOrganization(deps.db, input.organizationId, async (t) => {
    await input.lockFirst?.(t);
    const rows = new Map(
      (
        await findCandidates(
          t,
          input.items.map((item) => item.candidateId),
          true,
        )
      )
        .filter((row) => row.organizationId === input.organizationId)
        .map((row) => [row.id, row]),
    );
    const phoneOptOuts = await phonesSmsOptOutAt(
      t,
      input.organizationId,
      [...rows.values()].map((row) => row.phone).filter((phone): phone is string => Boolean(phone)),
    );
    const sender = await senderNumber(deps, t, input.organizationId);
    const values: NewSmsRow[] = [];
    const results: SmsBatchOutcome[] = [];
    for (const item of input.items) {
      const row = rows.get(item.candidateId);
      if (!row?.phone) {
        results.push({ candidateId: item.candidateId, message: null, blocked: 'no_phone' });
        continue;
      }
      const subject = {
        doNotContact: row.doNotContact,
        consentSms: row.consentSms,
        consentCalls: row.consentCalls,
        timeZone: row.timeZone,
        smsOptedOutAt: row.consentSms ? null : await candidateSmsOptOutAt(t, row.id),
        phoneOptedOutAt: phoneOptOuts.get(row.phone) ?? null,
      };
      const permission = smsPermission(subject, input.purpose, input.now);
      values.push({
        id: randomUUID(),
        organizationId: input.organizationId,
        candidateId: row.id,
        direction: 'outbound',
        toPhone: row.phone,
        fromPhone: sender,
        body: item.body,
        purpose: input.purpose,
        provider: deps.sms.provider,
        templateKey: null,
        sentByUserId: null,
        createdAt: eventTime(),
        status: permission.allowed ? 'queued' : 'blocked',
        error: permission.allowed ? null : permission.reason,
      });
      results.push({ candidateId: item.candidateId, message: null, blocked: permission.allowed ? null : permission.reason });
    }
    const stored = new Map((await insertSmsRows(t, values)).map((row) => [row.candidateId!, row]));
    for (const result of results) result.message = stored.get(result.candidateId) ?? null;
    const blocked = results.filter((result) => result.message && result.blocked);
    await insertContactEvents(
      t,
      blocked.map((result) => blockedEvent(result.message!, result.blocked!, labels.get(result.candidateId)!, actor)),
    );
    await recordAudits(
      t,
      blocked.map((result) => blockedAudit(result.message!, result.blocked!)),
    );
    await input.onStored?.(t, results);
    return results;
  });

  const queued = outcomes.filter((outcome) => outcome.message && !outcome.blocked);
  const updates: Array<{ id: string; status: string; providerMessageId: string | null; error: string | null }> = [];
  let next = 0;
  const lane = async () => {
    while (next < queued.length) {
      const message = queued[next++].message!;
      try {
        const sent = await deps.sms.send({
          to: message.toPhone!,
          from: message.fromPhone,
          body: message.body,
          statusCallbackUrl: deps.sms.provider === 'twilio' ? `${deps.config.publicBaseUrl}${STATUS_CALLBACK_PATH}` : undefined,
        });
        // The simulator "delivers" at once (what its status callback would say).
        updates.push({
          id: message.id,
          status: deps.sms.provider === 'simulator' && sent.status === 'sent' ? 'delivered' : sent.status,
          providerMessageId: sent.providerMessageId,
          error: null,
        });
      } catch (error) {
        const code = error instanceof SmsSendError ? error.code : 'error';
        deps.logger.warn({ smsId: message.id, provider: deps.sms.provider, code }, 'sms send failed');
        updates.push({ id: message.id, status: 'failed', providerMessageId: null, error: code });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PROVIDER_CONCURRENCY, queued.length) }, lane));
  if (!updates.length) return outcomes;

  await runAsOrganization(deps.db, input.organizationId, async (t) => {
    await updateSentMessages(t, updates);
    const byId = new Map(updates.map((update) => [update.id, update]));
    const finals = queued.map((outcome) => ({
      ...outcome.message!,
      status: byId.get(outcome.message!.id)!.status as SmsRow['status'],
      provider: deps.sms.provider,
    }));
    await insertContactEvents(
      t,
      finals.map((row) => sentEvent(row, labels.get(row.candidateId!)!, actor)),
    );
    await recordActivity(t, sentActivity(finals, deps.config.rates));
    await recordAudits(
      t,
      finals.map((row) => sentAudit(row, byId.get(row.id)!.error)),
    );
    const finalById = new Map(finals.map((row) => [row.id, row]));
    for (const outcome of queued) outcome.message = finalById.get(outcome.message!.id)!;
  });
  return outcomes;
}
