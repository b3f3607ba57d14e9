import { randomBytes } from 'node:crypto';
import type { Database } from '../../db/client';
import type { Logger } from '../../logger';
import {
  TWIML_PROLOG,
  twimlSay,
  type Deliver,
  type LocalizedLine,
  type OfferedSlot,
  type PlaceCallRequest,
  type ScriptQuestion,
  type SimulatedFact,
  type SimulatedPerson,
  type SimulationMode,
  type VoicePort,
} from './port';
import { createSimulatedCallStore } from './simulator-store';

const line = (text: LocalizedLine, language: 'en' | 'es') => (language === 'es' && text.es ? text.es : text.en);

const SEX_WORDS: Record<string, { en: string; es: string }> = {
  female: { en: 'female', es: 'femenino' },
  male: { en: 'male', es: 'masculino' },
};

/**
 * The fact a question asks about: the longest fact name the question names (as whole words). A name with a
 * qualifier in brackets ("asthma (uncontrolled)") is also found by its plain name ("asthma"): a person with
 * uncontrolled asthma says yes to "do you have asthma?".
 */
function factAsked(wording: string, facts: readonly SimulatedFact[]): SimulatedFact | undefined {
  let best: { fact: SimulatedFact; length: number } | undefined;
  for (const fact of facts) {
    const full = fact.name.toLowerCase().trim();
    const plain = full.replace(/\s*\([^)]*\)/g, '').trim();
    // A kind named by what it comes with ("migraine with aura") is still the thing asked about ("migraine"); a kind
    // stated absent says nothing of the others.
    const kind = fact.status === 'absent' ? plain : plain.replace(/\s+(?:with|without)\s.*$/, '').trim();
    for (const name of new Set([full, plain, kind])) {
      if (name.length < 3 || (best && best.length >= name.length)) continue;
      const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      if (new RegExp(`(^|[^a-z0-9])${escaped}([^a-z0-9]|$)`).test(wording)) best = { fact, length: name.length };
    }
  }
  return best?.fact;
}

function ageOn(dateOfBirth: string, today: Date): number {
  const [year, month, day] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const birthdayPassed = today.getUTCMonth() + 1 > month || (today.getUTCMonth() + 1 === month && today.getUTCDate() >= day);
  return today.getUTCFullYear() - year - (birthdayPassed ? 0 : 1);
}

const YES = { en: 'yes', es: 'sí' } as const;
/** Said the same by anyone (Spanish "seguro" would need the speaker's gender). */
const NOT_SURE = { en: "I'm not sure", es: 'no lo sé' } as const;
/** A question about being willing or able (to travel, attend the visits, consent): someone who answered an invitation mostly is. */
const WILLINGNESS = /\b(willing|able to|travel|attend|commit|available|agree|consent)\b/;
/** A question about when to reach the person. */
const WHEN_TO_CALL = /\b(best time|time of day|when (?:can|should|is)|morning|afternoon|evening)\b/;
const TIMES_OF_DAY = { en: ['mornings', 'afternoons', 'evenings'], es: ['por las mañanas', 'por las tardes', 'por las noches'] } as const;

/** The same time of day for the same person on every call (from their date of birth), different across people. */
function preferredTime(person: SimulatedPerson, language: 'en' | 'es'): string {
  const seed = [...(person.dateOfBirth ?? person.sex)].reduce((sum, char) => sum + char.charCodeAt(0), 0);
  return TIMES_OF_DAY[language][seed % TIMES_OF_DAY[language].length];
}

/**
 * What the synthetic person says to a question, as a real person would from what their record says: the
 * candidate's own data when it answers it (a custom field keyed by the question id; the date of birth for a
 * date-of-birth or age question; the sex for a sex/gender question; a clinical fact the question names: "yes"
 * to a condition or medication they have, "no" to one they had only before or stated not to have, the value of
 * a lab); "I'm not sure" to what a clinical record does not mention (a person with no record at all says "no"),
 * "yes" to being willing or able (to travel, to attend), a time of day to "when is best to call", "not sure" to a
 * number it does not hold. Demos then end PASS, FAIL or INCONCLUSIVE by the person, not all alike (decision 222).
 */
