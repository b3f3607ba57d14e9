import type { AiRecommendation } from '../../../contract/prescreen';
import type { Language, Question, StudyBlock } from '../../../contract/prescreen-forms';
import { patientQuestions } from '../../../contract/prescreen-forms';
import type { DraftSite as TrialSite } from '../../../contract/trials';
import { normalizePhone } from '../../../contract/candidates';
import {
  detectIntent,
  detectLanguage,
  extractCode,
  extractPhone,
  normalize,
  parseFirstName,
  parseYesNo,
  understandAnswer,
  type Intent,
  type Understood,
} from './understand';

/**
 * The chat dialogue engine (docs/chat-dialogue.md): runs a prescreen form as a conversation, one question at
 * a time. Pure and deterministic: no I/O, no clock (the caller passes `today`). Side effects the
 * conversation needs (sending an SMS code, checking it, recording the result) come back as an `effect` the
 * service performs, after which it calls `afterCodeSent` / `afterCodeChecked` / `closing`.
 *
 * Understanding goes through an `Understander` (rules by default); a future LLM can implement the same
 * interface (and a `Phraser` could rephrase replies) while the recorded values stay in the form's types.
 */

export type Phase = 'name' | 'consent' | 'phone' | 'code' | 'questions' | 'contact_phone' | 'done';

export interface RecordedAnswer {
  questionId: string;
  /** In the question's type; null: no answer (unclear after re-asking, or "I don't know"). */
  value: boolean | number | string | string[] | null;
  /** The visitor's message the answer was read from (at most 500 characters). */
  evidence?: string;
  /** How it was read when not literal: "range 2-3", "month and year only". */
  note?: string;
}

export interface DialogueState {
  v: 1;
  phase: Phase;
  language: Language;
  /** Index into the form's questions, in form order (blocks, then questions). */
  questionIndex: number;
  /** Re-asks of the current prompt (at most MAX_REASKS, then the question is recorded unanswered). */
  reasks: number;
  answers: RecordedAnswer[];
  firstName: string | null;
  /** Whether the visitor agreed to be contacted by text and phone about the study. */
  consent: boolean | null;
  /** Verification off: the phone the visitor typed at the end (E.164), not verified. */
  contactPhone: string | null;
  /** Verification off: the email the visitor typed at the end (lowercased), not verified. */
  contactEmail?: string | null;
  phoneVerified: boolean;
  ended: null | 'completed' | 'stopped';
}

export type ReplyKind =
  | 'greeting'
  | 'prompt'
  | 'question'
  | 'reask'
  | 'info'
  | 'safety'
  | 'language'
  | 'ack'
  | 'verification'
  | 'closing'
  | 'next_step'
  | 'ended';

export interface AgentReply {
  text: string;
  kind: ReplyKind;
  questionId?: string;
  inputType?: string;
  options?: Array<{ value: string; label: string }>;
}

export interface StudyInfo {
  title: string;
  summary: string | null;
  conditions: string[];
  sites: TrialSite[];
}

export interface Understander {
  intent(text: string): Intent | null;
  answer(question: Question, text: string, options: { today: string; language: Language }): Understood;
}

export const ruleUnderstander: Understander = { intent: detectIntent, answer: understandAnswer };

export interface DialogueContext {
  agent: {
    greeting: { en: string; es?: string };
    closingMessage: { en: string; es?: string };
    languages: Language[];
    requirePhoneVerification: boolean;
    nextStep: 'book_call' | 'callback' | 'visit' | 'none';
  };
  blocks: StudyBlock[];
  study: StudyInfo;
  /** YYYY-MM-DD, for relative dates ("5 years ago"). */
  today: string;
  understander?: Understander;
}

export type Effect = { type: 'send_code'; phone: string } | { type: 'check_code'; code: string } | { type: 'finish'; reason: 'completed' | 'stopped' };

