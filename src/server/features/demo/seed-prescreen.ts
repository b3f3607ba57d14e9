/**
 * The demo's prescreen outcome: the result a person's call or chat left (answers drawn from the trial's bank for
 * the recommendation), the coordinator's review of it (agreeing, overriding, or not yet), and for a few approved
 * people a visit they did not come to.
 */
import { reviewAgreement } from '../../activity';
import { closing, initialState } from '../chat/dialogue';
import type { Recommendation } from '../prescreen/engine';
import { bookVisit, changeStatus, chatActivity, placeCall, rate, uniqueSlot, visitOutcome, visitTime } from './seed-activity';
import { addActivity, COORDINATOR, DAY, type DemoPerson, HOUR, MINUTE, type SeedContext } from './seed-context';

/** The prescreen step, passed or failed: its source (call or chat), result, events, review and a possible no-show. */
export function writePrescreen(ctx: SeedContext, person: DemoPerson, passed: boolean, at: number) {
  const goesFurther = person.target === 'visit_scheduled' || person.target === 'enrolled';
  const outcome = drawOutcome(ctx, person, passed, goesFurther);
  const resultId = ctx.dice.uuid();
  person.resultId = resultId;
  person.resultAt = at;
  const sourceId =
    person.prescreenChannel === 'call' ? prescreenCall(ctx, person, at, outcome.sample) : prescreenChat(ctx, person, at, outcome.aiRecommendation);
  const decidedAt = at + ctx.dice.int(2, 30) * HOUR;
  const decision = outcome.reviewed && decidedAt < ctx.end ? reviewDecision(passed, outcome.override, decidedAt) : null;
  writeResult(ctx, person, { resultId, sourceId, at, decidedAt, decision, ...outcome });
  changeStatus(ctx, person, passed ? 'prescreen_passed' : 'prescreen_failed', at + 1000, person.prescreenChannel);
  if (decision) writeReview(ctx, person, resultId, outcome.aiRecommendation, passed, decision, decidedAt);
  // A few approved people were booked and did not come (they stay prescreen_passed).
  if (passed && !goesFurther && decision && ctx.dice.chance(0.2)) noShow(ctx, person, decidedAt);
}

/**
 * The chat's last message, by the live chat's own `closing` (decision 200): the agent's closing text only when the
 * outcome keeps its promise of contact, else a thank-you and what happens next. The person gave their name and
 * agreed to be contacted, and their phone was verified (the conversation row says so).
 */
function closingMessages(ctx: SeedContext, person: DemoPerson, recommendation: Recommendation) {
  const agent = ctx.data.chatAgents.find((row) => row.id === person.trial.chatAgentId);
  if (!agent) throw new Error('the demo trial has no chat agent');
  const state = { ...initialState(person.language), firstName: person.firstName, consent: true, phoneVerified: true, ended: 'completed' as const };
  return closing(
    {
      agent: { closingMessage: agent.closingMessage, requirePhoneVerification: agent.requirePhoneVerification ?? false, nextStep: agent.nextStep ?? 'none' },
    },
    state,
    recommendation,
  );
}

/** What the AI said, and whether a reviewer looked (all who went on to a visit were approved). */
function drawOutcome(ctx: SeedContext, person: DemoPerson, passed: boolean, goesFurther: boolean) {
  const { dice } = ctx;
  const answers = person.trial.answers;
  const reviewed = goesFurther || dice.chance(passed ? 0.65 : 0.55);
  const override = reviewed && dice.chance(0.1);
  let recommendation: Recommendation;
  if (passed) recommendation = override ? dice.pick(['FAIL', 'INCONCLUSIVE'] as const) : dice.chance(0.75) ? 'PASS' : 'POTENTIAL';
  else recommendation = override ? 'POTENTIAL' : dice.chance(0.85) ? 'FAIL' : 'INCONCLUSIVE';
  const bank = answers.get(recommendation) ?? answers.get(passed ? 'POTENTIAL' : 'FAIL') ?? answers.get('INCONCLUSIVE')!;
  const sample = dice.pick(bank);
  // The recommendation the sample really carries when the bank had none of the one drawn.
  const fallback: Recommendation = passed ? (answers.has('POTENTIAL') ? 'POTENTIAL' : 'INCONCLUSIVE') : answers.has('FAIL') ? 'FAIL' : 'INCONCLUSIVE';
  const aiRecommendation = answers.has(recommendation) ? recommendation : fallback;
  return { reviewed, override, sample, aiRecommendation };
}

