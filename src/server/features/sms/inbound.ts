import type { SmsMessage } from '../../../contract/sms';
import { normalizePhone } from '../../../contract/candidates';
import { INTERNAL_ORGANIZATION_SLUG } from '../../../contract/organizations';
import { runAsOrganization, type Transaction } from '../../db/scoped';
import { systemDb } from '../../db/system';
import { findOrganizationBySlug } from '../../tenancy/organizations';
import { recordAudit } from '../../audit';
import { recordActivity } from '../../activity';
import { funnelSignals } from '../../funnel-signals';
import { eventTime, findCandidatesByPhone, insertContactEvents, updateCandidateRow, type CandidateRow } from '../candidates/service';
import { systemFindNumberOwner } from '../phone-numbers/service';
import { ratingFrom, recordSatisfaction } from '../satisfaction/service';
import { classifyInbound, consentKeyword, type KeywordAction } from './keywords';
import {
  candidateSmsOptOutAt,
  insertInboundOnce,
  insertSms,
  latestTemplateSentTo,
  organizationName,
  phoneSmsOptOutAt,
  systemOrganizationsThatTexted,
  type SmsRow,
} from './queries';
import { templateLanguage } from './templates';

import { toSmsMessage, type SmsDeps } from './message';

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

/** The answer to STOP, START and HELP, in the sender's language when they are known (carrier keywords stay as they are). */
export function keywordReply(action: KeywordAction, orgName: string, helpContact: string | undefined, language: 'en' | 'es' = 'en'): string | undefined {
  const name = orgName || 'Cohortly';
  const words = KEYWORD_REPLIES[language];
  switch (action) {
    case 'opt_out':
      return `${name}: ${words.optOut}`;
    case 'opt_in':
      return `${name}: ${words.optIn}`;
    case 'help':
      return `${name}: ${helpContact ?? words.helpContact} ${words.help}`;
    default:
      return undefined;
  }
}

const KEYWORD_REPLIES = {
  en: {
    optOut: 'You are unsubscribed and will receive no more messages. Reply START to resubscribe.',
    optIn: 'You are subscribed to messages again. Reply HELP for help, STOP to opt out.',
    helpContact: 'Reply to this message and the study team will get back to you.',
    help: 'Msg&data rates may apply. Reply STOP to opt out.',
  },
  es: {
    optOut: 'Se dio de baja y no recibirá más mensajes. Responda START para volver a suscribirse.',
    optIn: 'Volverá a recibir mensajes. Responda HELP para obtener ayuda, STOP para darse de baja.',
    helpContact: 'Responda a este mensaje y el equipo del estudio le contestará.',
    help: 'Pueden aplicarse tarifas de mensajes y datos. Responda STOP para darse de baja.',
  },
} as const;

/**
 * Which organizations an inbound message belongs to, from the number it was sent to (decision 118), on the
 * system path (ids only): the registry's owner of `to`; for a number no organization owns (the installation's
 * shared sender, a released number), the one organization that texted the person from it, as their handset
 * shows it; several such organizations share an opt-out or opt-in keyword, and nothing else. Empty: kept for
 * Cohortly's internal admins, never guessed.
 */
async function routeInbound(deps: SmsDeps, inbound: InboundSms, simulated?: SimulatedSender): Promise<string[]> {
  if (!inbound.to) return [];
  const system = systemDb(deps.db);
  const owner = await systemFindNumberOwner(system, inbound.to);
  if (owner) return !simulated || simulated.organizationIds.includes(owner.organizationId) ? [owner.organizationId] : [];
  const senders = (await systemOrganizationsThatTexted(system, inbound.from, inbound.to)).filter(
    (organizationId) => !simulated || simulated.organizationIds.includes(organizationId),
  );
  if (senders.length === 1 || (senders.length > 1 && consentKeyword(inbound.body))) return senders;
  return simulated ? [simulated.organizationId] : [];
}

/**
 * The simulator's handset is worked by staff, not by the person: its message reaches only organizations the
 * staff member may act for, and the organization whose number it was addressed to when none of them texted it.
 */