export function syntheticAnswer(question: ScriptQuestion, person: SimulatedPerson, language: 'en' | 'es', today = new Date()): string {
  const custom = person.customFields[question.id];
  if (custom !== undefined && custom !== null) {
    if (typeof custom === 'boolean') return custom ? YES[language] : 'no';
    return String(custom);
  }
  const wording = `${question.id.replace(/[_-]+/g, ' ')} ${question.phone.en}`.toLowerCase();
  if (question.type === 'date' && person.dateOfBirth && /birth|dob|born/.test(wording)) return spokenDate(person.dateOfBirth, language);
  if (question.type === 'number' && person.dateOfBirth && /\b(age|how old)\b/.test(wording)) return String(ageOn(person.dateOfBirth, today));
  if (/\b(sex|gender)\b/.test(wording) && SEX_WORDS[person.sex]) {
    const option = question.options?.find((item) => item.value.toLowerCase() === person.sex || item.label.en.toLowerCase() === person.sex);
    return option ? line(option.label, language) : SEX_WORDS[person.sex][language];
  }
  const facts = person.facts ?? [];
  const fact = factAsked(wording, facts);
  switch (question.type) {
    case 'yes_no': {
      if (!fact) return WILLINGNESS.test(wording) ? YES[language] : facts.length > 0 ? NOT_SURE[language] : 'no';
      // "Ever", "before", or a time window ("in the last 12 months"): what they had or took then counts.
      const askedAboutThePast = /\b(ever|history|past|previous|previously|before|last)\b/.test(wording);
      return fact.status === 'present' || (fact.status === 'history' && askedAboutThePast) || (fact.status === null && fact.value === null)
        ? YES[language]
        : 'no';
    }
    case 'number':
      return fact?.value !== null && fact?.value !== undefined ? String(fact.value) : NOT_SURE[language];
    case 'single_choice':
    case 'multiple_choice':
      return question.options?.[0] ? line(question.options[0].label, language) : NOT_SURE[language];
    case 'date':
      return language === 'es' ? 'no lo sé' : "I don't know";
    default:
      if (WHEN_TO_CALL.test(wording)) return preferredTime(person, language);
      return language === 'es' ? 'nada más' : 'nothing else';
  }
}

/** A date as a person says it: "April 12, 1982", "12 de abril de 1982" (never the stored 1982-04-12). */
export function spokenDate(isoDate: string, language: 'en' | 'es'): string {
  const [year, month, day] = isoDate.split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return new Intl.DateTimeFormat(language === 'es' ? 'es-US' : 'en-US', { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' }).format(date);
}

const ENDED_REASON = { no_answer: 'customer-did-not-answer', busy: 'customer-busy', voicemail: 'voicemail', hang_up: 'customer-ended-call' } as const;

/** "Tuesday, March 4 at 09:00" from YYYY-MM-DDTHH:mm (the wall time is already the site's). */
export function spokenSlot(localTime: string, language: 'en' | 'es'): string {
  const [date, time] = localTime.split('T');
  const [year, month, day] = date.split('-').map(Number);
  const words = new Intl.DateTimeFormat(language === 'es' ? 'es-US' : 'en-US', { timeZone: 'UTC', weekday: 'long', month: 'long', day: 'numeric' }).format(
    new Date(Date.UTC(year, month - 1, day)),
  );
  return language === 'es' ? `${words} a las ${time}` : `${words} at ${time}`;
}

/** What one simulated conversation plays: an outbound call placed, or an inbound call answered. */
type Conversation = Pick<
  PlaceCallRequest,
  'callId' | 'organizationId' | 'language' | 'firstMessage' | 'voicemailMessage' | 'questions' | 'person' | 'simulate' | 'offeredSlots'
> & { inbound: boolean };

class SimulatedDeliveryError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
  ) {
    super(`simulated ${type} message answered ${status}`);
    this.name = 'SimulatedDeliveryError';
  }
}

const UNKNOWN_PERSON: SimulatedPerson = { dateOfBirth: null, sex: 'unknown', customFields: {} };
/** A caller has already answered: only these modes make sense for an inbound call. */
const INBOUND_MODES: SimulationMode[] = ['answer', 'spanish', 'hang_up'];

/**
 * The default voice provider: places no real call. It plays the agent's script against a synthetic person
 * and posts the same server messages Vapi would (status-update, transcript, tool-calls, end-of-call-report)
 * to our own /api/inbound/vapi through `deliver` (attached by createApp), so the webhook, the tools and the
 * result are the production code path. Each conversation starts on a later turn of the event loop;
 * `drain()` waits for all of them. Each call's state is kept in the database (`simulator-store.ts`, decision 124),
 * as Vapi keeps it behind GET /call/{id}: any process answers for, cancels or sweeps a call another one placed.
 */