type Sample = ReturnType<typeof drawOutcome>['sample'];
type Decision = ReturnType<typeof reviewDecision>;

function reviewDecision(passed: boolean, override: boolean, decidedAt: number) {
  return {
    decision: passed ? 'approve' : 'reject',
    reason: passed ? (override ? 'Coordinator confirmed eligibility by phone' : null) : 'Does not meet the criteria',
    overrideRecommendation: override ? (passed ? 'PASS' : 'FAIL') : null,
    overrideReason: override ? (passed ? 'Coordinator confirmed eligibility by phone' : 'Does not meet the criteria') : null,
    decidedByUserId: null,
    decidedByName: COORDINATOR,
    decidedAt: new Date(decidedAt).toISOString(),
  };
}

/** The prescreen call that ended at `at`, with a short transcript and the answers the agent recorded. */
function prescreenCall(ctx: SeedContext, person: DemoPerson, at: number, sample: Sample) {
  const es = person.language === 'es';
  const seconds = ctx.dice.int(240, 840);
  const callId = placeCall(ctx, person, at - seconds * 1000, 'completed', seconds, {
    prescreenResultId: person.resultId,
    transcript: [
      {
        role: 'assistant',
        text: es ? 'Hola, le llama Ava sobre el estudio. ¿Tiene unos minutos?' : 'Hi, this is Ava calling about the study. Do you have a few minutes?',
      },
      { role: 'user', text: es ? 'Sí, claro.' : 'Sure, go ahead.' },
      { role: 'assistant', text: es ? 'Gracias. Le haré unas preguntas breves.' : 'Thank you. I will ask a few short questions.' },
      { role: 'assistant', text: es ? 'Eso es todo. Un coordinador revisará sus respuestas.' : 'That is all. A coordinator will review your answers.' },
    ],
    // What the agent recorded, as the calls feature reads it ({ questionId: value }).
    structuredData: {
      answers: Object.fromEntries((sample.answers as Array<{ questionId: string; value: unknown }>).map((answer) => [answer.questionId, answer.value])),
    },
  });
  if (ctx.dice.chance(0.35)) rate(ctx, person, 'call', at + 2 * MINUTE, person.trial.voiceAgentId, callId);
  return callId;
}

/** The prescreen chat completed at `at`, begun a few minutes before, ending as the live chat ends for its outcome. */
function prescreenChat(ctx: SeedContext, person: DemoPerson, at: number, recommendation: Recommendation) {
  const es = person.language === 'es';
  const conversationId = ctx.dice.uuid();
  const begun = at - ctx.dice.int(4, 15) * MINUTE;
  const org = ctx.org;
  ctx.data.conversations.push({
    id: conversationId,
    organizationId: org,
    chatAgentId: person.trial.chatAgentId,
    candidateId: person.id,
    status: 'COMPLETED',
    language: person.language,
    tokenHash: `demo-${conversationId}`,
    phone: person.phone,
    phoneVerifiedAt: new Date(begun),
    state: {},
    prescreenResultId: person.resultId,
    completedAt: new Date(at),
    createdAt: new Date(begun),
    updatedAt: new Date(at),
  });
  ctx.data.chatMessages.push(
    {
      organizationId: org,
      conversationId,
      role: 'agent',
      text: es ? 'Hola. ¿Empezamos con unas preguntas breves?' : 'Hello! Shall we start with a few short questions?',
      createdAt: new Date(begun),
    },
    { organizationId: org, conversationId, role: 'visitor', text: es ? 'Sí' : 'Yes', createdAt: new Date(begun + MINUTE) },
    ...closingMessages(ctx, person, recommendation).map((reply) => ({
      organizationId: org,
      conversationId,
      role: 'agent' as const,
      text: reply.text,
      meta: { kind: reply.kind },
      createdAt: new Date(at),
    })),
  );
  const common = chatActivity(person, conversationId);
  addActivity(ctx, { ...common, kind: 'chat_started', occurredAt: new Date(begun) });
  addActivity(ctx, { ...common, kind: 'chat_completed', occurredAt: new Date(at) });
  addActivity(ctx, {
    ...common,
    kind: 'spend',
    label: 'llm_tokens',
    value: Math.round(ctx.dice.between(0.004, 0.03) * 10_000) / 10_000,
    occurredAt: new Date(at),
  });
  ctx.data.contactEvents.push({
    organizationId: org,
    candidateId: person.id,
    kind: 'chat',
    summary: 'Chat completed',
    details: { conversationId },
    referenceId: conversationId,
    actorLabel: 'Chat agent',
    occurredAt: new Date(at),
  });
  if (ctx.dice.chance(0.4)) rate(ctx, person, 'chat', at + MINUTE, person.trial.chatAgentId, conversationId);
  return conversationId;
}