export interface SimulatedSender {
  organizationIds: readonly string[];
  organizationId: string;
}

/**
 * An inbound SMS, from the webhook or the simulator (same function): routed by the number it was sent to
 * (routeInbound), stored once per MessageSid in that organization under its row security, keywords applied
 * (STOP revokes consent at once, START re-subscribes, HELP answers), otherwise it joins the candidate's thread.
 * Keyword answers are TwiML replies, stored in the thread with purpose 'reply'; they are the only messages not
 * sent through sendSms, because carriers require them even after an opt-out.
 */
export async function receiveInboundSms(deps: SmsDeps, inbound: InboundSms, simulated?: SimulatedSender): Promise<InboundResult> {
  const message = { ...inbound, from: normalizePhone(inbound.from) ?? inbound.from.trim(), to: normalizePhone(inbound.to) ?? inbound.to.trim() };
  const organizationIds = await routeInbound(deps, message, simulated);
  if (organizationIds.length === 0) return keepUnrouted(deps, message);
  if (organizationIds.length === 1)
    return runAsOrganization(deps.db, organizationIds[0], (tx) => receiveInOrganization(deps, tx, organizationIds[0], message, false));
  // One keyword, several senders behind one number: each organization records it under its own copy's id.
  let first: InboundResult | undefined;
  for (const organizationId of organizationIds) {
    const copy = { ...message, messageSid: `${message.messageSid}/${organizationId}` };
    const result = await runAsOrganization(deps.db, organizationId, (tx) => receiveInOrganization(deps, tx, organizationId, copy, true));
    first ??= result;
  }
  return first!;
}

/**
 * A text to a number no organization owns, with no conversation to join: stored in Cohortly's own
 * organization for its internal admins (GET /api/sms/unrouted), no keyword applied, nothing answered.
 */
async function keepUnrouted(deps: SmsDeps, inbound: InboundSms): Promise<InboundResult> {
  const action = classifyInbound(inbound.body);
  const internal = await findOrganizationBySlug(systemDb(deps.db), INTERNAL_ORGANIZATION_SLUG);
  deps.logger.warn({ provider: deps.sms.provider, keyword: action }, 'inbound sms to a number no organization owns');
  if (!internal) return { message: null, action, twiml: twiml() };
  return runAsOrganization(deps.db, internal.id, async (tx) => {
    const stored = await insertInboundOnce(tx, {
      organizationId: internal.id,
      candidateId: null,
      direction: 'inbound',
      toPhone: inbound.to,
      fromPhone: inbound.from,
      body: inbound.body,
      status: 'received',
      purpose: 'reply',
      provider: deps.sms.provider,
      providerMessageId: inbound.messageSid,
      createdAt: eventTime(),
    });
    if (stored)
      await recordAudit(tx, {
        organizationId: internal.id,
        actorUserId: null,
        action: 'sms.inbound_unrouted',
        entityType: 'sms_message',
        entityId: stored.id,
        changes: { keyword: action },
      });
    return { message: stored ? toSmsMessage(stored) : null, action, twiml: twiml() };
  });
}

