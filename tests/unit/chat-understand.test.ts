import { describe, expect, it } from 'vitest';
import {
  detectIntent,
  detectLanguage,
  extractCode,
  extractPhone,
  parseDate,
  parseFirstName,
  parseMultipleChoice,
  parseNumber,
  parseSingleChoice,
  parseYesNo,
} from '../../src/server/features/chat/understand';

/** Real-sounding answers in English and Spanish, each with the value it must be read as. */

const value = (understood: { kind: string; value?: unknown }) => (understood.kind === 'value' ? understood.value : understood.kind);

describe('yes / no', () => {
  const table: Array<[string, boolean | 'unclear' | 'unknown']> = [
    ['yes', true],
    ['Yeah', true],
    ['yep!', true],
    ['Sure', true],
    ['of course', true],
    ['I do', true],
    ['Yes, since I was a kid', true],
    ['absolutely', true],
    ['no', false],
    ['No never', false],
    ['nope', false],
    ['nah', false],
    ["I've never smoked", false],
    ["I don't", false],
    ['Not at all', false],
    ['sí', true],
    ['Si', true],
    ['claro', true],
    ['claro que sí', true],
    ['por supuesto', true],
    ['no', false],
    ['nunca', false],
    ['No, nunca he fumado', false],
    ['jamás', false],
    ['not sure', 'unknown'],
    ["I don't know", 'unknown'],
    ['no sé', 'unknown'],
    ['tal vez', 'unknown'],
    ['purple', 'unclear'],
    ['', 'unclear'],
  ];
  for (const [text, expected] of table) {
    it(`"${text}" -> ${expected}`, () => expect(value(parseYesNo(text))).toBe(expected));
  }
});

describe('numbers', () => {
  const table: Array<[string, number | 'unclear' | 'unknown']> = [
    ["I'm 54", 54],
    ['54 years old', 54],
    ['about 30', 30],
    ['around 30ish', 30],
    ['tengo 54 años', 54],
    ['fifty-four', 54],
    ['fifty four', 54],
    ['cincuenta y cuatro', 54],
    ['2 or 3 times a week', 2.5],
    ['between 2 and 3', 2.5],
    ['2-3', 2.5],
    ['2 o 3 veces por semana', 2.5],
    ['entre 2 y 4', 3],
    ['once a week', 1],
    ['twice a day', 2],
    ['none', 0],
    ['never', 0],
    ['ninguna', 0],
    ['37.5', 37.5],
    ['7 and a half', 7.5],
    ["I don't know", 'unknown'],
    ['a lot', 'unclear'],
  ];
  for (const [text, expected] of table) {
    it(`"${text}" -> ${expected}`, () => expect(value(parseNumber(text))).toBe(expected));
  }
  it('a range is noted for the reviewer', () => {
    expect(parseNumber('2 or 3 times a week')).toEqual({ kind: 'value', value: 2.5, note: 'range 2-3' });
  });
});

describe('dates', () => {
  const today = '2025-06-15';
  const table: Array<[string, string | 'unclear' | 'unknown', ('en' | 'es')?]> = [
    ['1970-03-15', '1970-03-15'],
    ['03/15/1970', '1970-03-15'],
    ['3/15/70', '1970-03-15'],
    ['15/03/1970', '1970-03-15'],
    ['05/03/1970', '1970-03-05', 'es'],
    ['05/03/1970', '1970-05-03', 'en'],
    ['15 de marzo de 1970', '1970-03-15'],
    ['el 15 de marzo de 1970', '1970-03-15'],
    ['March 15, 1970', '1970-03-15'],
    ['15th March 1970', '1970-03-15'],
    ['since March 2019', '2019-03-01'],
    ['desde marzo de 2019', '2019-03-01'],
    ['in 2019', '2019-01-01'],
    ['5 years ago', '2020-06-15'],
    ['hace 2 años', '2023-06-15'],
    ['02/30/1970', 'unclear'],
    ['not sure', 'unknown'],
    ['a while back', 'unclear'],
  ];
  for (const [text, expected, language] of table) {
    it(`"${text}"${language ? ` (${language})` : ''} -> ${expected}`, () => expect(value(parseDate(text, { today, language }))).toBe(expected));
  }
});

