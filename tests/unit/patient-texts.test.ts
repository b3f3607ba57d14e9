import { describe, expect, it } from 'vitest';
import { acronymIn, patientTrialName } from '../../src/contract/trial-name';
import { whenInWords } from '../../src/contract/when-words';
import { DIALOGUE_STRINGS } from '../../src/server/features/chat/dialogue';
import { verificationText } from '../../src/server/features/chat/phone-verification';
import { feedbackTimeOf } from '../../src/server/features/prescreen/visit-feedback';
import { renderStep } from '../../src/server/features/sequences/messages';
import { FEEDBACK_THANKS, keywordReply } from '../../src/server/features/sms/inbound';
import { renderTemplate, SMS_TEMPLATES } from '../../src/server/features/sms/templates';

// Issue 32, item 6: every text a patient reads (SMS templates, keyword answers, the chat agent's lines, sequence
// footers, the verification code), rendered in English and Spanish the way the product fills them, is checked
// for what reads like a database: {placeholders}, ISO dates, zone ids, snake_case codes, and English in Spanish.

type Language = 'en' | 'es';

/** A trial as CT.gov gives it: a long official title, no brief title, its acronym in brackets. */
const LONG_TRIAL = {
  title:
    'A Phase 3, Randomized, Double-blind, Placebo-controlled Study to Evaluate the Efficacy and Safety of Tezepelumab in Adults With Severe Uncontrolled Asthma (RESTORE-2)',
  publicTitle: null,
  conditions: ['Asthma'],
};
const VISIT = new Date('2026-12-02T23:30:00Z');
const SITE_ZONE = 'Australia/Sydney';

/** The values the product fills a template with, in the reader's language. */
const filled = (language: Language) => ({
  firstName: 'María',
  organizationName: 'Centro Médico Sol',
  trialTitle: patientTrialName(LONG_TRIAL, language),
  visitTime: whenInWords(VISIT, SITE_ZONE, language, { now: new Date('2026-11-29T00:00:00Z') }),
  siteAddress: 'Calle Mayor 5, Madrid',
});

const sayLine = (text: string) =>
  text.replace(
    /\{(\w+)\}/g,
    (_match, name: string) => ({ name: ', María', left: '2', title: 'Estudio RESTORE-2', summary: '', conditions: '', list: 'Madrid' })[name] ?? `{${name}}`,
  );

function everyText(language: Language): Array<[string, string]> {
  const texts: Array<[string, string]> = [];
  for (const key of Object.keys(SMS_TEMPLATES)) texts.push([`sms ${key}`, renderTemplate(key, language, filled(language)).text]);
  for (const [key, value] of Object.entries(DIALOGUE_STRINGS[language])) if (typeof value === 'string') texts.push([`chat ${key}`, sayLine(value)]);
  for (const action of ['opt_out', 'opt_in', 'help'] as const)
    texts.push([`keyword ${action}`, keywordReply(action, 'Centro Médico Sol', undefined, language)!]);
  texts.push(['feedback thanks', FEEDBACK_THANKS[language]]);
  texts.push(['verification code', verificationText(language, '123456')]);
  const sms = renderStep({ type: 'sms', message: { en: 'Hi {firstName}', es: 'Hola {firstName}' } } as never, language, filled(language), language);
  texts.push(['sequence sms', sms.text]);
  const email = renderStep(
    { type: 'email', subject: { en: 'About {trialTitle}', es: 'Sobre {trialTitle}' }, body: { en: 'Hi {firstName}', es: 'Hola {firstName}' } } as never,
    language,
    filled(language),
    language,
  );
  texts.push(['sequence email', `${email.subject}\n${email.text}`]);
  return texts;
}

/** What a patient would notice as a database leaking through. */
function databaseLook(text: string): string[] {
  const found: string[] = [];
  if (/\{[a-zA-Z]+\}/.test(text)) found.push('a {placeholder}');
  if (/\d{4}-\d{2}-\d{2}|T\d{2}:\d{2}|\d{2}:\d{2}:\d{2}/.test(text)) found.push('an ISO date or time');
  if (/\b(?:America|Europe|Australia|Asia|Africa|Pacific|Etc)\/[A-Z]/.test(text)) found.push('a time zone id');
  if (/\b[a-z]+_[a-z_]+\b|\b[A-Z]+_[A-Z_]+\b/.test(text)) found.push('a snake_case code');
  if (/\b(?:undefined|null|NaN|\[object Object\])\b/.test(text)) found.push('a programming value');
  return found;
}

