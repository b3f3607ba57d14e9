import type { PertinentNegative } from './note-pertinent-negatives';
import { isOperation } from './operations';

/**
 * Operations in notes (decision 306): when an operation was done, and a note that says the person had none.
 * - "s/p laminectomy 2019", "L4-5 microdiscectomy in March 2020", "appendectomy (2015)", "ACDF C5-6 in 2021": the year,
 *   or month and year, right after the operation's name dates it. The fact keeps the period's first day (the operation
 *   was done on it or after), so a window that began after the period never fails the person through it. A period the
 *   note's own month or year holds is too vague for any window and leaves the operation undated. "3 weeks ago" is read
 *   with every condition (note-details.ts).
 * - "No prior surgeries", "no surgical history", "PSH: none": no operation ever, a denial of the trial idiom
 *   `prior-surgery`, which the matcher reads as denying every operation under it (operations.ts).
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = String.raw`(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;
const LEVEL = String.raw`(?:(?:at|of)\s+(?:the\s+)?)?[CTLS]\d{1,2}\s*[-–/]\s*[CTLS]?\d{1,2}(?:\s+level)?`;
/** The date right after an operation's name, past its levels: "2019", "in March 2020", "(2015)", "on 3/2020". */
const DONE_AFTER = new RegExp(
  String.raw`^\s*(?:${LEVEL}\s*)?[,(]?\s*(?:(?:was\s+)?(?:done|performed)\s+)?(?:(?:in|on)\s+)?(?:${MONTH}\s+(?:of\s+)?|(\d{1,2})\s*/\s*)?((?:19|20)\d\d)\b(?!\s*[-/]\d)`,
  'i',
);

/** When the operation named up to `end` was done, by the date right after it: its day, null when too vague; undefined when no date follows. */
export function operationDoneOn(sentence: string, end: number, today: Date): string | null | undefined {
  const date = DONE_AFTER.exec(sentence.slice(end, end + 60));
  if (!date) return undefined;
  const [, monthName, monthNumber, yearText] = date;
  const year = Number(yearText);
  const month = monthName ? MONTHS.indexOf(monthName.slice(0, 3).toLowerCase()) + 1 : monthNumber ? Number(monthNumber) : null;
  if (month !== null && (month < 1 || month > 12)) return undefined;
  const [thisYear, thisMonth] = [today.getUTCFullYear(), today.getUTCMonth() + 1];
  if (year > thisYear || (month !== null && year === thisYear && month > thisMonth)) return undefined;
  if (year === thisYear && (month === null || month === thisMonth)) return null;
  return `${year}-${String(month ?? 1).padStart(2, '0')}-01`;
}

/** The day a past condition's fact keeps: an operation's own date when one follows its name, else `since` (the condition's). */
export function operationDate(conceptId: string, sentence: string, end: number, today: Date, since: string | null): string | null {
  if (!isOperation(conceptId)) return since;
  const done = operationDoneOn(sentence, end, today);
  return done === undefined ? since : done;
}

/** "No surgery indicated", "no surgery needed at this time": a plan, not a history. */
const NOT_A_PLAN = String.raw`(?!\s+(?:is\s+|was\s+|are\s+)?(?:needed|indicated|planned|recommended|required|warranted|necessary|advised|offered|at\s+this\s+time|for\s+now))`;

/**
 * "No prior surgeries", "no surgical history", "denies previous operations", "past surgical history: none". Not one
 * placed ("never had surgery on the neck"), nor a bare "no surgery", most often the plan for the present complaint.
 */
const NO_OPERATION = new RegExp(
  String.raw`\b(?:no\s+(?:prior|previous|past)\s+|(?:denies(?:\s+any)?|never\s+had(?:\s+any)?)\s+(?:(?:prior|previous|past)\s+)?)(?:surger(?:y|ies)|operations|surgical\s+procedures)\b(?!\s+(?:on|of|to|at|in|for|involving)\b)${NOT_A_PLAN}|\bno\s+(?:(?:prior|previous|past)\s+)?(?:history\s+of\s+(?:surger(?:y|ies)|operations)|surgical\s+history)\b(?!\s+(?:on|of|to|at|in|for|involving)\b)|\b(?:PSH|past\s+surgical\s+history|surgical\s+history)\s*:\s*(?:none|negative|nil|noncontributory|non-contributory)\b`,
  'gi',
);

/** The denials of any operation a note writes. */
export function readOperationDenials(text: string): PertinentNegative[] {
  return [...text.matchAll(NO_OPERATION)].map((found) => ({
    kind: 'condition',
    conceptId: 'cohortly:prior-surgery',
    name: 'an operation (surgery)',
    start: found.index,
    end: found.index + found[0].length,
  }));
}
