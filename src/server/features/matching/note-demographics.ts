import type { Sentence } from './note-text';

/**
 * A note's patient age and sex (docs/note-extraction.md, "What it reads"): the earliest age phrasing that is not a
 * relative's or an event's, a written date of birth, and the person word, title or pronouns that say the sex.
 */

const AGE_UNIT = String.raw`(years?|yrs?|y|months?|mos?|weeks?|wks?|days?|d)`;
const PERSON = String.raw`(?:man|woman|male|female|boy|girl|gentleman|lady|patient|child|infant|baby|newborn|neonate|toddler|adolescent|teen(?:ager)?|farmer|student|athlete|veteran|person|individual)`;
/** Age phrasings, best first. Group 1 the number, group 2 the unit (years when absent). */
const AGE_PATTERNS: RegExp[] = [
  new RegExp(String.raw`\b(\d{1,3}(?:\.\d)?)\s*[- ]?\s*${AGE_UNIT}\.?\s*[- ]?\s*olds?\b`, 'gi'),
  /\b(\d{1,3})\s*()(?:yo|y\/o|y\.o\.?|yr\.? old|yrs\.? old)(?![a-z])/gi,
  new RegExp(
    String.raw`\b(\d{1,3})\s*[- ]?\s*${AGE_UNIT}\s+(?=(?:(?:old|African[- ]American|Caucasian|white|black|Asian|Hispanic|Latin[ao]|obese)\s+)*${PERSON}\b)`,
    'gi',
  ),
  new RegExp(String.raw`\b(\d{1,3})\s*${AGE_UNIT}\s+of\s+age\b`, 'gi'),
  /(?<!\b(?:at|since|by|from|until|before|after|of|onset|the)\s+)\baged?\s*:?\s*(\d{1,3})()\b(?!\s*(?:-|to|and)\s*\d)/gi,
];
/** "48 M", "74M", "22yo F": a number and M/F opening a note. */
const AGE_SEX_SHORT = /^(?:(?:pt|patient)(?: is)?(?: a)?\s+|an?\s+|this is an?\s+)?(\d{1,3})\s*(?:yo|y\/o|y\.o\.?)?\s*([MF])\b(?![\w/.-])/i;

const toYears = (value: number, unit: string) => {
  const lower = unit.toLowerCase();
  const years = /^(?:mo|month)/.test(lower) ? value / 12 : /^(?:w|wk|week)/.test(lower) ? (value * 7) / 365.25 : /^d/.test(lower) ? value / 365.25 : value;
  return Math.round(years * 1000) / 1000;
};

const SEX_WORD = /\b(?:(woman|female|lady|girl)|(man|male|gentleman|boy))(?![\w'’])/i;
const TITLE = /\b(?:([Mm]rs|[Mm]s|[Mm]iss)|([Mm]r))\.?(?=\s+\p{Lu})/u;
const PRONOUN = /\b(?:(she|her|hers|herself)|(he|his|him|himself))\b/gi;

export interface Found {
  value: number | string;
  start: number;
  end: number;
}

export function readAge(text: string, sentences: Sentence[], today: Date | undefined): Found | null {
  const first = sentences[0];
  const short = first ? AGE_SEX_SHORT.exec(first.text) : null;
  let best: Found | null = short
    ? {
        value: Number(short[1]),
        start: first!.start + short.index + short[0].indexOf(short[1]),
        end: first!.start + short.index + short[0].indexOf(short[1]) + short[1].length,
      }
    : null;
  for (const pattern of AGE_PATTERNS) {
    pattern.lastIndex = 0;
    for (const match of text.matchAll(pattern)) {
      if (best && match.index >= best.start) break;
      // "Her 70-year-old father": a relative's age.
      if (/\b(?:his|her|their|whose)\s+$/i.test(text.slice(Math.max(0, match.index - 8), match.index))) continue;
      const years = toYears(Number(match[1]), match[2] || 'years');
      if (years > 120) continue;
      best = { value: years, start: match.index, end: match.index + match[0].trimEnd().length };
      break;
    }
  }
  if (best) return best;
  const birth = /\b(?:dob|d\.o\.b\.?|date of birth|born on)\s*:?\s*(?:(\d{4})-(\d{2})-(\d{2})|(\d{1,2})\/(\d{1,2})\/(\d{4}))/i.exec(text);
  if (!birth) return null;
  const [year, month, day] = birth[1] ? [Number(birth[1]), Number(birth[2]), Number(birth[3])] : [Number(birth[6]), Number(birth[4]), Number(birth[5])];
  const now = today ?? new Date();
  let years = now.getUTCFullYear() - year;
  if (now.getUTCMonth() + 1 < month || (now.getUTCMonth() + 1 === month && now.getUTCDate() < day)) years -= 1;
  return years >= 0 && years <= 120 ? { value: years, start: birth.index, end: birth.index + birth[0].length } : null;
}

/**
 * Sex from the words that describe the patient: next to the age ("58-year-old woman", "48 M"), a title
 * ("Mrs. Lee"), then the first sentence's person word; pronouns only when no word says it, and then only
 * when one set clearly outnumbers the other.
 */
export function readSex(text: string, sentences: Sentence[], age: Found | null): Found | null {
  const first = sentences[0];
  const short = first ? AGE_SEX_SHORT.exec(first.text) : null;
  if (short) {
    const at = first!.start + short.index + short[0].length - short[2].length;
    return { value: /f/i.test(short[2]) ? 'female' : 'male', start: at, end: at + 1 };
  }
  const asSex = (match: RegExpExecArray, offset: number): Found => ({
    value: match[1] ? 'female' : 'male',
    start: offset + match.index,
    end: offset + match.index + match[0].length,
  });
  if (age) {
    const after = text.slice(age.end, age.end + 60).split(/[.;\n]/)[0];
    const compact = /^\s*(?:yo|y\/o|y\.o\.?)?\s*([MF])\b(?![\w/.-])/.exec(after);
    if (compact)
      return {
        value: compact[1] === 'F' ? 'female' : 'male',
        start: age.end + compact.index + compact[0].length - 1,
        end: age.end + compact.index + compact[0].length,
      };
    const word = SEX_WORD.exec(after);
    if (word && !/\b(?:his|her|their|whose)\s+$/i.test(after.slice(0, word.index))) return asSex(word, age.end);
  }
  const title = TITLE.exec(text);
  if (title) return { value: title[1] ? 'female' : 'male', start: title.index, end: title.index + title[0].length };
  for (const sentence of sentences.slice(0, 2)) {
    const word = new RegExp(SEX_WORD.source, 'gi');
    for (const match of sentence.text.matchAll(word)) {
      if (/\b(?:his|her|their|whose|and|with)\s+$/i.test(sentence.text.slice(Math.max(0, match.index - 8), match.index))) continue;
      return { value: match[1] ? 'female' : 'male', start: sentence.start + match.index, end: sentence.start + match.index + match[0].length };
    }
  }
  let female = 0;
  let male = 0;
  let firstFemale: Found | null = null;
  let firstMale: Found | null = null;
  for (const match of text.matchAll(PRONOUN)) {
    if (match[1]) {
      female++;
      firstFemale ??= { value: 'female', start: match.index, end: match.index + match[0].length };
    } else {
      male++;
      firstMale ??= { value: 'male', start: match.index, end: match.index + match[0].length };
    }
  }
  if (female > male * 2) return firstFemale;
  if (male > female * 2) return firstMale;
  return null;
}
