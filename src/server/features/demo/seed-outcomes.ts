/**
 * The demo's outcomes step: a person's way through the funnel, one step at a time, with what each step leaves
 * (outreach, prescreen by call or chat with its result and review, visits, declines, opt-outs).
 */
import type { CandidateStatus } from '../../../contract/candidates';
import { bookVisit, changeStatus, chatActivity, placeCall, rate, receiveSms, sendSms, uniqueSlot, visitOutcome, visitTime } from './seed-activity';
import { addActivity, COORDINATOR, DAY, DEMO_ORGANIZATION_NAME, type DemoPerson, HOUR, MINUTE, type SeedContext } from './seed-context';
import { writePrescreen } from './seed-prescreen';

/** Writes every step the person took, then their final status on their row. */
export function walkFunnel(ctx: SeedContext, person: DemoPerson) {
  for (const step of person.steps) {
    writeStep(ctx, person, step.status, step.at);
    if (step.status === 'enrolled' && person.status !== 'enrolled') break;
    person.previous = step.status;
  }
  ctx.data.candidates[ctx.data.candidates.length - 1].status = person.status;
}

function writeStep(ctx: SeedContext, person: DemoPerson, status: CandidateStatus, at: number) {
  switch (status) {
    case 'contacted':
      return contact(ctx, person, at);
    case 'prescreening':
      return startPrescreen(ctx, person, at);
    case 'prescreen_passed':
    case 'prescreen_failed':
      return writePrescreen(ctx, person, status === 'prescreen_passed', at);
    case 'visit_scheduled':
      return scheduleVisit(ctx, person, at);
    case 'enrolled':
      if (person.status === 'enrolled') changeStatus(ctx, person, 'enrolled', at, 'manual');
      return;
    case 'not_interested':
      if (person.contactChannel === 'sms') receiveSms(ctx, person, at, person.language === 'es' ? 'No, gracias' : 'No thanks, not interested');
      else placeCall(ctx, person, at, 'declined', ctx.dice.int(30, 120));
      return changeStatus(ctx, person, 'not_interested', at + MINUTE, person.contactChannel);
    case 'unreachable': {
      const attempts = ctx.dice.int(1, 3);
      for (let attempt = 0; attempt < attempts; attempt++)
        placeCall(ctx, person, at - (attempts - attempt - 1) * DAY, ctx.dice.pick(['no_answer', 'voicemail', 'busy']), ctx.dice.int(5, 40));
      return changeStatus(ctx, person, 'unreachable', at + HOUR, 'call');
    }
    case 'do_not_contact':
      return optOut(ctx, person, at);
    default:
      return;
  }
}

/** The first contact: an outreach text (answered by some) or a call. */
function contact(ctx: SeedContext, person: DemoPerson, at: number) {
  const spanish = person.language === 'es';
  if (person.contactChannel === 'sms') {
    sendSms(
      ctx,
      person,
      at,
      spanish
        ? `Hola ${person.firstName}, ${DEMO_ORGANIZATION_NAME} tiene un estudio que podría interesarle. Responda SI para saber más o STOP para no recibir mensajes.`
        : `Hi ${person.firstName}, ${DEMO_ORGANIZATION_NAME} has a study that may interest you. Reply YES to learn more or STOP to opt out.`,
      'demo_outreach',
      'marketing',
    );
    if (person.target !== 'do_not_contact' && person.target !== 'not_interested' && ctx.dice.chance(0.55))
      receiveSms(ctx, person, at + ctx.dice.int(5, 600) * MINUTE, spanish ? 'Sí, me interesa' : 'Yes, tell me more');
  } else {
    placeCall(ctx, person, at, 'completed', ctx.dice.int(60, 180));
  }
  changeStatus(ctx, person, 'contacted', at + MINUTE, person.contactChannel);
}

