import type { SmsMessage } from '../../../contract/sms';
import { normalizePhone } from '../../../contract/candidates';
import type { Transaction } from '../../db/scoped';
import { systemDb } from '../../db/system';
import { recordAudit } from '../../audit';
import { recordActivity } from '../../activity';
import { funnelSignals } from '../../funnel-signals';
import { eventTime, findCandidate, findCandidateByPhone, insertContactEvents, updateCandidateRow, type CandidateRow } from '../candidates/service';
import { ratingFrom, recordSatisfaction } from '../satisfaction/service';
import { classifyInbound, type KeywordAction } from './keywords';
import {
  candidateSmsOptOutAt,
  insertInboundOnce,
  insertSms,
  latestCandidateWithPhone,
  latestOutboundTo,
  latestTemplateSentTo,
  organizationName,
  phoneSmsOptOutAt,
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
    if (row && action === 'none') await funnelSignals.answered(tx, row.id, 'replied');
    if (row && action === 'opt_out') await funnelSignals.answered(tx, row.id, 'opted_out');
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
