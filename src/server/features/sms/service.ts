import { randomBytes, randomUUID } from 'node:crypto';
import type { SmsBlockReason, SmsMessage, SmsPurpose, SmsTemplateKey } from '../../../contract/sms';
import { normalizePhone } from '../../../contract/candidates';
import { canReach, runScoped, selectOrganizations, type RequestScope } from '../../auth/scope';
import { runAsOrganization, type Transaction } from '../../db/scoped';
import { systemDb } from '../../db/system';
import type { AppDeps } from '../../http/context';
import { AppError, badRequest, notFound } from '../../http/errors';
import { SmsSendError, type SmsDeliveryStatus, type SmsProvider } from '../../integrations/sms/port';
import { recordAudit, recordAudits, type AuditEntry } from '../../audit';
import { recordActivity, type ActivityEntry } from '../../activity';
import { smsSegments } from '../../../contract/sms-segments';
import { exitCandidateSequences } from '../sequences/exits';
import {
  eventTime,
  findCandidate,
  findCandidates,
  insertContactEvents,
  updateCandidateRow,
  userName,
  type CandidateRow,
  type NewContactEvent,
} from '../candidates/queries';
import { contactPermission, type ConsentSubject } from './consent';
import { ratingFrom, recordSatisfaction } from '../satisfaction/service';
import { classifyInbound, type KeywordAction } from './keywords';
import {
  candidateSmsOptOutAt,
  findCandidateByPhone,
  findSmsByProviderId,
  insertInboundOnce,
  insertSms,
  lastMessages,
  latestCandidateWithPhone,
  latestOutboundTo,
  latestTemplateSentTo,
  organizationName,
  outboundMessages,
  phoneSmsOptOutAt,
  phonesSmsOptOutAt,
  insertSmsRows,
  updateSentMessages,
  type NewSmsRow,
  threadMessages,
  threadSummaries,
  unansweredCounts,
  updateSms,
  type SmsRow,
} from './queries';
import { listTemplates, renderTemplate, SMS_TEMPLATES, templateLanguage } from './templates';
import { blockReasonWords } from '../../../contract/words';

export { contactPermission } from './consent';

/** What sending needs of the app: the database, the SMS port, the public address (status callbacks). */
export type SmsDeps = Pick<AppDeps, 'db' | 'sms' | 'config' | 'logger'>;

export const STATUS_CALLBACK_PATH = '/api/inbound/sms/status';
export const INBOUND_PATH = '/api/inbound/sms';

// ---- mapping ----

