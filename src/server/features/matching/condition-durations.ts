import { type ConditionDuration, durationWords } from '../../../contract/trials';

/** How long a current condition has lasted, against a rule's duration (decision 230); shared with the compiled matcher. */

/** What `lasted` reads of a condition fact (evaluate.ts `MatchFact`). */
interface DatedFact {
  observedOn: string | null;
  status: string | null;
  value: number | null;
  unit: string | null;
}

export const DAY_MS = 86_400_000;

/**
 * Whether a current condition has lasted as the rule's duration says. A condition fact's date is the day it is known
 * to have been there since (its onset; a health record's recorded date when it has no onset; a prescreen answer's
 * day, or the start a duration answer gave), so the condition began then or earlier: an old enough date proves a
 * minimum, a date older than a maximum disproves it. A length the note states ("6 weeks of neck pain", the fact's
 * value in days, weeks, months or years) also bounds it from above (`lastedFor`). Without a date: unknown, never no.
 */
export function lasted(fact: DatedFact, duration: ConditionDuration, today: Date): 'yes' | 'no' | 'unknown' {
  if (!fact.observedOn || fact.status !== 'present') return 'unknown';
  const known = Math.floor((today.getTime() - Date.parse(`${fact.observedOn}T00:00:00Z`)) / DAY_MS);
  return lastedFor(known, fact.value === null ? 0 : statedUnitDays(fact.unit), duration);
}

/** The days of one unit of a length a note states on a condition ("weeks" -> 7), 0 for any other unit. */
export function statedUnitDays(unit: string | null): number {
  return unit === 'days' ? 1 : unit === 'weeks' ? 7 : unit === 'months' ? 31 : unit === 'years' ? 366 : 0;
}

/**
 * A condition known to have lasted `known` days at least; with a stated length (`unitDays` > 0), less than one more
 * unit of it: "8 weeks" is 8 weeks and not yet 9. Shared with the compiled matcher.
 */
export function lastedFor(known: number, unitDays: number, duration: ConditionDuration): 'yes' | 'no' | 'unknown' {
  if (duration.maxDays && known > duration.maxDays) return 'no';
  const most = unitDays > 0 ? known + unitDays : Number.POSITIVE_INFINITY;
  if (duration.minDays && most <= duration.minDays) return 'no';
  if (duration.minDays && known < duration.minDays) return 'unknown';
  if (duration.maxDays && most > duration.maxDays) return 'unknown';
  return duration.minDays || duration.maxDays ? 'yes' : 'unknown';
}

/** "for at least 3 months", "for less than 6 weeks": how a reason names a rule's duration. */
export function durationText(duration: ConditionDuration): string {
  const min = duration.minDays ? `at least ${durationWords(duration.minDays).en}` : '';
  const max = duration.maxDays ? `less than ${durationWords(duration.maxDays).en}` : '';
  return `for ${[min, max].filter(Boolean).join(' and ')}`;
}