export interface Turn {
  state: DialogueState;
  replies: AgentReply[];
  /** What the visitor's message was read as (kept on the message; never logged). */
  understood?: { questionId?: string; field?: 'firstName' | 'consent' | 'contactPhone' | 'contactEmail'; value: unknown; note?: string };
  /** The visitor's message holds a code: store it masked. */
  redact?: boolean;
  effect?: Effect;
}

export const MAX_REASKS = 2;
const EVIDENCE_MAX = 500;

// ---- wording ----

/** Every line the chat agent says, by language (tests/unit/patient-texts.test.ts reads them all). */
export const DIALOGUE_STRINGS = {
  en: {
    askName: 'To start, what is your first name?',
    askConsent: 'Thanks{name}. May the study team contact you by text message and phone about this study? (yes or no)',
    askPhone: 'To keep your answers safe, please enter your mobile phone number. We will text you a 6-digit code to confirm it.',
    askCode: 'Please enter the 6-digit code we just texted to you.',
    codeSent: 'We sent a 6-digit code to your phone. Please enter it here.',
    invalidPhone: 'That does not look like a valid mobile number. Please enter it with the area code, for example +1 212 555 0123.',
    smsFailed: 'We could not send a code to that number. Please check it, or try another mobile number.',
    tooManyCodes: 'Too many codes were requested. Please wait a few minutes before asking for another one.',
    wrongCode: 'That code does not match. Please try again ({left} attempts left).',
    expiredCode: 'That code has expired or was used up. Please enter your mobile number again to get a new one.',
    verified: 'Thank you, your number is confirmed.',
    startQuestions: 'I will now ask a few short questions. You can stop at any time by typing "stop".',
    noQuestions: 'There are no questions to answer right now.',
    reaskYesNo: 'Sorry, I did not understand. Please answer yes or no.',
    reaskNumber: 'Sorry, I did not understand. Please answer with a number.',
    reaskDate: 'Sorry, I did not understand. Please give a date, for example 03/15/1970 or March 2019.',
    reaskChoice: 'Sorry, I did not understand. Please choose one of the options (you can type its number).',
    reaskMultiple: 'Sorry, I did not understand. Please list the options that apply (numbers are fine), or say "none".',
    reaskText: 'Sorry, I did not catch that. Could you say it again?',
    reaskName: 'Sorry, I did not catch your name. What is your first name?',
    reaskPhone: 'Please type your mobile phone number, for example +1 212 555 0123.',
    reaskCode: 'Please type the 6-digit code from the text message, or your mobile number again to get a new code.',
    moveOn: 'No problem, let us move on.',
    multipleHint: '(You can choose several, or say "none".)',
    askContactPhone: 'If you would like the study team to reach you, what is the best phone number? (Type "skip" to leave it out.)',
    askContact: 'So the study team can reach you about the next step, what is the best phone number or email for you?',
    contactNeeded: 'The study team needs a phone number or an email address to reach you. Please type one, or "skip" to finish without it.',
    reaskContact: 'Please type a phone number (for example +1 212 555 0123) or an email address.',
    noContact: 'Without a phone number or email the study team cannot contact you. You are welcome to chat again or to call the study site.',
    medical:
      'I cannot give medical advice. Please talk to your doctor, or ask the study team, who will be glad to help. Please do not change any medication without speaking to your doctor.',
    about: 'This study: {title}.{summary}{conditions}',
    conditions: ' It is about: {list}.',
    where: 'The study takes place at: {list}.',
    whereUnknown: 'The study team will tell you where the visits take place.',
    other: 'I can tell you what the study is about and where it takes place. For anything else, the study team will be glad to help.',
    language: 'Sure, let us continue in English.',
    stopped: 'Thank you for your time{name}. We will stop here.',
    ended: 'This conversation has ended. Thank you!',
    nextBookCall: 'A member of the study team will contact you to book a call.',
    nextCallback: 'A member of the study team will call you back soon.',
    nextVisit: 'The study team will contact you to schedule a screening visit.',
    notMatch: 'Based on your answers this study may not be the right fit for you.',
    otherStudies: 'With your permission, the study team may contact you about other studies that could suit you.',
    noOtherStudies: 'We will not contact you about other studies, but you are welcome to chat with us again at any time.',
    review: 'The study team will review your answers and contact you if the study could be a fit.',
    thanks: 'Thank you for your answers{name}.',
    skip: /^(skip|no|no thanks|no thank you|none|pass|omitir|saltar|no gracias|ninguno)$/,
  },
  es: {
    askName: 'Para empezar, ¿cuál es su nombre?',
    askConsent: 'Gracias{name}. ¿Puede el equipo del estudio contactarle por mensaje de texto y por teléfono sobre este estudio? (sí o no)',
    askPhone: 'Para proteger sus respuestas, escriba su número de teléfono móvil. Le enviaremos un código de 6 dígitos para confirmarlo.',
    askCode: 'Escriba el código de 6 dígitos que le acabamos de enviar.',
    codeSent: 'Le enviamos un código de 6 dígitos. Escríbalo aquí.',
    invalidPhone: 'Ese número no parece válido. Escríbalo con el código de área, por ejemplo +1 212 555 0123.',
    smsFailed: 'No pudimos enviar un código a ese número. Revíselo o pruebe con otro número móvil.',
    tooManyCodes: 'Se pidieron demasiados códigos. Espere unos minutos antes de pedir otro.',
    wrongCode: 'Ese código no coincide. Inténtelo de nuevo (quedan {left} intentos).',
    expiredCode: 'Ese código venció o ya no es válido. Escriba su número móvil otra vez para recibir uno nuevo.',
    verified: 'Gracias, su número está confirmado.',
    startQuestions: 'Ahora le haré unas preguntas breves. Puede parar en cualquier momento escribiendo "parar".',
    noQuestions: 'No hay preguntas por ahora.',
    reaskYesNo: 'Perdón, no entendí. Responda sí o no, por favor.',
    reaskNumber: 'Perdón, no entendí. Responda con un número, por favor.',
    reaskDate: 'Perdón, no entendí. Indique una fecha, por ejemplo 15/03/1970 o marzo de 2019.',
    reaskChoice: 'Perdón, no entendí. Elija una de las opciones (puede escribir su número).',
    reaskMultiple: 'Perdón, no entendí. Indique las opciones que correspondan (puede usar números), o diga "ninguna".',
    reaskText: 'Perdón, no entendí. ¿Puede repetirlo?',
    reaskName: 'Perdón, no entendí su nombre. ¿Cuál es su nombre?',
    reaskPhone: 'Escriba su número de teléfono móvil, por ejemplo +1 212 555 0123.',
    reaskCode: 'Escriba el código de 6 dígitos del mensaje, o su número móvil otra vez para recibir un código nuevo.',
    moveOn: 'No hay problema, sigamos.',
    multipleHint: '(Puede elegir varias, o decir "ninguna".)',
    askContactPhone: 'Si desea que el equipo del estudio le contacte, ¿cuál es el mejor número de teléfono? (Escriba "omitir" para no darlo.)',
    askContact: 'Para que el equipo del estudio pueda contactarle sobre el siguiente paso, ¿cuál es su mejor número de teléfono o correo electrónico?',
    contactNeeded: 'El equipo del estudio necesita un teléfono o un correo electrónico para contactarle. Escriba uno, u "omitir" para terminar sin darlo.',
    reaskContact: 'Escriba un número de teléfono (por ejemplo +1 212 555 0123) o un correo electrónico.',
    noContact: 'Sin un teléfono o correo electrónico el equipo del estudio no puede contactarle. Puede volver a escribirnos o llamar al centro del estudio.',
    medical:
      'No puedo dar consejos médicos. Hable con su médico o pregunte al equipo del estudio, que con gusto le ayudará. No cambie ningún medicamento sin hablar con su médico.',
    about: 'Este estudio: {title}.{summary}{conditions}',
    conditions: ' Trata sobre: {list}.',
    where: 'El estudio se realiza en: {list}.',
    whereUnknown: 'El equipo del estudio le dirá dónde se realizan las visitas.',
    other: 'Puedo contarle de qué se trata el estudio y dónde se realiza. Para otras preguntas, el equipo del estudio le ayudará con gusto.',
    language: 'Claro, sigamos en español.',
    stopped: 'Gracias por su tiempo{name}. Terminamos aquí.',
    ended: 'Esta conversación ha terminado. ¡Gracias!',
    nextBookCall: 'Un miembro del equipo del estudio le contactará para programar una llamada.',
    nextCallback: 'Un miembro del equipo del estudio le llamará pronto.',
    nextVisit: 'El equipo del estudio le contactará para programar una visita de evaluación.',
    notMatch: 'Según sus respuestas, es posible que este estudio no sea adecuado para usted.',
    otherStudies: 'Con su permiso, el equipo del estudio podría contactarle sobre otros estudios que le puedan convenir.',
    noOtherStudies: 'No le contactaremos sobre otros estudios, pero puede volver a escribirnos cuando quiera.',
    review: 'El equipo del estudio revisará sus respuestas y le contactará si el estudio podría ser adecuado.',
    thanks: 'Gracias por sus respuestas{name}.',
    skip: /^(skip|no|no thanks|none|omitir|saltar|no gracias|ninguno)$/,
  },
} as const;

