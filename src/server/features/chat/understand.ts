import type { Language, Question } from '../../../contract/prescreen-forms';
import { ENGLISH_NUMBER_WORDS } from '../../number-words';

/**
 * Understanding a visitor's free answer, deterministically and offline (docs/chat-dialogue.md §3).
 * Every parser returns the value in the question's type, or `null` when the answer is unclear (the dialogue
 * then asks again). Nothing here logs or keeps the text.
 */

export type Understood =
  | { kind: 'value'; value: boolean | number | string | string[]; note?: string }
  /** The person says they do not know: recorded as no answer. */
  | { kind: 'unknown' }
  | { kind: 'unclear' };

/** Lowercase, accents removed, punctuation to spaces, single spaces. */
export function normalize(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[’']/g, "'")
    .replace(/[^a-z0-9'/.\-\s]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const words = (text: string) => normalize(text).replace(/[.]/g, ' ').split(' ').filter(Boolean);

// ---- yes / no ----

const UNSURE = [
  /\b(not sure|unsure|dont know|don't know|do not know|idk|no idea|can't remember|cant remember|don't remember|dont remember|maybe|perhaps|not certain)\b/,
  /\b(no se|no lo se|no estoy segur[oa]|tal vez|quizas|quiza|a lo mejor|no recuerdo|no me acuerdo|ni idea)\b/,
];
const YES_FIRST = new Set([
  'yes',
  'yeah',
  'yea',
  'yep',
  'yup',
  'ya',
  'sure',
  'definitely',
  'absolutely',
  'certainly',
  'correct',
  'right',
  'affirmative',
  'ok',
  'okay',
  'true',
  'indeed',
  'si',
  'claro',
  'correcto',
  'cierto',
  'afirmativo',
  'exacto',
  'vale',
  'sip',
]);
const YES_PHRASES =
  /\b(of course|i do|i am|i have|i did|i was|that's right|thats right|por supuesto|asi es|desde luego|de acuerdo|lo tengo|la tengo|si tengo)\b/;
const NO_FIRST = new Set(['no', 'nope', 'nah', 'never', 'negative', 'none', 'nunca', 'jamas', 'ninguno', 'ninguna', 'tampoco', 'nop', 'false', 'not']);
const NO_ANYWHERE =
  /\b(no|not|never|nope|nah|don't|dont|doesn't|doesnt|haven't|havent|hasn't|hasnt|didn't|didnt|isn't|isnt|wasn't|wasnt|am not|i'm not|im not|nunca|jamas|ninguno|ninguna|nada)\b/;

export function parseYesNo(text: string): Understood {
  const norm = normalize(text);
  if (!norm) return { kind: 'unclear' };
  if (UNSURE.some((pattern) => pattern.test(norm))) return { kind: 'unknown' };
  const tokens = words(text);
  const first = tokens[0];
  if (NO_FIRST.has(first)) return { kind: 'value', value: false };
  if (YES_FIRST.has(first)) return { kind: 'value', value: true };
  if (NO_ANYWHERE.test(norm)) return { kind: 'value', value: false };
  if (YES_PHRASES.test(norm) || tokens.some((token) => YES_FIRST.has(token))) return { kind: 'value', value: true };
  return { kind: 'unclear' };
}

// ---- numbers ----

const UNITS_EN: Record<string, number> = { ...ENGLISH_NUMBER_WORDS, a: 1, once: 1, twice: 2 };
const TENS_EN: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
const UNITS_ES: Record<string, number> = {
  cero: 0,
  uno: 1,
  una: 1,
  un: 1,
  dos: 2,
  tres: 3,
  cuatro: 4,
  cinco: 5,
  seis: 6,
  siete: 7,
  ocho: 8,
  nueve: 9,
  diez: 10,
  once: 11,
  doce: 12,
  trece: 13,
  catorce: 14,
  quince: 15,
  dieciseis: 16,
  diecisiete: 17,
  dieciocho: 18,
  diecinueve: 19,
  veinte: 20,
  veintiuno: 21,
  veintidos: 22,
  veintitres: 23,
  veinticuatro: 24,
  veinticinco: 25,
  veintiseis: 26,
  veintisiete: 27,
  veintiocho: 28,
  veintinueve: 29,
};
const TENS_ES: Record<string, number> = { treinta: 30, cuarenta: 40, cincuenta: 50, sesenta: 60, setenta: 70, ochenta: 80, noventa: 90 };

/** Number words ("fifty-four", "cincuenta y cuatro") replaced by digits; "a" only counts before a unit word. */
export function wordsToDigits(text: string): string {
  const tokens = normalize(text).replace(/-/g, ' ').split(' ');
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    const tens = TENS_EN[token] ?? TENS_ES[token];
    if (tens !== undefined) {
      let value = tens;
      const next = tokens[i + 1];
      const afterY = tokens[i + 2];
      if (next && UNITS_EN[next] !== undefined && UNITS_EN[next] < 10 && next !== 'a' && next !== 'once' && next !== 'twice') {
        value += UNITS_EN[next];
        i += 1;
      } else if (next === 'y' && afterY && UNITS_ES[afterY] !== undefined && UNITS_ES[afterY] < 10) {
        value += UNITS_ES[afterY];
        i += 2;
      }
      out.push(String(value));
      continue;
    }
    if (token === 'a' || token === 'una' || token === 'un') {
      // "a week", "una vez": an article, not a count, unless followed by a frequency word.
      out.push(token);
      continue;
    }
    const unit = UNITS_EN[token] ?? (token === 'once' ? undefined : UNITS_ES[token]);
    if (unit !== undefined) out.push(String(unit));
    else out.push(token);
  }
  return out.join(' ');
}

const RANGE = /(\d+(?:[.,]\d+)?)\s*(?:\bor\b|\bto\b|-|–|\bo\b|\ba\b|\bu\b)\s*(\d+(?:[.,]\d+)?)/;
const BETWEEN = /\b(?:between|entre)\s+(-?\d+(?:[.,]\d+)?)\s+(?:and|y)\s+(-?\d+(?:[.,]\d+)?)/;
const toNumber = (raw: string) => Number(raw.replace(',', '.'));

/**
 * A number from "I'm 54", "54 years old", "about 30", "tengo 54 años", "fifty-four". A range
 * ("2 or 3 times a week", "between 2 and 3", "2-3") is its midpoint, noted so a reviewer sees it was a range.
 */
export function parseNumber(text: string): Understood {
  const norm = normalize(text);
  if (!norm) return { kind: 'unclear' };
  if (UNSURE.some((pattern) => pattern.test(norm))) return { kind: 'unknown' };
  const digits = wordsToDigits(text);
  if (/^(none|nothing|never|zero|ninguno|ninguna|nada|nunca)$/.test(norm) || /^(no|not any|not at all)$/.test(norm)) return { kind: 'value', value: 0 };
  const between = BETWEEN.exec(digits) ?? RANGE.exec(digits) ?? RANGE.exec(norm);
  if (between) {
    const low = toNumber(between[1]);
    const high = toNumber(between[2]);
    if (Number.isFinite(low) && Number.isFinite(high) && high >= low) {
      return { kind: 'value', value: (low + high) / 2, note: `range ${low}-${high}` };
    }
  }
  const numbers = [...digits.matchAll(/-?\d+(?:[.,]\d+)?/g)].map((match) => toNumber(match[0])).filter(Number.isFinite);
  if (numbers.length === 0) {
    if (/\b(once|una vez)\b/.test(norm)) return { kind: 'value', value: 1 };
    if (/\b(twice|dos veces)\b/.test(norm)) return { kind: 'value', value: 2 };
    return { kind: 'unclear' };
  }
  const half = /\b(and a half|y medio|y media)\b/.test(norm) ? 0.5 : 0;
  return { kind: 'value', value: numbers[0] + half };
}

// ---- dates ----

const MONTHS: Record<string, number> = {
  january: 1,
  jan: 1,
  february: 2,
  feb: 2,
  march: 3,
  mar: 3,
  april: 4,
  apr: 4,
  may: 5,
  june: 6,
  jun: 6,
  july: 7,
  jul: 7,
  august: 8,
  aug: 8,
  september: 9,
  sep: 9,
  sept: 9,
  october: 10,
  oct: 10,
  november: 11,
  nov: 11,
  december: 12,
  dec: 12,
  enero: 1,
  febrero: 2,
  marzo: 3,
  abril: 4,
  mayo: 5,
  junio: 6,
  julio: 7,
  agosto: 8,
  septiembre: 9,
  setiembre: 9,
  octubre: 10,
  noviembre: 11,
  diciembre: 12,
};

const pad = (value: number) => String(value).padStart(2, '0');

function isoDate(year: number, month: number, day: number): string | null {
  if (year < 1900 || year > 2100 || month < 1 || month > 12 || day < 1 || day > 31) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1) return null;
  return `${year}-${pad(month)}-${pad(day)}`;
}

const expandYear = (year: number, today: string) => {
  if (year >= 100) return year;
  const current = Number(today.slice(2, 4));
  return year <= current ? 2000 + year : 1900 + year;
};

/**
 * A date (YYYY-MM-DD) from "1970-03-15", "03/15/1970" (US order; day first when the first number is over 12
 * or the conversation is in Spanish), "15 de marzo de 1970", "March 15, 1970", "since March 2019" (the 1st of
 * the month), "in 2019" (1 January), "5 years ago" (counted from `today`).
 */
export function parseDate(text: string, options: { today: string; language?: Language } = { today: new Date().toISOString().slice(0, 10) }): Understood {
  const norm = normalize(text);
  if (!norm) return { kind: 'unclear' };
  if (UNSURE.some((pattern) => pattern.test(norm))) return { kind: 'unknown' };
  const { today } = options;
  let match = /\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b/.exec(norm);
  if (match) {
    const value = isoDate(Number(match[1]), Number(match[2]), Number(match[3]));
    return value ? { kind: 'value', value } : { kind: 'unclear' };
  }
  match = /\b(\d{1,2})[/.-](\d{1,2})[/.-](\d{2,4})\b/.exec(norm);
  if (match) {
    const a = Number(match[1]);
    const b = Number(match[2]);
    const year = expandYear(Number(match[3]), today);
    const dayFirst = a > 12 || (options.language === 'es' && b <= 12);
    const value = dayFirst ? isoDate(year, b, a) : isoDate(year, a, b);
    return value ? { kind: 'value', value } : { kind: 'unclear' };
  }
  const tokens = norm.replace(/[,.]/g, ' ').split(' ').filter(Boolean);
  const monthAt = tokens.findIndex((token) => MONTHS[token] !== undefined && !(token === 'may' && tokens.length > 1 && !/\d/.test(norm)));
  if (monthAt >= 0) {
    const month = MONTHS[tokens[monthAt]];
    const numbersAfter = tokens
      .slice(monthAt + 1)
      .map((token) => token.replace(/(st|nd|rd|th)$/, ''))
      .filter((token) => /^\d+$/.test(token))
      .map(Number);
    const before = tokens
      .slice(0, monthAt)
      .map((token) => token.replace(/(st|nd|rd|th)$/, ''))
      .filter((token) => /^\d+$/.test(token))
      .map(Number);
    const year = [...numbersAfter, ...before].find((value) => value >= 1900 && value <= 2100);
    const day = before.find((value) => value >= 1 && value <= 31) ?? numbersAfter.find((value) => value >= 1 && value <= 31);
    if (year) {
      const value = isoDate(year, month, day ?? 1);
      if (value) return day ? { kind: 'value', value } : { kind: 'value', value, note: 'month and year only' };
    }
    return { kind: 'unclear' };
  }
  match =
    /\b(\d+(?:\.\d+)?)\s+(years?|anos?|months?|meses?|mes)\s+(ago|atras)\b/.exec(wordsToDigits(text)) ??
    /\bhace\s+(\d+)\s+(anos?|meses?|mes)\b/.exec(wordsToDigits(text));
  if (match) {
    const amount = Number(match[1]);
    const unit = match[2];
    const date = new Date(`${today}T00:00:00Z`);
    if (/^(year|ano)/.test(unit)) date.setUTCFullYear(date.getUTCFullYear() - Math.round(amount));
    else date.setUTCMonth(date.getUTCMonth() - Math.round(amount));
    return { kind: 'value', value: date.toISOString().slice(0, 10), note: 'approximate' };
  }
  match = /\b(19\d{2}|20\d{2})\b/.exec(norm);
  if (match) return { kind: 'value', value: `${match[1]}-01-01`, note: 'year only' };
  return { kind: 'unclear' };
}

// ---- choices ----

export interface ChoiceOption {
  value: string;
  label: { en: string; es?: string };
}

const ORDINALS: Record<string, number> = {
  first: 1,
  '1st': 1,
  second: 2,
  '2nd': 2,
  third: 3,
  '3rd': 3,
  fourth: 4,
  '4th': 4,
  fifth: 5,
  '5th': 5,
  last: -1,
  primero: 1,
  primera: 1,
  segundo: 2,
  segunda: 2,
  tercero: 3,
  tercera: 3,
  cuarto: 4,
  cuarta: 4,
  quinto: 5,
  quinta: 5,
  ultimo: -1,
  ultima: -1,
};

const labelsOf = (option: ChoiceOption) => [option.label.en, option.label.es, option.value].filter((label): label is string => Boolean(label)).map(normalize);

function optionByPosition(token: string, options: ChoiceOption[]): ChoiceOption | undefined {
  if (/^\d+$/.test(token)) return options[Number(token) - 1];
  const ordinal = ORDINALS[token];
  if (ordinal === undefined) return undefined;
  return ordinal === -1 ? options[options.length - 1] : options[ordinal - 1];
}

/** The options whose label (English, Spanish or value) appears in the text as whole words, longest first. */
function optionsMentioned(norm: string, options: ChoiceOption[]): ChoiceOption[] {
  const padded = ` ${norm.replace(/[.,;]/g, ' ').replace(/\s+/g, ' ')} `;
  const found: Array<{ option: ChoiceOption; length: number; at: number }> = [];
  for (const option of options) {
    let best: { length: number; at: number } | null = null;
    for (const label of labelsOf(option)) {
      const at = padded.indexOf(` ${label} `);
      if (label && at >= 0 && (!best || label.length > best.length)) best = { length: label.length, at };
    }
    if (best) found.push({ option, ...best });
  }
  // A shorter label inside a longer one found at the same place ("cat" in "cat allergy") does not count.
  return found
    .filter(
      (item) => !found.some((other) => other !== item && other.length > item.length && other.at <= item.at && item.at + item.length <= other.at + other.length),
    )
    .sort((left, right) => left.at - right.at)
    .map((item) => item.option);
}

/** One option, by its number ("2"), an ordinal ("the second"), or its label in either language. */
export function parseSingleChoice(text: string, options: ChoiceOption[]): Understood {
  const norm = normalize(text);
  if (!norm) return { kind: 'unclear' };
  const exact = options.find((option) => labelsOf(option).includes(norm));
  if (exact) return { kind: 'value', value: exact.value };
  const tokens = words(text).filter((token) => !['the', 'option', 'number', 'la', 'el', 'opcion', 'numero', 'one'].includes(token));
  if (tokens.length === 1) {
    const byPosition = optionByPosition(tokens[0], options);
    if (byPosition) return { kind: 'value', value: byPosition.value };
  }
  const mentioned = optionsMentioned(norm, options);
  if (mentioned.length === 1) return { kind: 'value', value: mentioned[0].value };
  if (mentioned.length === 0) {
    // A unique option that starts with what was typed ("dai" for "Daily"), three letters at least.
    const prefixed = norm.length >= 3 ? options.filter((option) => labelsOf(option).some((label) => label.startsWith(norm))) : [];
    if (prefixed.length === 1) return { kind: 'value', value: prefixed[0].value };
  }
  if (UNSURE.some((pattern) => pattern.test(norm))) return { kind: 'unknown' };
  return { kind: 'unclear' };
}

const NONE = /^(none|none of (these|them|the above)|nothing|no|neither|ninguno|ninguna|ninguno de estos|ninguna de estas|nada|ningunos)$/;
const ALL = /^(all|all of (these|them|the above)|everything|todos|todas|todo|todos ellos)$/;

/** Several options: labels or numbers in a list ("asthma and diabetes", "1, 3"), "none" ([]) or "all". */
export function parseMultipleChoice(text: string, options: ChoiceOption[]): Understood {
  const norm = normalize(text)
    .replace(/[.!]+$/, '')
    .trim();
  if (!norm) return { kind: 'unclear' };
  if (NONE.test(norm)) return { kind: 'value', value: [] };
  if (ALL.test(norm)) return { kind: 'value', value: options.map((option) => option.value) };
  const mentioned = optionsMentioned(norm, options);
  const parts = norm.split(/[\s,;&]+/).filter((part) => part && !['and', 'y', 'e', 'plus', 'the', 'numbers', 'number', 'options', 'los', 'las'].includes(part));
  const byPosition = parts.every((part) => optionByPosition(part, options)) ? parts.map((part) => optionByPosition(part, options)!) : [];
  const chosen = [...new Set([...mentioned, ...byPosition].map((option) => option.value))];
  if (chosen.length) return { kind: 'value', value: options.map((option) => option.value).filter((value) => chosen.includes(value)) };
  if (UNSURE.some((pattern) => pattern.test(norm))) return { kind: 'unknown' };
  return { kind: 'unclear' };
}

/** Free text: kept as written (trimmed, at most 2000 characters). */
export function parseText(text: string): Understood {
  const trimmed = text.trim();
  return trimmed ? { kind: 'value', value: trimmed.slice(0, 2000) } : { kind: 'unclear' };
}

/** The answer to one question of the form, in its type. */
export function understandAnswer(question: Pick<Question, 'type' | 'options'>, text: string, options: { today: string; language?: Language }): Understood {
  switch (question.type) {
    case 'yes_no':
      return parseYesNo(text);
    case 'number':
      return parseNumber(text);
    case 'date':
      return parseDate(text, options);
    case 'single_choice':
      return parseSingleChoice(text, question.options ?? []);
    case 'multiple_choice':
      return parseMultipleChoice(text, question.options ?? []);
    case 'text':
      return parseText(text);
  }
}

// ---- what else a message may be ----

export type StudyTopic = 'about' | 'where' | 'other';

export type Intent = { kind: 'stop' } | { kind: 'medical_advice' } | { kind: 'study_question'; topic: StudyTopic } | { kind: 'language'; language: Language };

const STOP = [
  /^(please )?(stop|quit|exit|end|cancel|bye|goodbye|stop it|end chat|stop chat)( (please|now|the chat|this chat|this|chatting|it|here))*$/,
  /\b(i want to|i'd like to|id like to|i wanna|let me|can we|please) (stop|quit|end|leave)\b/,
  /^(por favor )?(para|parar|pare|detener|salir|terminar|termina|basta|adios|cancelar|alto)( (por favor|ya|aqui|la conversacion|el chat))*$/,
  /\bquiero (parar|terminar|salir|dejarlo|acabar)\b/,
];

const MEDICAL = [
  /\b(should|can|could|must|may|do) i (stop|start|take|quit|change|skip|keep taking|increase|reduce|lower|double|switch|come off|go off)\b/,
  /\b(is it|is this|would it be) (safe|dangerous|bad for me)\b/,
  /\b(what|which) (medication|medicine|drug|dose|dosage|treatment) should i\b/,
  /\b(side effects?|my (medication|medicine|meds|dose|dosage|pills|prescription|treatment))\b.*\?/,
  /\b(debo|puedo|deberia|tengo que) (dejar|tomar|cambiar|suspender|parar|aumentar|reducir|seguir tomando)\b/,
  /\b(es seguro|es peligroso)\b/,
  /\b(mi|mis) (medicamento|medicamentos|medicina|medicinas|pastillas|dosis|tratamiento)\b.*\?/,
];

const ABOUT = [
  /\bwhat('s| is)? (this|the) (study|trial|research)( about| for)?\b/,
  /\b(tell me|more) about (the|this) (study|trial)\b/,
  /\bwhat (study|trial) is (this|it)\b/,
  /\bwhat (is|are) (you|we) (studying|testing|researching)\b/,
  /\bde que (se trata|trata|es)\b/,
  /\b(sobre|acerca de) (que|el estudio|este estudio)\b/,
  /\bque (es|estudia) (el|este) estudio\b/,
];
const WHERE = [
  /\bwhere (is|are|will|would|do|does)\b/,
  /\b(what|which) (location|locations|site|sites|address|clinic|city)\b/,
  /\bhow far\b/,
  /\b(donde|en que lugar|direccion|ubicacion)\b/,
];

/** Spanish-only words; two of them (or one with an accented letter, ñ, ¿ or ¡) mark a Spanish message. */
const SPANISH_WORDS = new Set([
  'hola',
  'gracias',
  'tengo',
  'anos',
  'nunca',
  'claro',
  'estudio',
  'quiero',
  'cuando',
  'donde',
  'desde',
  'marzo',
  'enero',
  'febrero',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'octubre',
  'noviembre',
  'diciembre',
  'veces',
  'semana',
  'por',
  'favor',
  'bueno',
  'pero',
  'tambien',
  'soy',
  'estoy',
  'mi',
  'mis',
  'hace',
  'vez',
  'fumado',
  'tomado',
  'tenido',
  'sido',
  'estado',
  'diagnosticado',
  'fumar',
  'tomo',
  'tomar',
  'que',
  'como',
  'ninguno',
  'ninguna',
  'tal',
  'vale',
  'si',
  'los',
  'las',
  'del',
  'una',
  'es',
  'esta',
  'fumo',
  'nada',
  'medicamento',
]);

/** A language switch the visitor asks for, or the language a message is clearly written in. */
export function detectLanguage(text: string): { requested?: Language; written?: Language } {
  const norm = normalize(text);
  if (/\b(espanol|spanish|en espanol|hablas espanol|habla espanol)\b/.test(norm) && !/\b(english|ingles)\b/.test(norm)) return { requested: 'es' };
  if (/\b(english|ingles|en ingles)\b/.test(norm)) return { requested: 'en' };
  const tokens = words(text);
  const spanish = tokens.filter((token) => SPANISH_WORDS.has(token)).length;
  const marked = /[ñ¿¡áéíóú]/i.test(text);
  if (spanish >= 2 || (marked && spanish >= 1)) return { written: 'es' };
  const english = tokens.filter((token) =>
    ['the', 'i', "i'm", 'im', 'my', 'yes', 'yeah', 'years', 'old', 'since', 'never', 'what', 'is', 'and', 'about', 'week', 'times'].includes(token),
  ).length;
  if (english >= 2) return { written: 'en' };
  return {};
}

/** Stop, a medical question, a question about the study, or a language request; null: an answer. */
export function detectIntent(text: string): Intent | null {
  const norm = normalize(text)
    .replace(/[.!]+$/, '')
    .trim();
  if (STOP.some((pattern) => pattern.test(norm))) return { kind: 'stop' };
  const asked = `${norm}${/[?¿]/.test(text) ? ' ?' : ''}`;
  if (MEDICAL.some((pattern) => pattern.test(asked))) return { kind: 'medical_advice' };
  const language = detectLanguage(text).requested;
  if (language && words(text).length <= 6) return { kind: 'language', language };
  if (ABOUT.some((pattern) => pattern.test(norm))) return { kind: 'study_question', topic: 'about' };
  if (WHERE.some((pattern) => pattern.test(norm)) && /[?¿]|^(where|donde)\b/.test(`${text.trim().toLowerCase()} ${norm}`))
    return { kind: 'study_question', topic: 'where' };
  return null;
}

/** A phone number typed in a message (digits, spaces, dashes, parentheses, a leading +), or null. */
export function extractPhone(text: string): string | null {
  const match = /(\+?\(?\d[\d\s().-]{6,20}\d)/.exec(text);
  return match ? match[1].trim() : null;
}

/** A 6-digit code typed in a message, or null. */
export function extractCode(text: string): string | null {
  const digits = text.replace(/[\s-]/g, '');
  const match = /(?:^|\D)(\d{6})(?:\D|$)/.exec(digits);
  return match ? match[1] : null;
}

/**
 * Words that open a sentence but are never a first name: a greeting ("Hi there") or a question ("is this
 * for me?") answered to "what is your first name?" must be asked again, not greet the visitor as "There".
 */
const NOT_A_NAME = new Set(
  'there everyone all yes no ok okay sure thanks thank please what why how when where who which is are can could do does would i the a an this that it hi hello hey hola sí si gracias qué que cómo como cuál cual es está puedo'.split(
    ' ',
  ),
);

/** A first name from "Maria", "I'm Maria", "my name is Maria Lopez", "me llamo María": the first word, capitalized. */
export function parseFirstName(text: string): string | null {
  if (text.trim().endsWith('?')) return null;
  const cleaned = text
    .trim()
    .replace(/^(hi|hello|hey|hola|good (morning|afternoon|evening)|buenos días|buenas tardes|buenas)(\s+there)?[,!.\s]*/i, '')
    .replace(/^(my name is|my name's|my first name is|i am|i'm|im|it's|its|this is|call me|me llamo|mi nombre es|soy)\s+/i, '')
    .trim();
  const first = cleaned.split(/[\s,.!]+/)[0] ?? '';
  if (!/^[\p{L}][\p{L}'-]{0,39}$/u.test(first) || NOT_A_NAME.has(first.toLocaleLowerCase())) return null;
  return first.charAt(0).toLocaleUpperCase() + first.slice(1);
}
