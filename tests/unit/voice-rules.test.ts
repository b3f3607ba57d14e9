import { describe, expect, it } from 'vitest';
import type { StudyBlock } from '../../src/contract/prescreen-forms';
import { extractCallAnswers, transcriptAnswer } from '../../src/server/features/calls/answers';
import { withinCallingHours } from '../../src/server/calling-hours';
import { outcomeFor } from '../../src/server/features/calls/webhook';
import { syntheticAnswer } from '../../src/server/integrations/voice/simulator';
import { assistantBody } from '../../src/server/integrations/voice/vapi';

const blocks: StudyBlock[] = [
  {
    id: 'b',
    title: { en: 'About you' },
    questions: [
      {
        id: 'dob',
        type: 'date',
        wording: { phone: { en: 'What is your date of birth?', es: '¿Cuál es su fecha de nacimiento?' }, chat: { en: 'DOB?' } },
        required: true,
        criterionLinks: [],
      },
      {
        id: 'asthma',
        type: 'yes_no',
        wording: {
          phone: { en: 'Has a doctor ever told you that you have asthma?', es: '¿Un médico le ha dicho alguna vez que tiene asma?' },
          chat: { en: 'Asthma?' },
        },
        required: true,
        criterionLinks: [],
      },
      {
        id: 'puffs',
        type: 'number',
        wording: { phone: { en: 'How many times a week do you use your rescue inhaler?' }, chat: { en: 'Puffs?' } },
        required: true,
        criterionLinks: [],
      },
    ],
  },
];

describe("calling hours (08:00-21:00 in the candidate's time zone)", () => {
  const at = (iso: string) => new Date(iso);
  it('judges the local time of each zone', () => {
    // 13:30 UTC = 09:30 New York (EDT), 06:30 Los Angeles, 14:30 London (BST).
    const now = at('2026-06-15T13:30:00Z');
    expect(withinCallingHours(now, 'America/New_York')).toBe(true);
    expect(withinCallingHours(now, 'America/Los_Angeles')).toBe(false);
    expect(withinCallingHours(now, 'Europe/London')).toBe(true);
    expect(withinCallingHours(now, 'Asia/Tokyo')).toBe(false); // 22:30
  });
  it('defaults to America/New_York and handles the edges (start inclusive, end exclusive)', () => {
    expect(withinCallingHours(at('2026-01-15T13:00:00Z'), null)).toBe(true); // 08:00 EST
    expect(withinCallingHours(at('2026-01-15T12:59:00Z'), 'Not/AZone')).toBe(false); // 07:59 EST
    expect(withinCallingHours(at('2026-01-16T01:59:00Z'), null)).toBe(true); // 20:59 EST
    expect(withinCallingHours(at('2026-01-16T02:00:00Z'), null)).toBe(false); // 21:00 EST
  });
  it("narrows to the agent's hours but never widens past the legal window", () => {
    const nine = at('2026-01-15T14:00:00Z'); // 09:00 EST
    expect(withinCallingHours(nine, null, '09:30', '17:00')).toBe(false);
    expect(withinCallingHours(nine, null, '06:00', '23:00')).toBe(true);
    expect(withinCallingHours(at('2026-01-15T12:00:00Z'), null, '06:00', '23:00')).toBe(false); // 07:00
  });
});

describe('outcome of an ended call', () => {
  it.each([
    ['customer-did-not-answer', false, 'no_answer'],
    ['customer-busy', false, 'busy'],
    ['voicemail', false, 'voicemail'],
    ['customer-ended-call', false, 'hung_up'],
    ['customer-ended-call', true, 'completed'],
    ['assistant-ended-call', false, 'completed'],
    ['assistant-said-end-call-phrase', false, 'completed'],
    ['twilio-failed-to-connect-call', false, 'failed'],
    ['pipeline-error-openai-llm-failed', false, 'failed'],
    ['silence-timed-out', false, 'hung_up'],
  ])('%s (prescreen complete: %s) -> %s', (reason, complete, outcome) => {
    expect(outcomeFor(reason, complete)).toBe(outcome);
  });
});