type StringKey = Exclude<keyof (typeof DIALOGUE_STRINGS)['en'], 'skip'>;

function say(language: Language, key: StringKey, values: Record<string, string | number> = {}): string {
  return (DIALOGUE_STRINGS[language][key] as string).replace(/\{(\w+)\}/g, (_match, name: string) => String(values[name] ?? ''));
}

/** A localized text in the language, or English when the translation is missing. */
export const localized = (text: { en: string; es?: string }, language: Language) => (language === 'es' && text.es?.trim() ? text.es : text.en);

/** The questions the agent asks, in form order: site_review items are for staff, never asked. */
export const flatQuestions = (blocks: StudyBlock[]): Question[] => patientQuestions(blocks);

// ---- prompts ----

function questionReply(question: Question, language: Language): AgentReply {
  const options = question.options?.map((option) => ({ value: option.value, label: localized(option.label, language) }));
  let text = localized(question.wording.chat, language);
  if (options?.length) {
    text += `\n${options.map((option, index) => `${index + 1}. ${option.label}`).join('\n')}`;
    if (question.type === 'multiple_choice') text += `\n${say(language, 'multipleHint')}`;
  }
  return { text, kind: 'question', questionId: question.id, inputType: question.type, ...(options?.length ? { options } : {}) };
}

