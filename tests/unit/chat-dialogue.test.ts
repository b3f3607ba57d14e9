import { describe, expect, it } from 'vitest';
import type { StudyBlock } from '../../src/contract/prescreen-forms';
import {
  advanceDialogue,
  afterCodeChecked,
  afterCodeSent,
  awaitingOf,
  closing,
  startDialogue,
  type DialogueContext,
  type DialogueState,
  type Turn,
} from '../../src/server/features/chat/dialogue';

const q = (
  id: string,
  type: StudyBlock['questions'][number]['type'],
  en: string,
  es: string | undefined,
  extra: Partial<StudyBlock['questions'][number]> = {},
) => ({
  id,
  type,
  wording: { phone: { en }, chat: { en, ...(es ? { es } : {}) } },
  required: true,
  criterionLinks: [],
  ...extra,
});

const blocks: StudyBlock[] = [
  {
    id: 'about',
    title: { en: 'About you' },
    questions: [
      q('asthma', 'yes_no', 'Has a doctor told you that you have asthma?', '¿Un médico le ha dicho que tiene asma?'),
      q('age', 'number', 'How old are you?', '¿Cuántos años tiene?'),
      q('dob', 'date', 'What is your date of birth?', undefined),
      q('since', 'date', 'Since when have you had symptoms?', '¿Desde cuándo tiene síntomas?'),
      q('puffs', 'number', 'How many times a week do you use your rescue inhaler?', '¿Cuántas veces por semana usa su inhalador de rescate?'),
      q('smoke', 'single_choice', 'Do you smoke?', '¿Fuma?', {
        options: [
          { value: 'never', label: { en: 'Never', es: 'Nunca' } },
          { value: 'former', label: { en: 'I used to', es: 'Antes sí' } },
          { value: 'current', label: { en: 'Yes, currently', es: 'Sí, actualmente' } },
        ],
      }),
      q('other', 'multiple_choice', 'Do you have any of these?', '¿Tiene alguna de estas?', {
        options: [
          { value: 'diabetes', label: { en: 'Diabetes', es: 'Diabetes' } },
          { value: 'copd', label: { en: 'COPD', es: 'EPOC' } },
          { value: 'heart', label: { en: 'Heart disease', es: 'Enfermedad del corazón' } },
        ],
      }),
      q('notes', 'text', 'Anything else we should know?', '¿Algo más que debamos saber?', { required: false }),
    ],
  },
];

const ctx = (overrides: Partial<DialogueContext['agent']> = {}): DialogueContext => ({
  agent: {
    greeting: {
      en: 'Hi! I can tell you whether our asthma study might suit you.',
      es: '¡Hola! Le puedo decir si nuestro estudio de asma podría ser para usted.',
    },
    closingMessage: { en: 'Thank you for your answers!', es: '¡Gracias por sus respuestas!' },
    languages: ['en', 'es'],
    requirePhoneVerification: true,
    nextStep: 'callback',
    ...overrides,
  },
  blocks,
  study: {
    title: 'Asthma inhaler study',
    summary: 'A 12-week study of a new inhaler.',
    conditions: ['Asthma'],
    sites: [{ name: 'Downtown Clinic', city: 'Chicago', region: 'IL' }],
  },
  today: '2025-06-15',
});

/** Plays messages through the engine, performing effects the way the service would (codes always work). */
function play(context: DialogueContext, messages: string[], language: 'en' | 'es' = 'en') {
  let turn: Turn = startDialogue(context, language);
  let state: DialogueState = turn.state;
  const transcript = [...turn.replies.map((reply) => reply.text)];
  let finished: 'completed' | 'stopped' | null = null;
  for (const message of messages) {
    turn = advanceDialogue(context, state, message);
    transcript.push(...turn.replies.map((reply) => reply.text));
    state = turn.state;
    while (turn.effect) {
      if (turn.effect.type === 'send_code') turn = afterCodeSent(context, state, 'sent');
      else if (turn.effect.type === 'check_code') turn = afterCodeChecked(context, state, { result: 'verified' });
      else {
        finished = turn.effect.reason;
        break;
      }
      transcript.push(...turn.replies.map((reply) => reply.text));
      state = turn.state;
    }
  }
  return { state, transcript, finished, last: turn };
}

const answerOf = (state: DialogueState, questionId: string) => state.answers.find((answer) => answer.questionId === questionId);

