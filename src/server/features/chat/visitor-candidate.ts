import { and, eq } from 'drizzle-orm';
import { DateOfBirthSchema } from '../../../contract/candidates';
import { candidateFieldOf, profileValueOf } from '../../../contract/prescreen-forms';
import { deriveTimeZone } from '../../../contract/zone-derivation';
import { recordAudit, rowChange } from '../../audit';
import { candidate as candidateTable } from '../../db/schema';
import {
  findCandidate,
  findCandidateByPhone,
  insertCandidate,
  insertContactEvents,
  linkTrial,
  updateCandidateRow,
  type CandidateRow,
  type NewCandidateRow,
} from '../candidates/service';
import { flatQuestions, type DialogueState } from './dialogue';
import { CHAT_ACTOR, type TurnContext } from './turn';

/** The visitor in the organization's candidates: found by a verified phone, or created from the chat. */

/** The documented source of consent a visitor states in a chat. */
const CHAT_CONSENT_SOURCE = 'Web chat (stated by the visitor)';

/**
 * The candidate of this organization with the phone, or a new one (source web_chat, the first name given in
 * the chat, consent as stated). A verified phone links an existing candidate; an unverified one (typed at the
 * end of a chat without verification) never does: a new candidate keeps it aside in customFields.
 */
export async function findOrCreateCandidate(turn: TurnContext, state: DialogueState, phone: string | null, verified: boolean): Promise<CandidateRow> {
  const { tx, conversation, loaded } = turn;
  const organizationId = conversation.organizationId;
  const existing = phone ? await findCandidateByPhone(tx, organizationId, phone) : undefined;
  let row: CandidateRow;
  if (existing && verified) {
    row = existing;
    if (state.consent !== null && (existing.consentSms !== state.consent || existing.consentCalls !== state.consent)) {
      const at = state.consent ? new Date() : null;
      const source = state.consent ? CHAT_CONSENT_SOURCE : null;
      row = await updateCandidateRow(tx, existing.id, {
        consentSms: state.consent,
        consentCalls: state.consent,
        consentSmsSource: source,
        consentSmsAt: at,
        consentCallsSource: source,
        consentCallsAt: at,
      });
      await insertContactEvents(tx, [
        {
          organizationId,
          candidateId: row.id,
          kind: 'consent',
          summary: `Consent: SMS ${state.consent ? 'on' : 'off'}, calls ${state.consent ? 'on' : 'off'} (stated in chat)`,
          details: {
            sms: { from: existing.consentSms, to: state.consent },
            calls: { from: existing.consentCalls, to: state.consent },
            conversationId: conversation.id,
          },
          referenceId: conversation.id,
          actorLabel: CHAT_ACTOR.label,
        },
      ]);
      await recordAudit(tx, {
        organizationId,
        actorUserId: null,
        action: 'candidate.update',
        entityType: 'candidate',
        entityId: row.id,
        changes: { consent: ['sms', 'calls'], source: 'chat', conversationId: conversation.id },
      });
    }
  } else {
    const keepAside = Boolean(existing && !verified);
    // An email typed at the end (verification off) is kept aside too when another candidate has it.
    const email = verified ? null : (state.contactEmail ?? null);
    const emailTaken = email
      ? (
          await tx
            .select({ id: candidateTable.id })
            .from(candidateTable)
            .where(and(eq(candidateTable.organizationId, organizationId), eq(candidateTable.email, email)))
        ).length > 0
      : false;
    const consented = state.consent === true;
    const now = new Date();
    row = await insertCandidate(tx, {
      organizationId,
      firstName: state.firstName ?? 'Chat visitor',
      phone: keepAside ? null : phone,
      email: emailTaken ? null : email,
      timeZone: deriveTimeZone({ phone: keepAside ? null : phone })?.timeZone ?? null,
      preferredLanguage: state.language,
      source: 'web_chat',
      consentSms: consented,
      consentCalls: consented,
      consentSmsSource: consented ? CHAT_CONSENT_SOURCE : null,
      consentSmsAt: consented ? now : null,
      consentCallsSource: consented ? CHAT_CONSENT_SOURCE : null,
      consentCallsAt: consented ? now : null,
      customFields: { ...(keepAside ? { chatPhoneUnverified: phone } : {}), ...(emailTaken ? { chatEmailUnverified: email } : {}) },
    });
    await insertContactEvents(tx, [
      {
        organizationId,
        candidateId: row.id,
        kind: 'created',
        summary: 'Added from a web chat',
        details: { source: 'web_chat', status: row.status, conversationId: conversation.id },
        referenceId: conversation.id,
        actorLabel: CHAT_ACTOR.label,
      },
      ...(consented
        ? [
            {
              organizationId,
              candidateId: row.id,
              kind: 'consent' as const,
              summary: `Consent: SMS on, calls on (${CHAT_CONSENT_SOURCE}, ${now.toISOString().slice(0, 10)})`,
              details: {
                sms: { from: false, to: true },
                calls: { from: false, to: true },
                source: CHAT_CONSENT_SOURCE,
                consentAt: now.toISOString(),
                conversationId: conversation.id,
              },
              referenceId: conversation.id,
              actorLabel: CHAT_ACTOR.label,
            },
          ]
        : []),
    ]);
    await recordAudit(tx, {
      organizationId,
      actorUserId: null,
      action: 'candidate.create',
      entityType: 'candidate',
      entityId: row.id,
      changes: { source: 'web_chat', conversationId: conversation.id, phoneVerified: verified, consent: state.consent, isTest: conversation.isTest },
    });
  }
  await linkTrial(tx, organizationId, loaded.trialId, [row.id]);
  await insertContactEvents(tx, [
    {
      organizationId,
      candidateId: row.id,
      kind: 'chat',
      summary: conversation.isTest ? 'Chat started (test)' : 'Chat started',
      details: { conversationId: conversation.id, chatAgentId: turn.agent.id, phoneVerified: verified },
      referenceId: conversation.id,
      actorLabel: CHAT_ACTOR.label,
    },
  ]);
  return row;
}