const REASK_KEY: Record<Question['type'], StringKey> = {
  yes_no: 'reaskYesNo',
  number: 'reaskNumber',
  date: 'reaskDate',
  single_choice: 'reaskChoice',
  multiple_choice: 'reaskMultiple',
  text: 'reaskText',
};

const nameSuffix = (state: DialogueState) => (state.firstName ? `, ${state.firstName}` : '');

/** The prompt of the current phase (asked again after an aside: a study question, a language switch). */
export function currentPrompt(ctx: DialogueContext, state: DialogueState): AgentReply[] {
  const language = state.language;
  switch (state.phase) {
    case 'name':
      return [{ text: say(language, 'askName'), kind: 'prompt', inputType: 'text' }];
    case 'consent':
      return [{ text: say(language, 'askConsent', { name: nameSuffix(state) }), kind: 'prompt', inputType: 'yes_no' }];
    case 'phone':
      return [{ text: say(language, 'askPhone'), kind: 'verification', inputType: 'phone' }];
    case 'code':
      return [{ text: say(language, 'askCode'), kind: 'verification', inputType: 'code' }];
    case 'questions': {
      const question = flatQuestions(ctx.blocks)[state.questionIndex];
      return question ? [questionReply(question, language)] : [];
    }
    case 'contact_phone':
      return contactNeeded(ctx)
        ? [{ text: say(language, 'askContact'), kind: 'prompt', inputType: 'text' }]
        : [{ text: say(language, 'askContactPhone'), kind: 'prompt', inputType: 'phone' }];
    case 'done':
      return [{ text: say(language, 'ended'), kind: 'ended' }];
  }
}