describe('the dialogue, in English', () => {
  it('greets, asks the name, consent, phone and code, then each question in turn, and finishes', () => {
    const { state, transcript, finished } = play(ctx(), [
      "I'm Maria",
      'sure',
      '+1 212 555 0199',
      '123456',
      'yeah',
      "I'm 54",
      '03/15/1970',
      'since March 2019',
      '2 or 3 times a week',
      'I used to',
      'diabetes and COPD',
      'nothing else',
    ]);
    expect(transcript[0]).toMatch(/asthma study/);
    expect(transcript[1]).toMatch(/first name/);
    expect(transcript).toContain('Has a doctor told you that you have asthma?');
    expect(state.firstName).toBe('Maria');
    expect(state.consent).toBe(true);
    expect(state.phoneVerified).toBe(true);
    expect(finished).toBe('completed');
    expect(state.phase).toBe('done');
    expect(state.answers.map((answer) => [answer.questionId, answer.value])).toEqual([
      ['asthma', true],
      ['age', 54],
      ['dob', '1970-03-15'],
      ['since', '2019-03-01'],
      ['puffs', 2.5],
      ['smoke', 'former'],
      ['other', ['diabetes', 'copd']],
      ['notes', 'nothing else'],
    ]);
    expect(answerOf(state, 'puffs')).toMatchObject({ evidence: '2 or 3 times a week', note: 'range 2-3' });
    expect(answerOf(state, 'since')?.note).toBe('month and year only');
  });

  it('the phase tells the page what to show', () => {
    const context = ctx();
    let { state } = play(context, ['Maria', 'yes']);
    expect(awaitingOf(state.phase)).toBe('phone');
    const sent = advanceDialogue(context, state, '212 555 0199');
    expect(sent.effect).toEqual({ type: 'send_code', phone: '212 555 0199' });
    state = afterCodeSent(context, sent.state, 'sent').state;
    expect(awaitingOf(state.phase)).toBe('code');
    const code = advanceDialogue(context, state, '654321');
    expect(code).toMatchObject({ effect: { type: 'check_code', code: '654321' }, redact: true });
    const wrong = afterCodeChecked(context, state, { result: 'wrong', attemptsLeft: 4 });
    expect(wrong.replies[0].text).toMatch(/4 attempts left/);
    expect(wrong.state.phase).toBe('code');
    const expired = afterCodeChecked(context, state, { result: 'expired' });
    expect(expired.state.phase).toBe('phone');
    expect(afterCodeSent(context, sent.state, 'invalid_phone').replies[0].text).toMatch(/valid mobile number/);
  });

  it('asks again at most twice, then records no answer and moves on', () => {
    const { state, transcript } = play(ctx(), ['Maria', 'yes', '2125550199', '123456', 'purple', 'banana', 'hmm', "I'm 54"]);
    expect(transcript.filter((text) => text === 'Sorry, I did not understand. Please answer yes or no.')).toHaveLength(2);
    expect(transcript).toContain('No problem, let us move on.');
    expect(answerOf(state, 'asthma')).toMatchObject({ value: null, note: 'unclear after re-asking' });
    expect(answerOf(state, 'age')?.value).toBe(54);
  });

  it('"I don\'t know" is recorded as no answer at once', () => {
    const { state } = play(ctx(), ['Maria', 'yes', '2125550199', '123456', "I don't know"]);
    expect(answerOf(state, 'asthma')).toMatchObject({ value: null, note: 'does not know' });
    expect(state.questionIndex).toBe(1);
  });

  it('never gives medical advice, answers study questions, and asks the question again', () => {
    const { state, transcript } = play(ctx(), [
      'Maria',
      'yes',
      '2125550199',
      '123456',
      'Should I stop my medication?',
      'What is this study about?',
      'Where is it?',
      'yes',
    ]);
    expect(transcript.some((text) => /cannot give medical advice.*doctor/.test(text))).toBe(true);
    expect(transcript).toContain('This study: Asthma inhaler study. A 12-week study of a new inhaler. It is about: Asthma.');
    expect(transcript).toContain('The study takes place at: Downtown Clinic (Chicago, IL).');
    expect(transcript.filter((text) => text === 'Has a doctor told you that you have asthma?')).toHaveLength(4);
    expect(answerOf(state, 'asthma')?.value).toBe(true);
  });

  it('"stop" ends politely with what was answered', () => {
    const { state, finished, transcript } = play(ctx(), ['Maria', 'yes', '2125550199', '123456', 'yes', 'stop']);
    expect(finished).toBe('stopped');
    expect(state.ended).toBe('stopped');
    expect(transcript.at(-1)).toBe('Thank you for your time, Maria. We will stop here.');
    expect(state.answers).toHaveLength(1);
    expect(closing(ctx(), state, 'INCONCLUSIVE').map((reply) => reply.kind)).toEqual(['next_step']);
  });

  it('closing: one message whose next step follows the outcome and the agent', () => {
    const done = { ...play(ctx(), []).state, phase: 'done' as const, ended: 'completed' as const };
    expect(closing(ctx(), done, 'PASS')).toEqual([
      { text: 'Thank you for your answers! A member of the study team will call you back soon.', kind: 'next_step' },
    ]);
    expect(closing(ctx({ nextStep: 'visit' }), done, 'POTENTIAL')[0].text).toMatch(/screening visit/);
    expect(closing(ctx({ nextStep: 'book_call' }), done, 'PASS')[0].text).toMatch(/book a call/);
    expect(closing(ctx({ nextStep: 'none' }), done, 'PASS')).toEqual([{ text: 'Thank you for your answers!', kind: 'closing' }]);
    expect(closing(ctx(), { ...done, language: 'es' }, 'PASS')[0].text).toBe(
      '¡Gracias por sus respuestas! Un miembro del equipo del estudio le llamará pronto.',
    );
  });

  it('closing (issue 32): a person who is not a fit is told so kindly, never also promised contact about this study', () => {
    const promise = 'Many thanks, Lee. Someone from the clinic will be in touch with you shortly.';
    const context = ctx({ closingMessage: { en: promise, es: 'Muchas gracias. Alguien de la clínica le contactará en breve.' } });
    const base = { ...play(ctx(), []).state, phase: 'done' as const, ended: 'completed' as const, firstName: 'Lee', phoneVerified: true };
    const agreed = closing(context, { ...base, consent: true }, 'FAIL');
    expect(agreed).toHaveLength(1);
    expect(agreed[0].text).toBe(
      'Thank you for your answers, Lee. Based on your answers this study may not be the right fit for you. With your permission, the study team may contact you about other studies that could suit you.',
    );
    expect(closing(context, { ...base, consent: false }, 'FAIL')[0].text).toMatch(/We will not contact you about other studies/);
    const spanish = closing(context, { ...base, consent: true, language: 'es' }, 'FAIL');
    expect(spanish).toHaveLength(1);
    expect(spanish[0].text).toMatch(/^Gracias por sus respuestas, Lee\. .*no sea adecuado.*otros estudios/);
    expect(spanish[0].text).not.toMatch(/le contactará en breve/);
    // Unsure: the team reviews; the agent's unconditional promise is not repeated.
    const unsure = closing(context, base, 'INCONCLUSIVE');
    expect(unsure.map((reply) => reply.text)).toEqual([
      'Thank you for your answers, Lee. The study team will review your answers and contact you if the study could be a fit.',
    ]);
    // A possible fit keeps the agent's own words, followed by the next step.
    expect(closing(context, base, 'POTENTIAL').map((reply) => reply.text)).toEqual([`${promise} A member of the study team will call you back soon.`]);
  });
});