describe('choices', () => {
  const options = [
    { value: 'daily', label: { en: 'Every day', es: 'Todos los días' } },
    { value: 'weekly', label: { en: 'Once a week', es: 'Una vez por semana' } },
    { value: 'rarely', label: { en: 'Rarely', es: 'Casi nunca' } },
  ];
  const single: Array<[string, string | 'unclear']> = [
    ['2', 'weekly'],
    ['the second one', 'weekly'],
    ['Every day', 'daily'],
    ['every day, pretty much', 'daily'],
    ['todos los días', 'daily'],
    ['rarely', 'rarely'],
    ['casi nunca', 'rarely'],
    ['the last', 'rarely'],
    ['rar', 'rarely'],
    ['7', 'unclear'],
    ['bananas', 'unclear'],
  ];
  for (const [text, expected] of single) {
    it(`single "${text}" -> ${expected}`, () => expect(value(parseSingleChoice(text, options))).toBe(expected));
  }

  const conditions = [
    { value: 'asthma', label: { en: 'Asthma', es: 'Asma' } },
    { value: 'diabetes', label: { en: 'Diabetes', es: 'Diabetes' } },
    { value: 'copd', label: { en: 'COPD', es: 'EPOC' } },
  ];
  const multiple: Array<[string, string[] | 'unclear']> = [
    ['asthma and diabetes', ['asthma', 'diabetes']],
    ['Diabetes, asthma', ['asthma', 'diabetes']],
    ['1, 3', ['asthma', 'copd']],
    ['1 and 2', ['asthma', 'diabetes']],
    ['asma y EPOC', ['asthma', 'copd']],
    ['none', []],
    ['ninguna', []],
    ['all of them', ['asthma', 'diabetes', 'copd']],
    ['just COPD', ['copd']],
    ['heart trouble', 'unclear'],
  ];
  for (const [text, expected] of multiple) {
    it(`multiple "${text}" -> ${JSON.stringify(expected)}`, () => expect(value(parseMultipleChoice(text, conditions))).toEqual(expected));
  }
});

describe('intents', () => {
  const table: Array<[string, unknown]> = [
    ['stop', { kind: 'stop' }],
    ['Quit', { kind: 'stop' }],
    ['I want to stop', { kind: 'stop' }],
    ['parar', { kind: 'stop' }],
    ['quiero terminar', { kind: 'stop' }],
    ['I stopped smoking last year', null],
    ['Should I stop my medication?', { kind: 'medical_advice' }],
    ['can I take ibuprofen?', { kind: 'medical_advice' }],
    ['¿Debo dejar mi medicamento?', { kind: 'medical_advice' }],
    ['What is this study about?', { kind: 'study_question', topic: 'about' }],
    ['¿De qué se trata?', { kind: 'study_question', topic: 'about' }],
    ['Where is it?', { kind: 'study_question', topic: 'where' }],
    ['¿Dónde es?', { kind: 'study_question', topic: 'where' }],
    ['español', { kind: 'language', language: 'es' }],
    ['in English please', { kind: 'language', language: 'en' }],
    ['yes', null],
    ["I'm 54", null],
  ];
  for (const [text, expected] of table) {
    it(`"${text}" -> ${JSON.stringify(expected)}`, () => expect(detectIntent(text)).toEqual(expected));
  }
  it('reads the language a message is written in', () => {
    expect(detectLanguage('tengo 54 años').written).toBe('es');
    expect(detectLanguage('No, nunca he fumado').written).toBe('es');
    expect(detectLanguage("I'm 54 years old").written).toBe('en');
    expect(detectLanguage('54').written).toBeUndefined();
  });
});

describe('names, phones, codes', () => {
  it('reads a first name', () => {
    expect(parseFirstName('Maria')).toBe('Maria');
    expect(parseFirstName("hi, I'm maria lopez")).toBe('Maria');
    expect(parseFirstName('my name is José')).toBe('José');
    expect(parseFirstName('Me llamo Ana')).toBe('Ana');
    expect(parseFirstName('12345')).toBeNull();
    expect(parseFirstName('Good evening, this is Tomás')).toBe('Tomás');
  });
  it('asks again when the answer to "what is your first name?" is a greeting or a question (issue 32 QA)', () => {
    expect(parseFirstName('Hi there')).toBeNull();
    expect(parseFirstName('hello!')).toBeNull();
    expect(parseFirstName('Hey, is this study still open?')).toBeNull();
    expect(parseFirstName('what do you need my name for?')).toBeNull();
    expect(parseFirstName('Buenas tardes')).toBeNull();
    expect(parseFirstName('Hello there, I am Priya')).toBe('Priya');
    expect(parseFirstName('Will')).toBe('Will');
  });
  it('finds a phone number and a code in a message', () => {
    expect(extractPhone('my number is (212) 555-0199')).toBe('(212) 555-0199');
    expect(extractPhone('+1 212 555 0199')).toBe('+1 212 555 0199');
    expect(extractPhone('yes')).toBeNull();
    expect(extractCode('123456')).toBe('123456');
    expect(extractCode('the code is 123 456')).toBe('123456');
    expect(extractCode('12345')).toBeNull();
  });
});