/** What the page shows next for a phase. */
export function awaitingOf(phase: Phase): 'text' | 'phone' | 'code' | 'none' {
  if (phase === 'phone') return 'phone';
  if (phase === 'code') return 'code';
  if (phase === 'done') return 'none';
  return 'text';
}

// ---- moving on ----

function finish(state: DialogueState, reason: 'completed' | 'stopped'): { state: DialogueState; effect: Effect } {
  return { state: { ...state, phase: 'done', ended: reason }, effect: { type: 'finish', reason } };
}

/** Into the questions (or straight to the end of a form without questions). */
function startQuestions(ctx: DialogueContext, state: DialogueState, replies: AgentReply[]): Turn {
  const next: DialogueState = { ...state, phase: 'questions', questionIndex: 0, reasks: 0 };
  if (flatQuestions(ctx.blocks).length === 0) return afterQuestions(ctx, next, [...replies, { text: say(state.language, 'noQuestions'), kind: 'info' }]);
  return { state: next, replies: [...replies, { text: say(state.language, 'startQuestions'), kind: 'info' }, ...currentPrompt(ctx, next)] };
}

/** Whether the chat ends in a next step that needs to reach the person (a callback, a call, a visit). */
export const contactNeeded = (ctx: DialogueContext) => !ctx.agent.requirePhoneVerification && ctx.agent.nextStep !== 'none';

/** Whether the person can be reached: a confirmed phone, or a phone or email given at the end. */
export const reachable = (state: DialogueState) => state.phoneVerified || Boolean(state.contactPhone) || Boolean(state.contactEmail);

/**
 * After the last question, verification off: a way to reach the person (a phone or an email), asked when the
 * next step needs it, or optionally when they consented; then the end.
 */
function afterQuestions(ctx: DialogueContext, state: DialogueState, replies: AgentReply[]): Turn {
  if (!ctx.agent.requirePhoneVerification && (contactNeeded(ctx) || state.consent === true) && !reachable(state)) {
    const next: DialogueState = { ...state, phase: 'contact_phone', reasks: 0 };
    return { state: next, replies: [...replies, ...currentPrompt(ctx, next)] };
  }
  const done = finish(state, 'completed');
  return { state: done.state, replies, effect: done.effect };
}

function nextQuestion(ctx: DialogueContext, state: DialogueState, replies: AgentReply[]): Turn {
  const next: DialogueState = { ...state, questionIndex: state.questionIndex + 1, reasks: 0 };
  if (next.questionIndex >= flatQuestions(ctx.blocks).length) return afterQuestions(ctx, next, replies);
  return { state: next, replies: [...replies, ...currentPrompt(ctx, next)] };
}

/** Asks the current prompt again, or, after MAX_REASKS, gives up on it (`giveUp`). */
function reask(ctx: DialogueContext, state: DialogueState, key: StringKey, giveUp: (state: DialogueState) => Turn): Turn {
  if (state.reasks >= MAX_REASKS) return giveUp({ ...state, reasks: 0 });
  const next = { ...state, reasks: state.reasks + 1 };
  return { state: next, replies: [{ text: say(state.language, key), kind: 'reask' }, ...currentPrompt(ctx, next)] };
}

// ---- the study, briefly ----

function siteLine(site: TrialSite): string {
  const place = [site.city, site.region].filter(Boolean).join(', ');
  return place ? `${site.name} (${place})` : site.name;
}