describe('the dialogue, in Spanish', () => {
  it('runs in Spanish with chat wording, falling back to English when a translation is missing', () => {
    const { state, transcript, finished } = play(
      ctx(),
      [
        'Me llamo Ana',
        'sí',
        '2125550199',
        '123456',
        'claro',
        'tengo 54 años',
        '15 de marzo de 1970',
        'desde marzo de 2019',
        '2 o 3 veces por semana',
        'Nunca',
        'ninguna',
        'no',
      ],
      'es',
    );
    expect(transcript[0]).toMatch(/^¡Hola!/);
    expect(transcript).toContain('¿Un médico le ha dicho que tiene asma?');
    expect(transcript).toContain('What is your date of birth?');
    expect(finished).toBe('completed');
    expect(state.language).toBe('es');
    expect(state.answers.map((answer) => [answer.questionId, answer.value])).toEqual([
      ['asthma', true],
      ['age', 54],
      ['dob', '1970-03-15'],
      ['since', '2019-03-01'],
      ['puffs', 2.5],
      ['smoke', 'never'],
      ['other', []],
      ['notes', 'no'],
    ]);
  });

  it('switches language when the visitor writes in Spanish or asks', () => {
    const context = ctx();
    let { state } = play(context, ['Maria', 'yes', '2125550199', '123456']);
    const written = advanceDialogue(context, state, 'No, nunca he tenido asma');
    expect(written.state.language).toBe('es');
    expect(written.state.answers[0]).toMatchObject({ questionId: 'asthma', value: false });
    expect(written.replies.at(-1)?.text).toBe('¿Cuántos años tiene?');
    state = written.state;
    const back = advanceDialogue(context, state, 'in English please');
    expect(back.state.language).toBe('en');
    expect(back.replies.map((reply) => reply.text)).toEqual(['Sure, let us continue in English.', 'How old are you?']);
    const asked = advanceDialogue(context, back.state, 'español');
    expect(asked.state.language).toBe('es');
  });

  it('stays in English when the agent does not speak Spanish', () => {
    const context = ctx({ languages: ['en'] });
    const { state } = play(context, ['Maria', 'yes', '2125550199', '123456', 'No, nunca he tenido asma'], 'es');
    expect(state.language).toBe('en');
    expect(answerOf(state, 'asthma')?.value).toBe(false);
  });

  it('¿de qué se trata? is answered in Spanish; medical questions get the safe reply', () => {
    const { transcript } = play(ctx(), ['Ana', 'sí', '2125550199', '123456', '¿De qué se trata?', '¿Debo dejar mi medicamento?'], 'es');
    expect(transcript).toContain('Este estudio: Asthma inhaler study. A 12-week study of a new inhaler. Trata sobre: Asthma.');
    expect(transcript.some((text) => text.startsWith('No puedo dar consejos médicos'))).toBe(true);
  });
});

