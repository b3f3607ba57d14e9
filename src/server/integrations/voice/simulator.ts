import { randomBytes } from 'node:crypto';
import type { Logger } from '../../logger';
import type { Deliver, LocalizedLine, PlaceCallRequest, ScriptQuestion, SimulatedPerson, VoicePort } from './port';

const line = (text: LocalizedLine, language: 'en' | 'es') => (language === 'es' && text.es ? text.es : text.en);

const SEX_WORDS: Record<string, { en: string; es: string }> = {
  female: { en: 'female', es: 'femenino' },
  male: { en: 'male', es: 'masculino' },
};

/**
 * What the synthetic person says to a question: the candidate's own data when it answers it (a custom field
 * keyed by the question id; the date of birth for a date-of-birth question; the sex for a sex/gender
 * question), else a deterministic default: "no" to yes/no questions (exclusion-style questions then pass),
 * "I'm not sure" to numbers, the first option of a choice, "nothing else" to free text.
 */
export function syntheticAnswer(question: ScriptQuestion, person: SimulatedPerson, language: 'en' | 'es'): string {
  const custom = person.customFields[question.id];
  if (custom !== undefined && custom !== null) {
    if (typeof custom === 'boolean') return custom ? (language === 'es' ? 'sí' : 'yes') : 'no';
    return String(custom);
  }
  const wording = `${question.id} ${question.phone.en}`.toLowerCase();
  if (question.type === 'date' && person.dateOfBirth && /birth|dob|born/.test(wording)) return person.dateOfBirth;
  if (/\b(sex|gender)\b/.test(wording) && SEX_WORDS[person.sex]) {
    const option = question.options?.find((item) => item.value.toLowerCase() === person.sex || item.label.en.toLowerCase() === person.sex);
    return option ? line(option.label, language) : SEX_WORDS[person.sex][language];
  }
  switch (question.type) {
    case 'yes_no':
      return 'no';
    case 'number':
      return language === 'es' ? 'no estoy seguro' : "I'm not sure";
    case 'single_choice':
    case 'multiple_choice':
      return question.options?.[0] ? line(question.options[0].label, language) : 'no';
    case 'date':
      return language === 'es' ? 'no lo sé' : "I don't know";
    default:
      return language === 'es' ? 'nada más' : 'nothing else';
  }
}

const ENDED_REASON = { no_answer: 'customer-did-not-answer', busy: 'customer-busy', voicemail: 'voicemail', hang_up: 'customer-ended-call' } as const;

/**
 * The default voice provider: places no real call. It plays the agent's script against a synthetic person
 * and posts the same server messages Vapi would (status-update, transcript, tool-calls, end-of-call-report)
 * to our own /api/inbound/vapi through `deliver` (attached by createApp), so the webhook, the tools and the
 * result are the production code path. Each conversation starts on a later turn of the event loop;
 * `drain()` waits for all of them.
 */
export function createSimulatorVoice(logger: Logger): VoicePort & { pending: number } {
  let deliver: Deliver | null = null;
  const running = new Set<Promise<void>>();
  const cancelled = new Set<string>();

  async function converse(providerCallId: string, request: PlaceCallRequest) {
    const started = Date.now();
    let seconds = 0;
    const call = { id: providerCallId, type: 'outboundPhoneCall', metadata: { callId: request.callId, organizationId: request.organizationId } };
    const send = async (message: Record<string, unknown>) => {
      if (cancelled.has(providerCallId)) return null;
      const answer = await deliver!({ message: { timestamp: started + seconds * 1000, call, ...message } });
      if (answer.status >= 300) logger.warn({ status: answer.status, type: message.type }, 'simulated voice message refused');
      return answer;
    };
    const messages: Array<{ role: string; message: string; secondsFromStart: number }> = [];
    const say = async (role: 'assistant' | 'user', text: string) => {
      seconds += role === 'assistant' ? 4 : 2;
      messages.push({ role: role === 'assistant' ? 'bot' : 'user', message: text, secondsFromStart: seconds });
      await send({ type: 'transcript', role, transcriptType: 'final', transcript: text });
    };
    const end = async (endedReason: string, structuredData: Record<string, unknown> | undefined) => {
      await send({ type: 'status-update', status: 'ended', endedReason });
      await send({
        type: 'end-of-call-report',
        endedReason,
        startedAt: new Date(started).toISOString(),
        endedAt: new Date(started + seconds * 1000).toISOString(),
        durationSeconds: seconds,
        cost: Number((seconds * 0.0015).toFixed(4)),
        artifact: { messages, transcript: messages.map((item) => `${item.role === 'bot' ? 'AI' : 'User'}: ${item.message}`).join('\n'), recordingUrl: null },
        analysis: structuredData ? { structuredData } : {},
      });
    };

    const mode = request.simulate;
    await send({ type: 'status-update', status: 'ringing' });
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
      const answer = await send({
        type: 'tool-calls',
        toolCallList: [{ id: `call_${randomBytes(6).toString('hex')}`, type: 'function', function: { name: 'switch-language', arguments: { language: 'es' } } }],
      });
      language = 'es';
      const result = (answer?.body as { results?: Array<{ result?: unknown }> } | null)?.results?.[0]?.result;
      if (typeof result === 'string' && result) await say('assistant', result);
    }
    const answers: Record<string, string> = {};
    for (const question of request.questions) {
      await say('assistant', line(question.phone, language));
      const text = syntheticAnswer(question, request.person, language);
      answers[question.id] = text;
      await say('user', text);
    }
    await send({ type: 'tool-calls', toolCallList: [{ id: `call_${randomBytes(6).toString('hex')}`, type: 'function', function: { name: 'end-prescreen-chat', arguments: {} } }] });
    await say('assistant', language === 'es' ? 'Gracias por su tiempo. ¡Adiós!' : 'Thank you for your time. Goodbye!');
    return end('assistant-ended-call', { answers });
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
      if (!deliver) return { providerCallId };
      const run = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => converse(providerCallId, request))
        .catch((error: Error) => logger.warn({ errorName: error.name }, 'simulated call failed'))
        .finally(() => running.delete(run));
      running.add(run);
      return { providerCallId };
    },
    async cancelCall(providerCallId) {
      cancelled.add(providerCallId);
    },
    async saveAssistant() {
      return null;
    },
    async drain() {
      while (running.size) await Promise.all([...running]);
    },
  };
}