export function answerStudyQuestion(study: StudyInfo, topic: 'about' | 'where' | 'other', language: Language): string {
  if (topic === 'about') {
    const summary = study.summary?.trim() ? ` ${study.summary.trim().slice(0, 600)}${study.summary.trim().length > 600 ? '…' : ''}` : '';
    const conditions = study.conditions.length ? say(language, 'conditions', { list: study.conditions.join(', ') }) : '';
    return say(language, 'about', { title: study.title, summary, conditions });
  }
  if (topic === 'where') return study.sites.length ? say(language, 'where', { list: study.sites.map(siteLine).join('; ') }) : say(language, 'whereUnknown');
  return say(language, 'other');
}

// ---- the dialogue ----

export function initialState(language: Language): DialogueState {
  return {
    v: 1,
    phase: 'name',
    language,
    questionIndex: 0,
    reasks: 0,
    answers: [],
    firstName: null,
    consent: null,
    contactPhone: null,
    contactEmail: null,
    phoneVerified: false,
    ended: null,
  };
}

/** A new conversation: the greeting and the first prompt. */
export function startDialogue(ctx: DialogueContext, language: Language): Turn {
  const chosen = ctx.agent.languages.includes(language) ? language : (ctx.agent.languages[0] ?? 'en');
  const state = initialState(chosen);
  return { state, replies: [{ text: localized(ctx.agent.greeting, chosen), kind: 'greeting' }, ...currentPrompt(ctx, state)] };
}

const excerpt = (text: string) => text.trim().slice(0, EVIDENCE_MAX);