describe('answers from a call', () => {
  const transcript = [
    { role: 'assistant', text: 'Hello! This is the study team.' },
    { role: 'assistant', text: 'Has a doctor ever told you that you have asthma?' },
    { role: 'user', text: 'Yes, since I was a kid.' },
    { role: 'assistant', text: 'How many times a week do you use your rescue inhaler?' },
    { role: 'user', text: 'About three times' },
    { role: 'assistant', text: '¿Cuál es su fecha de nacimiento?' },
    { role: 'user', text: '1980-03-04' },
  ];
  it('finds the question by its wording (either language) and reads the next user turn', () => {
    expect(transcriptAnswer(blocks[0].questions[1], transcript)).toBe('Yes, since I was a kid.');
    expect(transcriptAnswer(blocks[0].questions[0], transcript)).toBe('1980-03-04');
    expect(transcriptAnswer(blocks[0].questions[1], [{ role: 'assistant', text: 'Goodbye' }])).toBeUndefined();
  });
  it('prefers structured data, then tool-recorded answers, then the transcript; values take the question type', () => {
    const answers = extractCallAnswers(
      blocks,
      { structuredData: { analysis: { answers: { asthma: 'no' } }, answers: { asthma: 'yes', puffs: '5' } }, transcript, language: 'en' },
      '2026-06-15',
    );
    expect(answers).toEqual([
      { questionId: 'dob', value: '1980-03-04', evidence: 'Said on the call: 1980-03-04' },
      { questionId: 'asthma', value: false, evidence: 'From the call' },
      { questionId: 'puffs', value: 5, evidence: 'Recorded by the agent during the call' },
    ]);
  });
  it('reads a date of birth said as a person says it, in English and Spanish (issue 32)', () => {
    const said = (text: string, language: 'en' | 'es') =>
      extractCallAnswers(
        blocks,
        {
          structuredData: {},
          transcript: [
            { role: 'assistant', text: 'What is your date of birth?' },
            { role: 'user', text },
          ],
          language,
        },
        '2026-06-15',
      )[0];
    expect(said('September 3, 1975', 'en')).toMatchObject({ questionId: 'dob', value: '1975-09-03' });
    expect(said('It is the 3rd of September 1975', 'en')).toMatchObject({ questionId: 'dob', value: '1975-09-03' });
    expect(said('3 de septiembre de 1975', 'es')).toMatchObject({ questionId: 'dob', value: '1975-09-03' });
    expect(said('nací el 28 de febrero de 1961', 'es')).toMatchObject({ questionId: 'dob', value: '1961-02-28' });
  });
  it("reads back the simulator's spoken date of birth in both languages", () => {
    const person = { dateOfBirth: '1969-11-30', sex: 'male', customFields: {} };
    for (const language of ['en', 'es'] as const) {
      const text = syntheticAnswer({ id: 'dob', type: 'date', phone: { en: 'What is your date of birth?' } }, person, language);
      expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
      const answers = extractCallAnswers(blocks, { structuredData: { answers: { dob: text } }, transcript: [], language }, '2026-06-15');
      expect(answers[0]).toMatchObject({ questionId: 'dob', value: '1969-11-30' });
    }
  });
  it('leaves out unclear answers', () => {
    expect(extractCallAnswers(blocks, { structuredData: { answers: { asthma: 'purple' } }, transcript: [], language: 'en' })).toEqual([]);
  });
});

