import { randomBytes } from 'node:crypto';
import type { SmsBlockReason, SmsMessage, SmsTemplateKey } from '../../../contract/sms';
import { normalizePhone } from '../../../contract/candidates';
import { canReach, runScoped, selectOrganizations, type RequestScope } from '../../auth/scope';
import type { Transaction } from '../../db/scoped';
import { AppError, badRequest, forbidden, notFound } from '../../http/errors';
import { findCandidate, type CandidateRow } from '../candidates/service';
import { organizationSmsNumber } from '../phone-numbers/service';
import { inboundWithoutCandidate, lastMessages, latestOutboundTo, outboundMessages, threadMessages, threadSummaries, unansweredCounts } from './queries';
import { listTemplates, SMS_TEMPLATES } from './templates';

import { toSmsMessage, type SmsDeps } from './message';
import { consentSubjectOf, sendSms, smsPermission } from './send';
import { receiveInboundSms, type InboundResult } from './inbound';

// The SMS feature's surface: sending (send.ts), delivery status (delivery-status.ts), inbound messages
// (inbound.ts), and staff's threads below.
export { INBOUND_PATH, STATUS_CALLBACK_PATH, toSmsMessage, type SmsDeps } from './message';
export * from './send';
export * from './delivery-status';
export * from './inbound';

export { contactPermission } from './consent';
/** Whether a question (a template) was sent to a person since a moment: the visit-feedback job asks once. */
export { latestTemplateSentTo } from './queries';

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

/**
 * The simulator's "phone": a reply from a candidate (or any number) through the same handler as the webhook,
 * sent to the number the person would answer (decision 118): the one that texted them last in the organization,
 * else the organization's own SMS number, else the shared sender. Routing then reads that number, as for Twilio.
 */
export async function simulateInbound(
  deps: SmsDeps,
  scope: RequestScope,
  input: { candidateId?: string; from?: string; body: string },
): Promise<InboundResult> {
  if (deps.sms.provider !== 'simulator') throw notFound('The SMS simulator is off: Twilio is configured');
  const message = await runScoped(deps.db, scope, async (tx) => {
    let from: string | null;
    let organizationIds: string[];
    if (input.candidateId) {
      const row = await loadCandidateInScope(tx, scope, input.candidateId);
      if (!row.phone) throw badRequest('candidateId: The candidate has no phone number', [{ path: 'candidateId', message: 'No phone number' }]);
      from = row.phone;
      organizationIds = [row.organizationId];
    } else {
      from = normalizePhone(input.from!);
      if (!from) throw badRequest('from: Not a valid phone number', [{ path: 'from', message: 'Not a valid phone number' }]);
      organizationIds = scope.reachableOrganizationIds;
    }
    const last = await latestOutboundTo(tx, from, organizationIds);
    const organizationId = last?.organizationId ?? (input.candidateId ? organizationIds[0] : scope.activeOrganization.id);
    const to = last?.fromPhone || (await organizationSmsNumber(tx, organizationId)) || deps.sms.fromNumber;
    return { from, to, organizationId, organizationIds };
  });
  const inbound = { from: message.from, to: message.to, body: input.body, messageSid: `SIMIN${randomBytes(16).toString('hex')}` };
  return receiveInboundSms(deps, inbound, { organizationIds: message.organizationIds, organizationId: message.organizationId });
}

/** Texts to numbers no organization owns, kept in Cohortly's own organization (decision 118): internal admins with global scope only. */
export async function listUnroutedInbound(deps: SmsDeps, scope: RequestScope, query: { limit: number }) {
  if (!scope.isAdmin || !scope.global) throw forbidden("Only Cohortly's internal admins (with the Cohortly organization active) see unrouted messages");
  return runScoped(deps.db, scope, async (tx) => ({
    messages: (await inboundWithoutCandidate(tx, scope.activeOrganization.id, query.limit)).map(toSmsMessage),
  }));
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
