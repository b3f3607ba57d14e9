/**
 * A person's age as the matcher compares it with a trial's age bounds (issue 31): an infant's age stays a fraction of
 * a year, never floored to 0, so a 5-month-old meets ">= 3 months". A trial's bounds come in years, rounded to two
 * decimals when written in months, weeks or days (criteria/age.ts, ctgov.ts `ageToYears`), so each bound is compared
 * in the unit it was written in: whole years as completed years (a 65-year-old of 65 and a half is still "up to 65"),
 * months as completed calendar months, anything finer as days.
 */

export interface PersonAge {
  /** Completed years. */
  years: number;
  /** Completed calendar months (with a fraction when the age came as a fraction of a year). */
  months: number;
  /** Days lived. */
  days: number;
}

const DAYS_PER_YEAR = 365.25;

/**
 * A woman of this age or older is past childbearing (decision 328): natural menopause comes by 55 for nearly all, so
 * "not pregnant" holds without asking, as it does for a man. Five years of margin past that; a younger woman is asked.
 */
export const PAST_CHILDBEARING_YEARS = 60;
const DAY_MS = 86_400_000;
/** A bound's rounding to two decimals of a year is under two days. */
const ROUNDING_DAYS = 2;

/** The age on `today` of someone born on a YYYY-MM-DD date (UTC). */
export function ageFromBirth(dateOfBirth: string, today: Date): PersonAge {
  const [year, month, day] = dateOfBirth.split('-').map(Number);
  let months = (today.getUTCFullYear() - year) * 12 + (today.getUTCMonth() + 1 - month);
  if (today.getUTCDate() < day) months--;
  const days = Math.floor((today.getTime() - Date.UTC(year, month - 1, day)) / DAY_MS);
  return { years: Math.floor(months / 12), months, days };
}

/** The age a fact gives in (fractional) years: a note's "5 months" is 0.417. */
export function ageFromYears(value: number): PersonAge {
  // Rounded to three decimals by the note reader: a thousandth of a year is under half a day.
  return { years: Math.floor(value + 0.001), months: value * 12 + 0.001, days: value * DAYS_PER_YEAR };
}

type Unit = 'years' | 'months' | 'days';
function unitOf(bound: number): Unit {
  if (Number.isInteger(bound)) return 'years';
  const months = bound * 12;
  // Two decimals of a year are within 0.06 of a month of the months written.
  return Math.abs(months - Math.round(months)) <= 0.061 ? 'months' : 'days';
}

/** Whether the age is within the bounds (either may be absent). */
export function ageWithin(age: PersonAge, minYears: number | null | undefined, maxYears: number | null | undefined): boolean {
  if (minYears != null) {
    const unit = unitOf(minYears);
    if (unit === 'years' && age.years < minYears) return false;
    if (unit === 'months' && Math.floor(age.months) < Math.round(minYears * 12)) return false;
    if (unit === 'days' && age.days < minYears * DAYS_PER_YEAR - ROUNDING_DAYS) return false;
  }
  if (maxYears != null) {
    const unit = unitOf(maxYears);
    if (unit === 'years' && age.years > maxYears) return false;
    if (unit === 'months' && Math.floor(age.months) > Math.round(maxYears * 12)) return false;
    if (unit === 'days' && age.days > maxYears * DAYS_PER_YEAR + ROUNDING_DAYS) return false;
  }
  return true;
}

/** "58", "5 months", "3 weeks": the age as a reason writes it. */
export function ageWords(age: PersonAge): string {
  if (age.years >= 2) return String(age.years);
  const months = Math.floor(age.months);
  if (months >= 1) return `${months} month${months === 1 ? '' : 's'}`;
  const weeks = Math.floor(age.days / 7);
  return weeks >= 1 ? `${weeks} week${weeks === 1 ? '' : 's'}` : `${Math.max(0, Math.round(age.days))} days`;
}

/** A trial's bound in the unit it was written in: "18", "3 months", "6 weeks". */
export function boundWords(years: number): string {
  const unit = unitOf(years);
  if (unit === 'years') return String(years);
  if (unit === 'months') return `${Math.round(years * 12)} months`;
  const weeks = (years * DAYS_PER_YEAR) / 7;
  return Math.abs(weeks - Math.round(weeks)) < 0.3 ? `${Math.round(weeks)} weeks` : `${Math.round(years * DAYS_PER_YEAR)} days`;
}