describe("the simulator's synthetic person", () => {
  const person = { dateOfBirth: '1980-03-04', sex: 'female', customFields: { asthma: true, puffs: 4 } };
  it('answers from the candidate record, else a deterministic default', () => {
    expect(syntheticAnswer({ id: 'dob', type: 'date', phone: { en: 'What is your date of birth?' } }, person, 'en')).toBe('March 4, 1980');
    expect(syntheticAnswer({ id: 'dob', type: 'date', phone: { en: 'What is your date of birth?' } }, person, 'es')).toBe('4 de marzo de 1980');
    expect(syntheticAnswer({ id: 'asthma', type: 'yes_no', phone: { en: 'Asthma?' } }, person, 'es')).toBe('sí');
    expect(syntheticAnswer({ id: 'puffs', type: 'number', phone: { en: 'Puffs?' } }, person, 'en')).toBe('4');
    expect(syntheticAnswer({ id: 'smoke', type: 'yes_no', phone: { en: 'Do you smoke?' } }, person, 'en')).toBe('no');
    // Someone who answered an invitation is mostly willing, and says when to call in words, the same on every call.
    expect(syntheticAnswer({ id: 'travel', type: 'yes_no', phone: { en: 'Are you willing to travel to the site?' } }, person, 'en')).toBe('yes');
    const when = { id: 'best_time', type: 'text', phone: { en: 'What is the best time of day to contact you?' } } as const;
    expect(['mornings', 'afternoons', 'evenings']).toContain(syntheticAnswer(when, person, 'en'));
    expect(syntheticAnswer(when, person, 'en')).toBe(syntheticAnswer(when, { ...person, customFields: {} }, 'en'));
    expect(['por las mañanas', 'por las tardes', 'por las noches']).toContain(syntheticAnswer(when, person, 'es'));
    expect(syntheticAnswer({ id: 'other', type: 'text', phone: { en: 'Anything else you would like us to know?' } }, person, 'en')).toBe('nothing else');
    expect(
      syntheticAnswer(
        {
          id: 'sex',
          type: 'single_choice',
          phone: { en: 'What is your sex?' },
          options: [
            { value: 'male', label: { en: 'Male' } },
            { value: 'female', label: { en: 'Female', es: 'Femenino' } },
          ],
        },
        person,
        'es',
      ),
    ).toBe('Femenino');
  });
});

describe("the synthetic person's clinical facts", () => {
  const withFacts = (facts: Array<{ name: string; status: 'present' | 'history' | 'absent' | null; value: number | null }>) => ({
    dateOfBirth: '1980-03-04',
    sex: 'male',
    customFields: {},
    facts,
  });
  const yesNo = (id: string, en: string) => ({ id, type: 'yes_no' as const, phone: { en } });
  it('answers yes to a condition or medication the record holds, no to one stated absent or only in the past', () => {
    const person = withFacts([
      { name: 'asthma', status: 'present', value: null },
      { name: 'chronic obstructive pulmonary disease', status: 'absent', value: null },
      { name: 'heart failure', status: 'history', value: null },
    ]);
    expect(syntheticAnswer(yesNo('asthma_dx', 'Have you been diagnosed with asthma by a doctor?'), person, 'en')).toBe('yes');
    expect(syntheticAnswer(yesNo('asthma_dx', 'Have you been diagnosed with asthma by a doctor?'), person, 'es')).toBe('sí');
    expect(syntheticAnswer(yesNo('copd', 'Do you have chronic obstructive pulmonary disease?'), person, 'en')).toBe('no');
    expect(syntheticAnswer(yesNo('hf_now', 'Do you currently have heart failure?'), person, 'en')).toBe('no');
    expect(syntheticAnswer(yesNo('hf_ever', 'Have you ever had heart failure?'), person, 'en')).toBe('yes');
    // Their record says nothing about it: they are not sure (the result then stays open), in their language.
    expect(syntheticAnswer(yesNo('pregnant', 'Are you pregnant?'), person, 'en')).toBe("I'm not sure");
    expect(syntheticAnswer(yesNo('pregnant', 'Are you pregnant?'), person, 'es')).toBe('no lo sé');
    // Being willing is not a fact of the record: someone who answered an invitation mostly is.
    expect(syntheticAnswer(yesNo('travel', 'Are you able to travel to the site for visits?'), person, 'en')).toBe('yes');
    // A person with no clinical record at all keeps the plain default: no.
    expect(syntheticAnswer(yesNo('pregnant', 'Are you pregnant?'), withFacts([]), 'en')).toBe('no');
  });
  it("leaves the question unanswered when the person is not sure, in either language (no 'no' read into it)", () => {
    const person = withFacts([{ name: 'eczema', status: 'present', value: null }]);
    for (const language of ['en', 'es'] as const) {
      const said = syntheticAnswer(yesNo('asthma', 'Has a doctor ever told you that you have asthma?'), person, language);
      expect(extractCallAnswers(blocks, { structuredData: { answers: { asthma: said } }, transcript: [], language })).toEqual([]);
    }
  });
  it('knows a kind of a condition named by what it comes with as the condition asked about', () => {
    const person = withFacts([{ name: 'migraine with aura', status: 'present', value: null }]);
    expect(syntheticAnswer(yesNo('migraine', 'Have you been told by a doctor that you have migraine?'), person, 'en')).toBe('yes');
    // One kind stated absent says nothing of the others: not sure.
    const without = withFacts([{ name: 'migraine without aura', status: 'absent', value: null }]);
    expect(syntheticAnswer(yesNo('migraine', 'Have you been told by a doctor that you have migraine?'), without, 'es')).toBe('no lo sé');
  });
  it('knows a condition recorded with a qualifier by its plain name, and a course taken within the window asked about', () => {
    const person = withFacts([
      { name: 'eczema (severe)', status: 'present', value: null },
      { name: 'antibiotic tablets (such as amoxicillin)', status: 'history', value: null },
      { name: 'smoking', status: 'present', value: null },
    ]);
    expect(syntheticAnswer(yesNo('condition-eczema', 'Has a doctor told you that you have eczema?'), person, 'en')).toBe('yes');
    expect(
      syntheticAnswer(yesNo('medication-antibiotic', 'In the last 6 months, have you taken antibiotic tablets (such as amoxicillin)?'), person, 'en'),
    ).toBe('yes');
    // Taken before but asked about now: no.
    expect(syntheticAnswer(yesNo('medication-antibiotic', 'Are you currently taking antibiotic tablets (such as amoxicillin)?'), person, 'en')).toBe('no');
    // The generated smoking question names no fact; its id does.
    expect(syntheticAnswer(yesNo('smoking', 'Do you currently use tobacco or nicotine products?'), person, 'es')).toBe('sí');
  });
  it('gives a lab value or the age the record holds, else is not sure', () => {
    const person = withFacts([{ name: 'FEV1', status: null, value: 62 }]);
    expect(syntheticAnswer({ id: 'fev1', type: 'number', phone: { en: 'What was your last FEV1 result?' } }, person, 'en')).toBe('62');
    expect(syntheticAnswer({ id: 'age', type: 'number', phone: { en: 'How old are you?' } }, person, 'en', new Date('2026-03-04T12:00:00Z'))).toBe('46');
    expect(syntheticAnswer({ id: 'age', type: 'number', phone: { en: 'How old are you?' } }, person, 'en', new Date('2026-03-03T12:00:00Z'))).toBe('45');
    expect(syntheticAnswer({ id: 'puffs', type: 'number', phone: { en: 'How many puffs a day?' } }, person, 'es')).toBe('no lo sé');
  });
  it('does not read a short fact name inside another word', () => {
    const person = withFacts([{ name: 'flu', status: 'present', value: null }]);
    expect(syntheticAnswer(yesNo('fluid', 'Do you retain fluid?'), person, 'en')).toBe("I'm not sure");
  });
});