export function toSmsMessage(row: SmsRow): SmsMessage {
  return {
    id: row.id,
    organizationId: row.organizationId,
    candidateId: row.candidateId,
    direction: row.direction,
    toPhone: row.toPhone,
    fromPhone: row.fromPhone,
    body: row.body,
    status: row.status,
    purpose: row.purpose,
    provider: row.provider,
    providerMessageId: row.providerMessageId,
    templateKey: row.templateKey,
    error: row.error,
    sentByUserId: row.sentByUserId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** `work` in the caller's transaction, else in one of its own under the organization's row security. */
function inTransaction<T>(deps: SmsDeps, tx: Transaction | undefined, organizationId: string, work: (tx: Transaction) => Promise<T>): Promise<T> {
  return tx ? work(tx) : runAsOrganization(deps.db, organizationId, work);
}

/** The consent facts of a candidate, read in `tx`: the row, the recorded opt-out and the number's own STOP. */
export async function consentSubjectOf(tx: Transaction, row: CandidateRow): Promise<ConsentSubject & { phoneOptedOutAt: Date | null }> {
  const smsOptedOutAt = row.consentSms ? null : await candidateSmsOptOutAt(tx, row.id);
  const phoneOptedOutAt = row.phone ? await phoneSmsOptOutAt(tx, row.organizationId, row.phone) : null;
  return { doNotContact: row.doNotContact, consentSms: row.consentSms, consentCalls: row.consentCalls, timeZone: row.timeZone, smsOptedOutAt, phoneOptedOutAt };
}

/** contactPermission for SMS, plus the number-level opt-out (a STOP from the handset binds until START). */
function smsPermission(subject: ConsentSubject & { phoneOptedOutAt: Date | null }, purpose: SmsPurpose, now: Date) {
  const base = contactPermission(subject, 'sms', purpose, now);
  if (!base.allowed) return base;
  if (subject.phoneOptedOutAt) return { allowed: false as const, reason: 'sms_opted_out' as const };
  return base;
}

// ---- sending ----

export interface SendSmsRequest {
  organizationId: string;
  /** The candidate the message is for; their phone is used when `to` is absent. */
  candidateId?: string;
  /** A phone number (any format libphonenumber reads, US default), e.g. a chat visitor's. */
  to?: string;
  body?: string;
  templateKey?: SmsTemplateKey;
  variables?: Record<string, string>;
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
function blockedEvent(row: SmsRow, reason: SmsBlockReason, label: string, actor: { userId: string | null; label: string }): NewContactEvent {
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
function sentEvent(row: SmsRow, label: string, actor: { userId: string | null; label: string }): NewContactEvent {
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
    let body = input.body?.trim() ?? '';
    let purpose = input.purpose;
    const templateKey = input.templateKey ?? null;
    if (templateKey) {
      const rendered = renderTemplate(templateKey, input.language ?? templateLanguage(row?.preferredLanguage), {
        firstName: row?.firstName,
        organizationName: orgName,
        ...input.variables,
      });
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
      fromPhone: deps.sms.fromNumber,
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
    return { stored, blocked: null, to, body, purpose, templateKey, actorLabel };
  });

  if (prepared.blocked === 'no_phone') return { status: 'blocked', reason: 'no_phone', message: null };
  if (prepared.blocked) return { status: 'blocked', reason: prepared.blocked, message: toSmsMessage(prepared.stored) };

  const { stored } = prepared;
  let outcome: { providerMessageId: string | null; status: SmsDeliveryStatus; error: string | null };
  try {
    const sent = await deps.sms.send({
      to: prepared.to!,
      from: deps.sms.fromNumber,
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
    onStored?: (tx: Transaction, outcomes: SmsBatchOutcome[]) => Promise<void>;
  },
): Promise<SmsBatchOutcome[]> {
  const actor = { userId: null, label: 'Cohortly' };
  const labels = new Map(input.items.map((item) => [item.candidateId, item.historyLabel]));
  const outcomes = await runAsOrganization(deps.db, input.organizationId, async (t) => {
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
        fromPhone: deps.sms.fromNumber,
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
          from: deps.sms.fromNumber,
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

// ---- delivery status ----

const STATUS_RANK: Record<string, number> = { queued: 0, sent: 1, delivered: 2, undelivered: 2, failed: 2 };

/**
 * Moves an outbound message to `status` (Twilio's status callback, and the simulator's delivery). Callbacks
 * can arrive out of order or twice: a message never moves backwards, and final states stay final.
 */
/**
 * A delivery status from the provider, applied only when it moves the message forward. A delivery is
 * activity (`recordDelivery` false when the caller records the send and its delivery together).
 */
export async function applyStatusUpdate(
  tx: Transaction,
  provider: SmsProvider,
  providerMessageId: string,
  status: SmsDeliveryStatus,
  errorCode?: string,
  recordDelivery = true,
): Promise<SmsRow | undefined> {
  const row = await findSmsByProviderId(tx, provider, providerMessageId);
  if (row?.direction !== 'outbound' || !(row.status in STATUS_RANK)) return row;
  if (STATUS_RANK[status] <= STATUS_RANK[row.status]) return row;
  const updated = await updateSms(tx, row.id, { status, ...(errorCode ? { error: errorCode } : {}) });
  if (recordDelivery && status === 'delivered') {
    await recordActivity(tx, [
      { organizationId: row.organizationId, candidateId: row.candidateId, kind: 'sms_delivered', source: 'sms', label: row.purpose, referenceId: row.id },
    ]);
  }
  return updated;
}

export async function receiveStatusCallback(deps: SmsDeps, input: { messageSid: string; status: SmsDeliveryStatus; errorCode?: string }): Promise<boolean> {
  // The system path: the provider's message id is all we know, not its organization.
  return systemDb(deps.db).transaction(async (tx) => Boolean(await applyStatusUpdate(tx, deps.sms.provider, input.messageSid, input.status, input.errorCode)));
}

// ---- inbound ----

export interface InboundSms {
  from: string;
  to: string;
  body: string;
  messageSid: string;
}

export interface InboundResult {
  message: SmsMessage | null;
  action: KeywordAction;
  twiml: string;
}

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[char]!);
export const twiml = (reply?: string) =>
  reply
    ? `<?xml version="1.0" encoding="UTF-8"?><Response><Message>${escapeXml(reply)}</Message></Response>`
    : '<?xml version="1.0" encoding="UTF-8"?><Response/>';

function keywordReply(action: KeywordAction, orgName: string, helpContact: string | undefined): string | undefined {
  const name = orgName || 'Cohortly';
  switch (action) {
    case 'opt_out':
      return `${name}: You are unsubscribed and will receive no more messages. Reply START to resubscribe.`;
    case 'opt_in':
      return `${name}: You are subscribed to messages again. Reply HELP for help, STOP to opt out.`;
    case 'help':
      return `${name}: ${helpContact ?? 'Reply to this message and the study team will get back to you.'} Msg&data rates may apply. Reply STOP to opt out.`;
    default:
      return undefined;
  }
}

/**
 * Which organization (and candidate) an inbound message belongs to. Organizations have no numbers of their
 * own yet (one Twilio number or the simulator serves all), so the `To` number cannot tell: the organization
 * of the newest outbound message to the sender wins, else the newest-updated candidate with that phone.
 */
async function routeInbound(tx: Transaction, from: string): Promise<{ organizationId: string; candidateId: string | null } | undefined> {
  const outbound = await latestOutboundTo(tx, from);
  if (outbound) return outbound;
  const row = await latestCandidateWithPhone(tx, from);
  return row ? { organizationId: row.organizationId, candidateId: row.id } : undefined;
}

/**
 * An inbound SMS, from the webhook or the simulator (same function): stored once per MessageSid, keywords
 * applied (STOP revokes SMS consent at once, START re-subscribes, HELP answers), otherwise it joins the
 * candidate's thread. Keyword answers are TwiML replies, stored in the thread with purpose 'reply'; they are
 * the only messages not sent through sendSms, because carriers require them even after an opt-out.
 */
export async function receiveInboundSms(
  deps: SmsDeps,
  inbound: InboundSms,
  route?: { organizationId: string; candidateId?: string | null },
): Promise<InboundResult> {
  // The system path: routing finds the organization from the sender (see routeInbound).
  return systemDb(deps.db).transaction(async (tx) => {
    const from = normalizePhone(inbound.from) ?? inbound.from.trim();
    const target = route ?? (await routeInbound(tx, from));
    if (!target) {
      deps.logger.info({ provider: deps.sms.provider }, 'inbound sms matched no organization');
      return { message: null, action: classifyInbound(inbound.body), twiml: twiml() };
    }
    let row: CandidateRow | undefined;
    if (target.candidateId) row = await findCandidate(tx, target.candidateId, true);
    if (row && row.organizationId !== target.organizationId) row = undefined;
    if (!row) row = await findCandidateByPhone(tx, target.organizationId, from);

    const phoneOptOut = await phoneSmsOptOutAt(tx, target.organizationId, from);
    const candidateOptOut = row && !row.consentSms ? await candidateSmsOptOutAt(tx, row.id) : null;
    const action = classifyInbound(inbound.body, Boolean(phoneOptOut || candidateOptOut));

    const stored = await insertInboundOnce(tx, {
      organizationId: target.organizationId,
      candidateId: row?.id ?? null,
      direction: 'inbound',
      toPhone: inbound.to || deps.sms.fromNumber,
      fromPhone: from,
      body: inbound.body,
      status: 'received',
      purpose: 'reply',
      provider: deps.sms.provider,
      providerMessageId: inbound.messageSid,
      createdAt: eventTime(),
    });
    // A redelivered webhook: already handled, nothing stored or answered twice.
    if (!stored) return { message: null, action, twiml: twiml() };

    const actor = { actorUserId: null, actorLabel: row ? `${row.firstName} (SMS)`.trim() : 'SMS' };
    await recordActivity(tx, [
      {
        organizationId: target.organizationId,
        candidateId: row?.id ?? null,
        kind: 'sms_replied',
        source: 'sms',
        label: action === 'none' ? 'reply' : action,
        referenceId: stored.id,
      },
    ]);
    if (row) {
      await insertContactEvents(tx, [
        {
          organizationId: row.organizationId,
          candidateId: row.id,
          kind: 'sms',
          summary: action === 'none' ? 'SMS received' : `SMS received: ${action.replace('_', '-')} keyword`,
          details: { messageId: stored.id, direction: 'inbound', keyword: action === 'none' ? null : action },
          referenceId: stored.id,
          ...actor,
        },
      ]);
    }
    await recordAudit(tx, {
      organizationId: target.organizationId,
      actorUserId: null,
      action: 'sms.inbound',
      entityType: 'sms_message',
      entityId: stored.id,
      changes: { candidateId: row?.id ?? null, keyword: action },
    });

    // A reply ends the person's outreach (sequences that end on a reply); STOP ends all of it.
    if (row && action === 'none') await exitCandidateSequences(tx, row.id, 'replied');
    if (row && action === 'opt_out') await exitCandidateSequences(tx, row.id, 'opted_out');
    if (row && (action === 'opt_out' || action === 'opt_in')) {
      const turnOn = action === 'opt_in';
      await updateCandidateRow(tx, row.id, { consentSms: turnOn });
      await insertContactEvents(tx, [
        {
          organizationId: row.organizationId,
          candidateId: row.id,
          kind: 'consent',
          summary: turnOn ? 'Consent: SMS on (replied START)' : 'Consent: SMS off (replied STOP)',
          details: { sms: { from: row.consentSms, to: turnOn }, source: 'sms_keyword', messageId: stored.id },
          referenceId: stored.id,
          channel: 'sms',
          ...actor,
        },
      ]);
      await recordAudit(tx, {
        organizationId: row.organizationId,
        actorUserId: null,
        action: turnOn ? 'candidate.consent.sms_opt_in' : 'candidate.consent.sms_opt_out',
        entityType: 'candidate',
        entityId: row.id,
        changes: { consent: { sms: { from: row.consentSms, to: turnOn } }, source: 'sms_keyword' },
      });
    }

    const rated = row && action === 'none' ? await recordFeedbackReply(tx, row, inbound.body) : false;
    const reply = rated
      ? FEEDBACK_THANKS[templateLanguage(row!.preferredLanguage)]
      : keywordReply(action, (await organizationName(tx, target.organizationId)) ?? '', deps.config.sms.helpContact);
    if (reply) {
      const replyRow = await insertSms(tx, {
        organizationId: target.organizationId,
        candidateId: row?.id ?? null,
        direction: 'outbound',
        toPhone: from,
        fromPhone: stored.toPhone,
        body: reply,
        status: 'sent',
        purpose: 'reply',
        provider: deps.sms.provider,
        templateKey: rated ? 'feedback_thanks' : `keyword_${action}`,
        createdAt: eventTime(),
      });
      if (row) {
        await insertContactEvents(tx, [
          {
            organizationId: row.organizationId,
            candidateId: row.id,
            kind: 'sms',
            summary: `SMS sent: ${replyRow.templateKey}`,
            details: { messageId: replyRow.id, direction: 'outbound', purpose: 'reply' },
            referenceId: replyRow.id,
            actorUserId: null,
            actorLabel: 'Cohortly',
          },
        ]);
      }
    }
    return { message: toSmsMessage(stored), action, twiml: twiml(reply) };
  });
}

const FEEDBACK_THANKS = { en: 'Thank you for your feedback!', es: '¡Gracias por su opinión!' } as const;
/** How long a booking-feedback question waits for its 1-5 answer. */
const FEEDBACK_WINDOW_MS = 7 * 86_400_000;

/**
 * A reply to the booking-feedback SMS that starts with 1-5 ("4", "5 great staff") is the person's rating of
 * booking, with the rest as a comment; once per question asked, within 7 days of it.
 */
async function recordFeedbackReply(tx: Transaction, row: CandidateRow, body: string): Promise<boolean> {
  const rating = ratingFrom(body);
  if (rating === null) return false;
  const asked = await latestTemplateSentTo(tx, row.id, 'booking_feedback', new Date(Date.now() - FEEDBACK_WINDOW_MS));
  if (!asked) return false;
  const comment = body.trim().replace(/^\S+\s*(?:(?:\/|out of|de)\s*5)?[\s,.!:-]*/i, '');
  return recordSatisfaction(tx, { organizationId: row.organizationId, channel: 'sms', referenceId: asked.id, rating, comment, candidateId: row.id });
}

// ---- staff ----

async function loadCandidateInScope(tx: Transaction, scope: RequestScope, candidateId: string): Promise<CandidateRow> {
  const row = await findCandidate(tx, candidateId);
  if (!row || !canReach(scope, row.organizationId)) throw notFound('Candidate not found');
  return row;
}

export async function listThreads(
  deps: SmsDeps,
  scope: RequestScope,
  query: { organizationId?: string; organizationIds?: string[]; orgs?: string[]; candidateId?: string; limit: number },
) {
  const organizationIds = selectOrganizations(scope, query.organizationId, query.organizationIds, query.orgs);
  return runScoped(deps.db, scope, async (tx) => {
    const summaries = await threadSummaries(tx, { organizationIds, candidateId: query.candidateId, limit: query.limit });
    const ids = summaries.map((row) => row.candidateId);
    const last = await lastMessages(tx, ids);
    const unanswered = await unansweredCounts(tx, ids);
    return {
      threads: summaries.map((row) => {
        const message = toSmsMessage(last.get(row.candidateId)!);
        return {
          candidateId: row.candidateId,
          organizationId: row.organizationId,
          candidate: { firstName: row.firstName, lastName: row.lastName },
          lastMessage: { id: message.id, direction: message.direction, body: message.body, status: message.status, createdAt: message.createdAt },
          messageCount: row.messageCount,
          inboundCount: row.inboundCount,
          unansweredCount: unanswered.get(row.candidateId) ?? 0,
        };
      }),
    };
  });
}

export async function getThread(deps: SmsDeps, scope: RequestScope, candidateId: string) {
  return runScoped(deps.db, scope, async (tx) => {
    const row = await loadCandidateInScope(tx, scope, candidateId);
    const subject = await consentSubjectOf(tx, row);
    const permission = row.phone ? smsPermission(subject, 'transactional', new Date()) : ({ allowed: false, reason: 'no_phone' } as const);
    const optedOutAt = subject.phoneOptedOutAt ?? subject.smsOptedOutAt;
    return {
      candidate: {
        id: row.id,
        organizationId: row.organizationId,
        firstName: row.firstName,
        lastName: row.lastName,
        phone: row.phone,
        preferredLanguage: row.preferredLanguage,
      },
      consent: {
        consentSms: row.consentSms,
        doNotContact: row.doNotContact,
        smsOptedOutAt: optedOutAt ? optedOutAt.toISOString() : null,
        canSend: permission.allowed,
        blockReason: permission.allowed ? null : permission.reason,
      },
      messages: (await threadMessages(tx, row.id)).map(toSmsMessage),
    };
  });
}

/** A message from staff: free text is transactional; a template brings its own purpose. 409 when consent forbids it. */
export async function staffSend(
  deps: SmsDeps,
  scope: RequestScope,
  input: { candidateId: string; body?: string; templateKey?: SmsTemplateKey; variables?: Record<string, string> },
): Promise<SmsMessage> {
  const row = await runScoped(deps.db, scope, (tx) => loadCandidateInScope(tx, scope, input.candidateId));
  const purpose = input.templateKey ? SMS_TEMPLATES[input.templateKey].purpose : 'transactional';
  const result = await sendSms(deps, {
    organizationId: row.organizationId,
    candidateId: row.id,
    body: input.body,
    templateKey: input.templateKey,
    variables: input.variables,
    purpose,
    sentByUserId: scope.userId,
  });
  if (result.status === 'blocked') {
    throw new AppError(409, `SMS not sent: ${BLOCK_MESSAGES[result.reason]}.`, 'SMS_BLOCKED', [{ path: 'candidateId', message: result.reason }]);
  }
  return result.message;
}

export const BLOCK_MESSAGES: Record<SmsBlockReason, string> = {
  do_not_contact: 'the candidate is marked do-not-contact',
  sms_opted_out: 'the candidate opted out of SMS',
  no_sms_consent: 'the candidate has not consented to marketing messages',
  no_call_consent: 'the candidate has not consented to calls',
  quiet_hours: "marketing messages only go out 8:00-21:00 in the candidate's time zone",
  no_phone: 'the candidate has no phone number',
};

export const templates = () => ({ templates: listTemplates() });

/** The simulator's "phone": a reply from a candidate (or any number) through the same handler as the webhook. */
export async function simulateInbound(
  deps: SmsDeps,
  scope: RequestScope,
  input: { candidateId?: string; from?: string; body: string },
): Promise<InboundResult> {
  if (deps.sms.provider !== 'simulator') throw notFound('The SMS simulator is off: Twilio is configured');
  const route = await runScoped(deps.db, scope, async (tx) => {
    if (input.candidateId) {
      const row = await loadCandidateInScope(tx, scope, input.candidateId);
      if (!row.phone) throw badRequest('candidateId: The candidate has no phone number', [{ path: 'candidateId', message: 'No phone number' }]);
      return { organizationId: row.organizationId, candidateId: row.id, from: row.phone };
    }
    const from = normalizePhone(input.from!);
    if (!from) throw badRequest('from: Not a valid phone number', [{ path: 'from', message: 'Not a valid phone number' }]);
    const outbound = await latestOutboundTo(tx, from);
    const organizationId = outbound && canReach(scope, outbound.organizationId) ? outbound.organizationId : scope.activeOrganization.id;
    return { organizationId, candidateId: null, from };
  });
  return receiveInboundSms(deps, { from: route.from, to: deps.sms.fromNumber, body: input.body, messageSid: `SIMIN${randomBytes(16).toString('hex')}` }, route);
}

export async function simulatorOutbox(
  deps: SmsDeps,
  scope: RequestScope,
  query: { organizationId?: string; organizationIds?: string[]; orgs?: string[]; candidateId?: string; limit: number },
) {
  if (deps.sms.provider !== 'simulator') throw notFound('The SMS simulator is off: Twilio is configured');
  const organizationIds = selectOrganizations(scope, query.organizationId, query.organizationIds, query.orgs);
  return runScoped(deps.db, scope, async (tx) => ({
    messages: (await outboundMessages(tx, { organizationIds, candidateId: query.candidateId, limit: query.limit })).map(toSmsMessage),
  }));
}
