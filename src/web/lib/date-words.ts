/**
 * A calendar date an answer holds ("1958-03-09", from a form's date question or a call's extracted answer) in
 * words: "9 March 1958". Read as a day, not an instant: no time zone can move it to the day before.
 */
const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T00:00(?::00(?:\.0+)?)?(?:Z|[+-]00:?00)?)?$/;
// Made at the first date shown, not when the module loads: a formatter's first construction loads the locale's data,
// and this module sits in the chunk every page loads, where building it was nearly all that chunk's start-up time
// (69-216 ms of a phone's 4x-slowed main thread; issue 32, decision 208).
let dayMonthYear: Intl.DateTimeFormat | undefined;

/** "1958-03-09" -> "9 March 1958"; anything that is not a real calendar date -> null. */
export function calendarDateInWords(value: string): string | null {
  const parts = CALENDAR_DATE.exec(value.trim());
  if (!parts) return null;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 1958-02-30 over to 2 March: such a value is not a date, and shows as typed.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  dayMonthYear ??= new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  return dayMonthYear.format(date);
}

/** Any answer text: a calendar date in words, everything else unchanged. */
export function answerTextInWords(value: string): string {
  return calendarDateInWords(value) ?? value;
}

// A date alone in a sentence (not the start of a timestamp: those are instants, shown with formatDateTime).
const DATE_IN_TEXT = /\b\d{4}-\d{2}-\d{2}\b(?![T\d:])/g;

/** A sentence quoting a date answer ('Date of birth answered "1958-03-09"') with the date in words. */
export function datesInTextInWords(text: string): string {
  return text.replace(DATE_IN_TEXT, (date) => calendarDateInWords(date) ?? date);
}