/**
 * Answers that are candidate fields (date of birth, sex; the chat's language) fill the candidate's empty
 * fields: a contact event names the fields (never the values), and an audit record.
 */
export async function saveProfileAnswers(turn: TurnContext, candidateId: string, state: DialogueState): Promise<void> {
  const { tx, loaded, conversation } = turn;
  const row = await findCandidate(tx, candidateId, true);
  if (!row) return;
  const values: Partial<NewCandidateRow> = {};
  for (const question of flatQuestions(loaded.ctx.blocks)) {
    const field = candidateFieldOf(question);
    const answer = state.answers.find((recorded) => recorded.questionId === question.id);
    if (!field || !answer) continue;
    const value = profileValueOf(question, field, answer.value);
    if (!value) continue;
    if (field === 'dateOfBirth' && !row.dateOfBirth && DateOfBirthSchema.safeParse(value).success) values.dateOfBirth = value;
    if (field === 'sex' && row.sex === 'unknown') values.sex = value as NewCandidateRow['sex'];
  }
  if (row.preferredLanguage !== state.language && row.source === 'web_chat') values.preferredLanguage = state.language;
  const fields = Object.keys(values);
  if (!fields.length) return;
  await updateCandidateRow(tx, row.id, values);
  await insertContactEvents(tx, [
    {
      organizationId: row.organizationId,
      candidateId: row.id,
      kind: 'updated',
      summary: `Details from chat: ${fields.join(', ')}`,
      details: { fields, conversationId: conversation.id },
      referenceId: conversation.id,
      actorLabel: CHAT_ACTOR.label,
    },
  ]);
  await recordAudit(tx, rowChange(null, row, 'candidate.update', 'candidate', { fields, source: 'chat', conversationId: conversation.id }));
}