/** One visitor message. */
export function advanceDialogue(ctx: DialogueContext, current: DialogueState, text: string): Turn {
  const understander = ctx.understander ?? ruleUnderstander;
  let state: DialogueState = { ...current };
  if (state.phase === 'done') return { state, replies: [{ text: say(state.language, 'ended'), kind: 'ended' }] };

  // Codes are matched before anything else: "123456" is not an answer to anything.
  if (state.phase === 'code') {
    const code = extractCode(text);
    if (code) return { state, replies: [], effect: { type: 'check_code', code }, redact: true };
  }

  const intent = understander.intent(text);
  const switchTo = (language: Language) => ctx.agent.languages.includes(language) && language !== state.language;
  const aside: AgentReply[] = [];
  if (intent?.kind === 'language') {
    if (switchTo(intent.language)) state = { ...state, language: intent.language };
    return { state, replies: [{ text: say(state.language, 'language'), kind: 'language' }, ...currentPrompt(ctx, state)] };
  }
  // Writing in another language the agent speaks switches to it (not for names, phones and codes).
  const written = detectLanguage(text).written;
  if (written && switchTo(written) && (state.phase === 'questions' || state.phase === 'consent')) {
    state = { ...state, language: written };
  }
  if (intent?.kind === 'stop') {
    const done = finish(state, 'stopped');
    return { state: done.state, replies: [{ text: say(state.language, 'stopped', { name: nameSuffix(state) }), kind: 'ack' }], effect: done.effect };
  }
  if (intent?.kind === 'medical_advice') {
    return { state, replies: [{ text: say(state.language, 'medical'), kind: 'safety' }, ...currentPrompt(ctx, state)] };
  }
  if (intent?.kind === 'study_question') {
    return { state, replies: [{ text: answerStudyQuestion(ctx.study, intent.topic, state.language), kind: 'info' }, ...currentPrompt(ctx, state)] };
  }

  switch (state.phase) {
    case 'name': {
      const firstName = parseFirstName(text);
      const toConsent = (next: DialogueState): Turn => {
        const moved: DialogueState = { ...next, phase: 'consent', reasks: 0 };
        return { state: moved, replies: currentPrompt(ctx, moved) };
      };
      if (!firstName) return reask(ctx, state, 'reaskName', toConsent);
      return { ...toConsent({ ...state, firstName }), understood: { field: 'firstName', value: firstName } };
    }
    case 'consent': {
      const understood = parseYesNo(text);
      const proceed = (next: DialogueState): Turn => {
        if (ctx.agent.requirePhoneVerification) {
          const moved: DialogueState = { ...next, phase: 'phone', reasks: 0 };
          return { state: moved, replies: currentPrompt(ctx, moved) };
        }
        return startQuestions(ctx, next, []);
      };
      // A non-answer ("not sure", unclear after re-asking) is not a "no": consent stays unrecorded.
      if (understood.kind !== 'value') return reask(ctx, state, 'reaskYesNo', (next) => proceed({ ...next, consent: null }));
      return { ...proceed({ ...state, consent: understood.value === true }), understood: { field: 'consent', value: understood.value } };
    }
    case 'phone': {
      const phone = extractPhone(text);
      if (!phone)
        return { state: { ...state, reasks: state.reasks + 1 }, replies: [{ text: say(state.language, 'reaskPhone'), kind: 'reask', inputType: 'phone' }] };
      return { state, replies: [], effect: { type: 'send_code', phone } };
    }
    case 'code': {
      const phone = extractPhone(text);
      if (phone) return { state, replies: [], effect: { type: 'send_code', phone } };
      return { state, replies: [{ text: say(state.language, 'reaskCode'), kind: 'reask', inputType: 'code' }] };
    }
    case 'questions': {
      const question = flatQuestions(ctx.blocks)[state.questionIndex];
      if (!question) return afterQuestions(ctx, state, []);
      const understood = understander.answer(question, text, { today: ctx.today, language: state.language });
      const record = (next: DialogueState, value: RecordedAnswer['value'], note?: string): DialogueState => ({
        ...next,
        answers: [
          ...next.answers.filter((answer) => answer.questionId !== question.id),
          { questionId: question.id, value, evidence: excerpt(text), ...(note ? { note } : {}) },
        ],
      });
      if (understood.kind === 'unclear') {
        return reask(ctx, state, REASK_KEY[question.type], (next) =>
          nextQuestion(ctx, record(next, null, 'unclear after re-asking'), [{ text: say(state.language, 'moveOn'), kind: 'ack' }]),
        );
      }
      const value = understood.kind === 'value' ? understood.value : null;
      const note = understood.kind === 'value' ? understood.note : 'does not know';
      return { ...nextQuestion(ctx, record(state, value, note), aside), understood: { questionId: question.id, value, ...(note ? { note } : {}) } };
    }
    case 'contact_phone': {
      const skip = DIALOGUE_STRINGS[state.language].skip.test(normalize(text)) || DIALOGUE_STRINGS.en.skip.test(normalize(text));
      const toEnd = (next: DialogueState): Turn => {
        const done = finish(next, 'completed');
        return { state: done.state, replies: [], effect: done.effect };
      };
      const needed = contactNeeded(ctx);
      if (skip) {
        // The next step needs a way to reach them: say so once before finishing without it.
        if (needed && state.reasks === 0) {
          const next = { ...state, reasks: 1 };
          return { state: next, replies: [{ text: say(state.language, 'contactNeeded'), kind: 'reask', inputType: 'text' }] };
        }
        return toEnd({ ...state, reasks: 0 });
      }
      const email = /[^\s@<>]+@[^\s@<>]+\.[a-z]{2,}/i.exec(text)?.[0]?.toLowerCase() ?? null;
      const raw = email ? null : extractPhone(text);
      const phone = raw ? normalizePhone(raw) : null;
      if (email && needed) return { ...toEnd({ ...state, contactEmail: email }), understood: { field: 'contactEmail', value: '(email)' } };
      if (!phone) return reask(ctx, state, needed ? 'reaskContact' : 'reaskPhone', toEnd);
      return { ...toEnd({ ...state, contactPhone: phone }), understood: { field: 'contactPhone', value: '(phone)' } };
    }
    default:
      return { state, replies: currentPrompt(ctx, state) };
  }
}

// ---- after the service's effects ----

export type CodeSendOutcome = 'sent' | 'invalid_phone' | 'failed' | 'throttled';

