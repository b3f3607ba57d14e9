/** How long a condition has lasted, in days (the condition rule's `duration`), and back in words. No zod here. */
const DAYS_PER = { days: 1, weeks: 7, months: 30.4375, years: 365.25 } as const;

/** "3 months" -> 91 days: the unit a duration is stored in. */
export function durationDays(value: number, unit: keyof typeof DAYS_PER): number {
  return Math.max(1, Math.round(value * DAYS_PER[unit]));
}

export type DurationUnit = keyof typeof DAYS_PER;
export const DURATION_UNITS = ['days', 'weeks', 'months', 'years'] as const satisfies readonly DurationUnit[];

/** 91 -> 3 months, 42 -> 6 weeks, 365 -> 1 year: days back in the largest unit they convert from exactly. */
export function durationAmount(days: number): { value: number; unit: DurationUnit } {
  for (const unit of ['years', 'months', 'weeks', 'days'] as const) {
    const value = Math.round(days / DAYS_PER[unit]);
    if (value >= 1 && durationDays(value, unit) === days) return { value, unit };
  }
  return { value: days, unit: 'days' };
}

/** 91 -> "3 months", 42 -> "6 weeks", 365 -> "1 year": days back in the largest unit they were written in. */
export function durationWords(days: number): { en: string; es: string } {
  const words = {
    years: ['year', 'years', 'año', 'años'],
    months: ['month', 'months', 'mes', 'meses'],
    weeks: ['week', 'weeks', 'semana', 'semanas'],
    days: ['day', 'days', 'día', 'días'],
  } as const;
  const { value, unit } = durationAmount(days);
  const [one, many, uno, muchos] = words[unit];
  return { en: `${value} ${value === 1 ? one : many}`, es: `${value} ${value === 1 ? uno : muchos}` };
}