/** Common English words that have no business in a Spanish text (carrier keywords STOP/START/HELP are expected). */
const ENGLISH_WORDS =
  /\b(the|and|your|you|visit|study|reply|please|thank|thanks|will|call|with|for|time|at|on|is|to|of|hi|hello|confirmed|reminder|questions?|code|number)\b/i;

describe('texts to patients (issue 32, item 6)', () => {
  for (const language of ['en', 'es'] as const) {
    it(`read as words in ${language === 'en' ? 'English' : 'Spanish'}: no placeholders, ISO dates, zone ids or codes`, () => {
      const texts = everyText(language);
      expect(texts.length).toBeGreaterThan(50);
      const problems = texts.flatMap(([where, text]) => databaseLook(text).map((problem) => `${where}: ${problem} in "${text}"`));
      expect(problems).toEqual([]);
    });
  }

  it('in Spanish, say no common English word', () => {
    const english = everyText('es').flatMap(([where, text]) => {
      const word = ENGLISH_WORDS.exec(text.replace(/\b(STOP|START|HELP)\b/g, ''));
      return word ? [`${where}: "${word[0]}" in "${text}"`] : [];
    });
    expect(english).toEqual([]);
  });

  it('the check itself catches what it looks for', () => {
    expect(databaseLook('confirmed for 2026-12-03 10:30 (Australia/Sydney)')).toEqual(['an ISO date or time', 'a time zone id']);
    expect(databaseLook('SMS sent: visit_confirmation for {trialTitle}')).toEqual(['a {placeholder}', 'a snake_case code']);
    expect(ENGLISH_WORDS.test('Hola, su visita para the study')).toBe(true);
  });

  it('the confirmation says the visit in words in the site zone and the trial by its short name', () => {
    const en = renderTemplate('visit_confirmation', 'en', filled('en')).text;
    expect(en).toContain('confirmed for Thursday 3 December at 10:30 am (Sydney time)');
    expect(en).toContain('the RESTORE-2 study');
    expect(en).not.toContain('Randomized');
    const es = renderTemplate('visit_confirmation', 'es', filled('es')).text;
    expect(es).toContain('confirmada para el jueves 3 de diciembre a las 10:30');
    expect(es).toContain('el estudio RESTORE-2');
  });
});

describe("a trial's name to a patient", () => {
  it('is the brief title when there is one, never the official title', () => {
    expect(patientTrialName({ ...LONG_TRIAL, publicTitle: 'Tezepelumab for Severe Asthma' }, 'en')).toBe('Tezepelumab for Severe Asthma');
  });

  it('falls back to the acronym, then the condition (English), then "the study"', () => {
    expect(patientTrialName(LONG_TRIAL, 'en')).toBe('the RESTORE-2 study');
    const noAcronym = { ...LONG_TRIAL, title: LONG_TRIAL.title.replace(' (RESTORE-2)', '') };
    expect(patientTrialName(noAcronym, 'en')).toBe('the asthma study');
    expect(patientTrialName(noAcronym, 'es')).toBe('el estudio');
    expect(patientTrialName({ ...noAcronym, conditions: ['COPD'] }, 'en')).toBe('the COPD study');
    expect(patientTrialName({ ...noAcronym, conditions: [] }, 'en')).toBe('the study');
  });

  it('reads acronyms in brackets or leading the title, not ordinary capitals', () => {
    expect(acronymIn('HOPE-3: A Study of Heart Outcomes')).toBe('HOPE-3');
    expect(acronymIn('A Study in Adults With COPD')).toBeNull();
    expect(acronymIn('A Study of Drug X (Part A)')).toBeNull();
  });
});

describe('the satisfaction question', () => {
  it('waits until an hour after the visit ends, moved into the site daytime', () => {
    // 10:30 am Sydney, 45 minutes: asked at 12:15 pm Sydney.
    expect(feedbackTimeOf({ startsAt: VISIT, durationMinutes: 45, siteTimeZone: SITE_ZONE }).toISOString()).toBe('2026-12-03T01:15:00.000Z');
    // 8 pm, an hour long: 10 pm is late, so 8 am the next morning.
    const evening = new Date('2026-12-03T09:00:00Z');
    expect(feedbackTimeOf({ startsAt: evening, durationMinutes: 60, siteTimeZone: SITE_ZONE }).toISOString()).toBe('2026-12-03T21:00:00.000Z');
  });
});