export function afterCodeSent(_ctx: DialogueContext, state: DialogueState, outcome: CodeSendOutcome): Turn {
  const language = state.language;
  if (outcome === 'sent') {
    const next: DialogueState = { ...state, phase: 'code', reasks: 0 };
    return { state: next, replies: [{ text: say(language, 'codeSent'), kind: 'verification', inputType: 'code' }] };
  }
  const key: StringKey = outcome === 'invalid_phone' ? 'invalidPhone' : outcome === 'throttled' ? 'tooManyCodes' : 'smsFailed';
  return { state, replies: [{ text: say(language, key), kind: 'verification', inputType: state.phase === 'code' ? 'code' : 'phone' }] };
}

export type CodeCheckOutcome = { result: 'verified' } | { result: 'wrong'; attemptsLeft: number } | { result: 'expired' };

export function afterCodeChecked(ctx: DialogueContext, state: DialogueState, outcome: CodeCheckOutcome): Turn {
  const language = state.language;
  if (outcome.result === 'verified') {
    return startQuestions(ctx, { ...state, phoneVerified: true }, [{ text: say(language, 'verified'), kind: 'verification' }]);
  }
  if (outcome.result === 'wrong')
    return { state, replies: [{ text: say(language, 'wrongCode', { left: outcome.attemptsLeft }), kind: 'verification', inputType: 'code' }] };
  const next: DialogueState = { ...state, phase: 'phone', reasks: 0 };
  return { state: next, replies: [{ text: say(language, 'expiredCode'), kind: 'verification', inputType: 'phone' }] };
}

/** What the closing reads of the agent. */
type ClosingContext = { agent: Pick<DialogueContext['agent'], 'closingMessage' | 'requirePhoneVerification' | 'nextStep'> };

/**
 * The one closing message for the outcome (null: no result could be recorded). The agent's own closing text
 * usually promises contact, so it opens the message only when the outcome keeps that promise; otherwise a plain
 * thank-you does, and the message says what happens next (issue 32: two messages contradicted each other).
 * Only the agent is read: the demo's seeded chats end with the same message (src/server/features/demo/seed-prescreen.ts).
 */
export function closing(ctx: ClosingContext, state: DialogueState, recommendation: AiRecommendation | null): AgentReply[] {
  const language = state.language;
  const next = nextStepKey(ctx, state, recommendation);
  if (state.ended === 'stopped') return next ? [{ text: say(language, next), kind: 'next_step' }] : [];
  const keepsPromise = next === null || next === 'nextBookCall' || next === 'nextCallback' || next === 'nextVisit';
  const opening = keepsPromise ? localized(ctx.agent.closingMessage, language) : say(language, 'thanks', { name: nameSuffix(state) });
  if (!next) return [{ text: opening, kind: 'closing' }];
  const parts = [opening, say(language, next)];
  if (next === 'notMatch') parts.push(say(language, state.consent === true && reachable(state) ? 'otherStudies' : 'noOtherStudies'));
  return [{ text: parts.join(' '), kind: 'next_step' }];
}

/** What happens next for the outcome, or null when there is nothing to add to the agent's closing text. */
function nextStepKey(ctx: ClosingContext, state: DialogueState, recommendation: AiRecommendation | null): StringKey | null {
  let next: StringKey | null = null;
  if (recommendation === 'FAIL') next = 'notMatch';
  else if (recommendation === 'INCONCLUSIVE' || (recommendation && state.ended === 'stopped')) next = 'review';
  else if (recommendation === 'PASS' || recommendation === 'POTENTIAL') {
    next = ({ book_call: 'nextBookCall', callback: 'nextCallback', visit: 'nextVisit', none: null } as const)[ctx.agent.nextStep];
  }
  // Never promise a call back to someone the team cannot reach.
  if (next && next !== 'notMatch' && !ctx.agent.requirePhoneVerification && !reachable(state)) next = 'noContact';
  return next;
}