describe('without phone verification', () => {
  it('asks the name, consent, the questions, then an optional phone', () => {
    const context = ctx({ requirePhoneVerification: false });
    const answers = ['yes', '54', '1970-03-15', '2019', '3', '1', 'none', 'no'];
    const { state, transcript, finished } = play(context, ['Sam', 'yes', ...answers, '(212) 555-0142']);
    expect(transcript.some((text) => /best phone number/.test(text))).toBe(true);
    expect(finished).toBe('completed');
    expect(state.contactPhone).toBe('+12125550142');
    expect(state.phoneVerified).toBe(false);
    expect(state.answers).toHaveLength(8);
  });
  it('"skip" leaves the phone out when no next step needs it; without consent it is not asked then', () => {
    const context = ctx({ requirePhoneVerification: false, nextStep: 'none' });
    const answers = ['yes', '54', '1970-03-15', '2019', '3', '1', 'none', 'no'];
    expect(play(context, ['Sam', 'yes', ...answers, 'skip'])).toMatchObject({ finished: 'completed', state: { contactPhone: null } });
    const noConsent = play(context, ['Sam', 'no', ...answers]);
    expect(noConsent.finished).toBe('completed');
    expect(noConsent.transcript.some((text) => /best phone number/.test(text))).toBe(false);
  });

  it('a next step that needs contact (a call back) always asks for a phone or email, even without consent (issue 15)', () => {
    const context = ctx({ requirePhoneVerification: false, nextStep: 'callback' });
    const answers = ['yes', '54', '1970-03-15', '2019', '3', '1', 'none', 'no'];
    const byEmail = play(context, ['Sam', 'no', ...answers, 'you can write to Sam.Lee@Example.org']);
    expect(byEmail.transcript.some((text) => /best phone number or email/.test(text))).toBe(true);
    expect(byEmail).toMatchObject({ finished: 'completed', state: { contactEmail: 'sam.lee@example.org', contactPhone: null } });
    expect(closing(context, byEmail.state, 'PASS')[0].text).toMatch(/A member of the study team will call you back soon\.$/);
  });

  it('skipping the contact is questioned once; then the chat ends without promising a call back', () => {
    const context = ctx({ requirePhoneVerification: false, nextStep: 'callback' });
    const answers = ['yes', '54', '1970-03-15', '2019', '3', '1', 'none', 'no'];
    const first = play(context, ['Sam', 'yes', ...answers, 'skip']);
    expect(first.finished).toBeNull();
    expect(first.transcript.at(-1)).toMatch(/needs a phone number or an email/);
    const skipped = play(context, ['Sam', 'yes', ...answers, 'skip', 'no thanks']);
    expect(skipped.finished).toBe('completed');
    const texts = closing(context, skipped.state, 'PASS').map((reply) => reply.text);
    expect(texts.some((text) => /call you back/.test(text))).toBe(false);
    expect(texts.some((text) => /cannot contact you/.test(text))).toBe(true);
  });

  it('a non-answer to the consent question is not recorded as a no', () => {
    const context = ctx({ requirePhoneVerification: false });
    const unsure = play(context, ['Sam', 'not sure', 'maybe', 'hmm']);
    expect(unsure.state.consent).toBeNull();
    expect(unsure.state.phase).toBe('questions');
    expect(play(context, ['Sam', 'no']).state.consent).toBe(false);
  });
});