/** One organization's handling of an inbound message, in its row-security transaction. `shared`: several organizations got it. */
async function receiveInOrganization(deps: SmsDeps, tx: Transaction, organizationId: string, inbound: InboundSms, shared: boolean): Promise<InboundResult> {
  const from = inbound.from;
  const people = await findCandidatesByPhone(tx, organizationId, from);
  const row: CandidateRow | undefined = people[0];
  const phoneOptOut = await phoneSmsOptOutAt(tx, organizationId, from);
  const candidateOptOut = row && !row.consentSms ? await candidateSmsOptOutAt(tx, row.id) : null;
  const action = classifyInbound(inbound.body, Boolean(phoneOptOut || candidateOptOut));

  const stored = await insertInboundOnce(tx, {
    organizationId,
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
    { organizationId, candidateId: row?.id ?? null, kind: 'sms_replied', source: 'sms', label: action === 'none' ? 'reply' : action, referenceId: stored.id },
  ]);
  if (row) {
    await insertContactEvents(tx, [
      {
        organizationId,
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
    organizationId,
    actorUserId: null,
    action: 'sms.inbound',
    entityType: 'sms_message',
    entityId: stored.id,
    changes: { candidateId: row?.id ?? null, keyword: action },
  });

  // A reply ends the person's outreach (sequences that end on a reply); STOP ends all of it.
  if (row && action === 'none') await funnelSignals.answered(tx, row.id, 'replied');
  if (action === 'opt_out' || action === 'opt_in') await applyConsentKeyword(tx, people, action, stored.id, actor);

  const rated = row && action === 'none' ? await recordFeedbackReply(tx, row, inbound.body) : false;
  const senderName = shared ? '' : ((await organizationName(tx, organizationId)) ?? '');
  const language = templateLanguage(row?.preferredLanguage);
  const reply = rated ? FEEDBACK_THANKS[language] : keywordReply(action, senderName, deps.config.sms.helpContact, language);
  if (reply) await storeReply(deps, tx, stored, row, reply, rated ? 'feedback_thanks' : `keyword_${action}`);
  return { message: toSmsMessage(stored), action, twiml: twiml(reply) };
}

/**
 * STOP or START from a number, for every candidate of the organization with it. STOP revokes consent on every
 * channel of this organization (FCC 2025 revocation rule, decision 118): SMS and calls off, and their outreach
 * sequences ended; START re-subscribes SMS only (calls need the person's consent again, recorded by staff).
 */
async function applyConsentKeyword(
  tx: Transaction,
  people: CandidateRow[],
  action: 'opt_out' | 'opt_in',
  messageId: string,
  actor: { actorUserId: null; actorLabel: string },
): Promise<void> {
  const turnOn = action === 'opt_in';
  for (const person of people) {
    if (!turnOn) await funnelSignals.answered(tx, person.id, 'opted_out');
    const callsOff = !turnOn && person.consentCalls;
    await updateCandidateRow(tx, person.id, {
      consentSms: turnOn,
      ...(callsOff ? { consentCalls: false, consentCallsSource: null, consentCallsAt: null } : {}),
    });
    const consent = { sms: { from: person.consentSms, to: turnOn }, ...(callsOff ? { calls: { from: true, to: false } } : {}) };
    await insertContactEvents(tx, [
      {
        organizationId: person.organizationId,
        candidateId: person.id,
        kind: 'consent',
        summary: turnOn ? 'Consent: SMS on (replied START)' : `Consent: SMS${callsOff ? ' and calls' : ''} off (replied STOP)`,
        details: { ...consent, source: 'sms_keyword', messageId },
        referenceId: messageId,
        channel: 'sms',
        actorUserId: actor.actorUserId,
        actorLabel: person.id === people[0].id ? actor.actorLabel : 'SMS',
      },
    ]);
    await recordAudit(tx, {
      organizationId: person.organizationId,
      actorUserId: null,
      action: turnOn ? 'candidate.consent.sms_opt_in' : 'candidate.consent.sms_opt_out',
      entityType: 'candidate',
      entityId: person.id,
      changes: { consent, source: 'sms_keyword' },
    });
  }
}

/** A keyword's or rating's answer, stored in the thread as sent (it leaves as the webhook's TwiML). */
async function storeReply(deps: SmsDeps, tx: Transaction, inbound: SmsRow, row: CandidateRow | undefined, reply: string, templateKey: string) {
  const replyRow = await insertSms(tx, {
    organizationId: inbound.organizationId,
    candidateId: row?.id ?? null,
    direction: 'outbound',
    toPhone: inbound.fromPhone,
    fromPhone: inbound.toPhone,
    body: reply,
    status: 'sent',
    purpose: 'reply',
    provider: deps.sms.provider,
    templateKey,
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

export const FEEDBACK_THANKS = { en: 'Thank you for your feedback!', es: '¡Gracias por su opinión!' } as const;
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