/** Prescreening begins; half of those still at it by chat have a conversation open. */
function startPrescreen(ctx: SeedContext, person: DemoPerson, at: number) {
  changeStatus(ctx, person, 'prescreening', at, person.prescreenChannel);
  if (!(person.status === 'prescreening' && person.prescreenChannel === 'chat' && ctx.dice.chance(0.5))) return;
  const conversationId = ctx.dice.uuid();
  ctx.data.conversations.push({
    id: conversationId,
    organizationId: ctx.org,
    chatAgentId: person.trial.chatAgentId,
    candidateId: person.id,
    status: 'ONGOING',
    language: person.language,
    tokenHash: `demo-${conversationId}`,
    phone: person.phone,
    phoneVerifiedAt: new Date(at),
    state: {},
    createdAt: new Date(at),
    updatedAt: new Date(at + 3 * MINUTE),
  });
  ctx.data.chatMessages.push(
    {
      organizationId: ctx.org,
      conversationId,
      role: 'agent',
      text: 'Hello! I can check whether the study may suit you. Shall we start?',
      createdAt: new Date(at),
    },
    { organizationId: ctx.org, conversationId, role: 'visitor', text: person.language === 'es' ? 'Sí' : 'Yes', createdAt: new Date(at + MINUTE) },
  );
  addActivity(ctx, { ...chatActivity(person, conversationId), kind: 'chat_started', occurredAt: new Date(at) });
}

/** A visit booked after the approval: past and attended for the enrolled, ahead for those still scheduled. */
function scheduleVisit(ctx: SeedContext, person: DemoPerson, at: number) {
  const { site, trial } = person;
  const bookedAt = Math.max(at, person.resultAt + 3 * HOUR);
  const enrolledStep = person.steps.find((item) => item.status === 'enrolled');
  const visitAt = enrolledStep
    ? uniqueSlot(ctx, trial.id, site.id, visitTime(ctx, site, enrolledStep.at - DAY))
    : uniqueSlot(ctx, trial.id, site.id, visitTime(ctx, site, ctx.end + ctx.dice.int(1, 14) * DAY));
  const bookingId = ctx.dice.uuid();
  const attended = Boolean(enrolledStep) && visitAt < ctx.end;
  bookVisit(ctx, person, bookingId, bookedAt, visitAt, attended ? 'completed' : 'scheduled');
  ctx.data.contactEvents.push({
    organizationId: ctx.org,
    candidateId: person.id,
    kind: 'booking',
    summary: `Visit booked at ${site.name}`,
    details: { bookingId, siteId: site.id },
    referenceId: bookingId,
    actorLabel: COORDINATOR,
    occurredAt: new Date(bookedAt),
  });
  changeStatus(ctx, person, 'visit_scheduled', bookedAt + 1000, 'manual');
  const confirmation = person.language === 'es' ? `Su visita en ${site.name} está confirmada.` : `Your visit at ${site.name} is confirmed.`;
  sendSms(ctx, person, bookedAt + 2000, confirmation, 'booking_confirmation', 'transactional');
  // How easy booking was: the SMS question after the confirmation, answered by some (decision 067).
  if (ctx.dice.chance(0.3)) rate(ctx, person, 'sms', bookedAt + 3 * HOUR, null, bookingId);
  if (attended) visitOutcome(ctx, person, 'visit_attended', bookingId, visitAt, 'Visit attended');
  else if (enrolledStep) person.status = 'visit_scheduled';
}

/** A STOP reply: do-not-contact set, the opt-out counted. */
function optOut(ctx: SeedContext, person: DemoPerson, at: number) {
  receiveSms(ctx, person, at, 'STOP');
  ctx.data.contactEvents.push({
    organizationId: ctx.org,
    candidateId: person.id,
    kind: 'consent',
    summary: 'Consent: do not contact on',
    details: { doNotContact: { from: false, to: true }, reason: 'Requested by candidate' },
    actorLabel: COORDINATOR,
    occurredAt: new Date(at + 1000),
  });
  addActivity(ctx, { kind: 'opted_out', source: 'sms', trialId: person.trial.id, candidateId: person.id, label: 'all', occurredAt: new Date(at + 1000) });
  changeStatus(ctx, person, 'do_not_contact', at + 2000, 'sms');
}