export function createSimulatorVoice(db: Database, logger: Logger): VoicePort & { pending: number } {
  let deliver: Deliver | null = null;
  const running = new Set<Promise<void>>();
  const store = createSimulatedCallStore(db);
  /** Conversations of this process that must say nothing more (found cancelled or ended in the store). */
  const stopped = new Set<string>();

  async function converse(providerCallId: string, request: Conversation) {
    const started = Date.now();
    let seconds = 0;
    const call = {
      id: providerCallId,
      type: request.inbound ? 'inboundPhoneCall' : 'outboundPhoneCall',
      metadata: { callId: request.callId, organizationId: request.organizationId },
    };
    const send = async (message: Record<string, unknown>) => {
      if (stopped.has(providerCallId)) return null;
      // The ended status is stored with the report (end()); any other status only while the call is neither cancelled nor ended.
      if (message.type === 'status-update' && message.status !== 'ended' && !(await store.setStatus(providerCallId, String(message.status)))) {
        stopped.add(providerCallId);
        return null;
      }
      const answer = await deliver!({ message: { timestamp: started + seconds * 1000, call, ...message } });
      // A refused message means the call cannot go on: stop here and let it end as failed (see start()).
      if (answer.status >= 300) throw new SimulatedDeliveryError(answer.status, String(message.type));
      return answer;
    };
    const messages: Array<{ role: string; message: string; secondsFromStart: number }> = [];
    const say = async (role: 'assistant' | 'user', text: string) => {
      seconds += role === 'assistant' ? 4 : 2;
      messages.push({ role: role === 'assistant' ? 'bot' : 'user', message: text, secondsFromStart: seconds });
      await send({ type: 'transcript', role, transcriptType: 'final', transcript: text });
    };
    const tool = (name: string, args: Record<string, unknown>) =>
      send({ type: 'tool-calls', toolCallList: [{ id: `call_${randomBytes(6).toString('hex')}`, type: 'function', function: { name, arguments: args } }] });
    const end = async (endedReason: string, structuredData: Record<string, unknown> | undefined) => {
      const report = {
        endedReason,
        startedAt: new Date(started).toISOString(),
        endedAt: new Date(started + seconds * 1000).toISOString(),
        cost: Number((seconds * 0.0015).toFixed(4)),
        artifact: { messages, transcript: messages.map((item) => `${item.role === 'bot' ? 'AI' : 'User'}: ${item.message}`).join('\n'), recordingUrl: null },
        analysis: structuredData ? { structuredData } : {},
      };
      // Kept before sending: a report that never arrives can still be read back (reconciliation).
      if (!stopped.has(providerCallId) && !(await store.setEnded(providerCallId, report))) stopped.add(providerCallId);
      await send({ type: 'status-update', status: 'ended', endedReason });
      await send({ type: 'end-of-call-report', ...report, durationSeconds: seconds });
    };

    const mode = request.inbound && !INBOUND_MODES.includes(request.simulate) ? 'answer' : request.simulate;
    if (!request.inbound) await send({ type: 'status-update', status: 'ringing' });
    if (mode === 'ring') return;
    if (mode === 'no_answer' || mode === 'busy') return end(ENDED_REASON[mode], undefined);
    await send({ type: 'status-update', status: 'in-progress' });
    let language = request.language;
    if (mode === 'voicemail') {
      await say('assistant', line(request.voicemailMessage, language));
      return end(ENDED_REASON.voicemail, undefined);
    }
    await say('assistant', line(request.firstMessage, language));
    if (mode === 'hang_up') {
      if (request.questions[0]) await say('assistant', line(request.questions[0].phone, language));
      return end(ENDED_REASON.hang_up, undefined);
    }
    if (mode === 'spanish' && language !== 'es') {
      await say('user', '¿Puede hablar en español, por favor?');
      const answer = await tool('switch-language', { language: 'es' });
      language = 'es';
      const result = (answer?.body as { results?: Array<{ result?: unknown }> } | null)?.results?.[0]?.result;
      if (typeof result === 'string' && result) await say('assistant', result);
    }
    if (request.offeredSlots) return schedule(request.offeredSlots, language);
    const answers: Record<string, string> = {};
    for (const question of request.questions) {
      await say('assistant', line(question.phone, language));
      const text = syntheticAnswer(question, request.person, language);
      answers[question.id] = text;
      await say('user', text);
    }
    await tool('end-prescreen-chat', {});
    // The last question: how the call went, 1 to 5 (the synthetic person's answer follows from the call id).
    await say(
      'assistant',
      language === 'es'
        ? 'Una última pregunta: del 1 al 5, ¿cómo calificaría esta llamada?'
        : 'One last question: on a scale of 1 to 5, how would you rate this call?',
    );
    const rating = simulatedRating(request.callId);
    await say('user', String(rating));
    await tool('set-call-metadata', { key: 'satisfaction', value: rating });
    await say('assistant', language === 'es' ? 'Gracias por su tiempo. ¡Adiós!' : 'Thank you for your time. Goodbye!');
    return end('assistant-ended-call', { answers });

    /** A scheduling call: the first slots are offered, the synthetic person takes the first, the agent records it. */
    async function schedule(slots: OfferedSlot[], spoken: 'en' | 'es') {
      const offered = slots.slice(0, 3);
      if (offered.length === 0) {
        await say(
          'assistant',
          spoken === 'es'
            ? 'Lo siento, ahora no hay horarios de visita disponibles. Le llamaremos de nuevo. ¡Adiós!'
            : 'I am sorry, there are no visit times available right now. We will call you back. Goodbye!',
        );
        return end('assistant-ended-call', undefined);
      }
      const list = offered.map((slot) => `${slot.siteName}, ${spokenSlot(slot.localTime, spoken)}`).join('; ');
      await say(
        'assistant',
        spoken === 'es' ? `Puedo ofrecerle estos horarios: ${list}. ¿Cuál le conviene?` : `I can offer these times: ${list}. Which one works for you?`,
      );
      await say('user', spoken === 'es' ? 'El primero, por favor.' : 'The first one, please.');
      const booking = { siteName: offered[0].siteName, localTime: offered[0].localTime };
      await tool('set-call-metadata', { key: 'booking', value: booking });
      await say(
        'assistant',
        spoken === 'es'
          ? `Listo: ${offered[0].siteName}, ${spokenSlot(booking.localTime, spoken)}. ¡Adiós!`
          : `You are booked: ${offered[0].siteName}, ${spokenSlot(booking.localTime, spoken)}. Goodbye!`,
      );
      return end('assistant-ended-call', { booking });
    }
  }

  /** Stored before the provider's id is answered, as a provider has the call before it tells its id. */
  async function start(providerCallId: string, conversation: Conversation) {
    await store.insert({ providerCallId, organizationId: conversation.organizationId, callId: conversation.callId });
    if (!deliver) return;
    const run = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => converse(providerCallId, conversation))
      .catch(async (error: Error) => {
        logger.warn(
          { errorName: error.name, ...(error instanceof SimulatedDeliveryError ? { status: error.status, type: error.type } : {}) },
          'simulated call failed',
        );
        // As Vapi would report a call its pipeline could not carry on: reconciliation then settles it as failed.
        await store.failIfOpen(providerCallId);
      })
      .then(() => store.finish(providerCallId))
      .catch((error: Error) => logger.warn({ errorName: error.name }, 'simulated call state not stored'))
      .finally(() => {
        stopped.delete(providerCallId);
        running.delete(run);
      });
    running.add(run);
  }

  return {
    provider: 'simulator',
    get pending() {
      return running.size;
    },
    attach(fn) {
      deliver = fn;
    },
    async placeCall(request) {
      const providerCallId = `sim_${randomBytes(12).toString('hex')}`;
      await start(providerCallId, { ...request, inbound: false });
      return { providerCallId };
    },
    async answerInbound(request) {
      const providerCallId = `sim_${randomBytes(12).toString('hex')}`;
      await start(providerCallId, { ...request, person: request.person ?? UNKNOWN_PERSON, inbound: true });
      // The caller hears the greeting; the rest of the conversation is simulated in the background.
      return { providerCallId, twiml: `${TWIML_PROLOG}<Response>${twimlSay(line(request.firstMessage, request.language), request.language)}</Response>` };
    },
    fetchCall: (providerCallId) => store.fetch(providerCallId),
    // A conversation playing in this or another process stops at its next status (setStatus answers false).
    cancelCall: (providerCallId) => store.cancel(providerCallId),
    async saveAssistant() {
      return null;
    },
    async drain() {
      while (running.size) await Promise.all([...running]);
    },
  };
}

/** A synthetic person's rating of the call: mostly 4s and 5s, now and then lower, the same for the same call. */
export function simulatedRating(callId: string): number {
  let hash = 0;
  for (const char of callId) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return [5, 5, 4, 5, 4, 3, 5, 4, 2, 5][hash % 10];
}