describe('the Vapi assistant body', () => {
  it('points the server and every tool at our public address, with the secret', () => {
    const spec = {
      agentId: 'a1',
      organizationId: 'o1',
      name: 'Screener',
      type: 'PRESCREEN' as const,
      languages: ['en', 'es'],
      voice: 'default',
      firstMessage: { en: 'Hi' },
      voicemailMessage: { en: 'Bye' },
      questions: [{ id: 'q1', type: 'yes_no' as const, phone: { en: 'Asthma?' } }],
      publicBaseUrl: 'https://cohortly.example/',
    };
    const body = assistantBody(spec, 's3cret');
    expect(body.server).toEqual({ url: 'https://cohortly.example/api/inbound/vapi', secret: 's3cret' });
    expect(body.model.tools.map((tool) => tool.function.name)).toEqual([
      'set-call-metadata',
      'set-sms-metadata',
      'update-preferred-language',
      'mark-exit-status',
      'switch-language',
      'switch-transcriber-from-multi-to-current',
      'end-prescreen-chat',
      'schedule-callback',
      'scheduled-callback',
    ]);
    expect(body.model.tools.every((tool) => tool.server.url.startsWith('https://cohortly.example/api/functions/vapi/'))).toBe(true);
    expect(body.transcriber.language).toBe('multi');
    expect(assistantBody(spec, undefined).server).toEqual({ url: 'https://cohortly.example/api/inbound/vapi' });
  });
});