interface ResultParts {
  resultId: string;
  sourceId: string;
  at: number;
  decidedAt: number;
  decision: Decision | null;
  sample: Sample;
  aiRecommendation: Recommendation;
}

/** The prescreen result row, its contact event and its activity event (hours from first contact to result). */
function writeResult(ctx: SeedContext, person: DemoPerson, parts: ResultParts) {
  const { resultId, sourceId, at, decidedAt, decision, sample, aiRecommendation } = parts;
  const { trial } = person;
  const channel = person.prescreenChannel;
  const passed = decision?.decision === 'approve';
  ctx.data.results.push({
    id: resultId,
    organizationId: ctx.org,
    candidateId: person.id,
    trialId: trial.id,
    formId: trial.formId,
    formVersionId: trial.formVersionId,
    sourceType: channel,
    sourceId,
    answers: sample.answers,
    evaluations: sample.evaluations,
    aiRecommendation,
    aiReasons: sample.reasons,
    reviewStatus: decision ? (passed ? 'approved' : 'rejected') : 'pending',
    decision,
    createdAt: new Date(at),
    updatedAt: new Date(decision ? decidedAt : at),
  });
  ctx.data.contactEvents.push({
    organizationId: ctx.org,
    candidateId: person.id,
    kind: 'prescreen',
    summary: `Prescreen (${channel}): ${aiRecommendation}`,
    details: { resultId, formId: trial.formId, formVersion: 1, sourceType: channel, recommendation: aiRecommendation },
    referenceId: resultId,
    actorLabel: channel === 'call' ? 'Voice agent' : 'Chat agent',
    occurredAt: new Date(at),
  });
  const firstContact = person.steps[0]?.at ?? person.createdMs;
  addActivity(ctx, {
    kind: 'prescreen_result',
    source: channel,
    trialId: trial.id,
    candidateId: person.id,
    label: aiRecommendation,
    value: Math.round(((at - firstContact) / HOUR) * 10) / 10,
    agentId: channel === 'call' ? trial.voiceAgentId : trial.chatAgentId,
    referenceId: resultId,
    occurredAt: new Date(at),
  });
}

/** The coordinator's decision, as prescreen's decide() records it: agree, override or resolved, by the result's channel. */
function writeReview(
  ctx: SeedContext,
  person: DemoPerson,
  resultId: string,
  aiRecommendation: Recommendation,
  passed: boolean,
  decision: Decision,
  decidedAt: number,
) {
  const override = decision.overrideRecommendation;
  ctx.data.contactEvents.push({
    organizationId: ctx.org,
    candidateId: person.id,
    kind: 'decision',
    summary: `Prescreen ${passed ? 'approved' : 'rejected'}${override ? `; recommendation overridden: ${aiRecommendation} -> ${override}` : ''}`,
    details: { resultId, decision: decision.decision, aiRecommendation, overrideRecommendation: override },
    referenceId: resultId,
    actorLabel: COORDINATOR,
    occurredAt: new Date(decidedAt),
  });
  const agreement = reviewAgreement(aiRecommendation, passed ? 'approve' : 'reject', override);
  addActivity(ctx, {
    kind: 'review_decision',
    source: person.prescreenChannel,
    trialId: person.trial.id,
    candidateId: person.id,
    label: agreement,
    value: agreement === 'override' ? 1 : 0,
    referenceId: resultId,
    occurredAt: new Date(decidedAt),
  });
}

/** A visit booked after the approval that the person did not come to. */
function noShow(ctx: SeedContext, person: DemoPerson, decidedAt: number) {
  const bookedAt = decidedAt + ctx.dice.int(2, 24) * HOUR;
  const visitAt = visitTime(ctx, person.site, bookedAt + ctx.dice.int(2, 7) * DAY);
  // Decided on time relative to now only (not the visit's clock hour), so a reset gives the same counts.
  if (bookedAt + 9 * DAY >= ctx.end) return;
  // The slot is taken, though the visit keeps its drawn time (as the seed has always written it).
  uniqueSlot(ctx, person.trial.id, person.site.id, visitAt);
  const bookingId = ctx.dice.uuid();
  bookVisit(ctx, person, bookingId, bookedAt, visitAt, 'no_show');
  visitOutcome(ctx, person, 'visit_no_show', bookingId, visitAt, 'No-show at the screening visit');
}
