/**
 * A moment said the way a person says it, in their language and on their clocks (issue 32): "Thursday
 * 3 December at 10:30 am (Sydney time)", "jueves 3 de diciembre a las 10:30 (hora de Australia oriental)". For texts to
 * patients and for staff screens alike: never an ISO date, never a raw zone id.
 */

export type WordsLanguage = 'en' | 'es';

interface WallParts {
  weekday: string;
  day: string;
  month: string;
  year: string;
  hour: number;
  minute: string;
}

function wallParts(instant: Date, timeZone: string, language: WordsLanguage): WallParts {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat(language === 'es' ? 'es-ES' : 'en-GB', {
      timeZone,
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return { weekday: parts.weekday, day: parts.day, month: parts.month, year: parts.year, hour: Number(parts.hour) % 24, minute: parts.minute };
}

/** The zone as a place: "Sydney" for Australia/Sydney, "Indiana/Indianapolis" read as "Indianapolis". */
export function zonePlace(timeZone: string): string {
  const fixed = /^Etc\/GMT([+-])(\d+)$/.exec(timeZone);
  // Etc/GMT signs are inverted: Etc/GMT-5 is five hours east of UTC.
  if (fixed) return `UTC${fixed[1] === '-' ? '+' : '-'}${fixed[2]}`;
  if (timeZone === 'UTC' || timeZone.startsWith('Etc/')) return 'UTC';
  return (timeZone.split('/').pop() ?? timeZone).replace(/_/g, ' ');
}

/** The zone in Spanish words from the runtime's CLDR data ("hora de Australia oriental"), else "hora de <place>". */
function spanishZone(timeZone: string, at: Date): string {
  try {
    const name = new Intl.DateTimeFormat('es', { timeZone, timeZoneName: 'longGeneric' }).formatToParts(at).find((part) => part.type === 'timeZoneName')?.value;
    if (name?.startsWith('hora')) return name;
  } catch {
    // an unknown zone: said by its place below
  }
  return `hora de ${zonePlace(timeZone)}`;
}

/** "10:30 am" / "10:30". */
export function clockInWords(instant: Date, timeZone: string, language: WordsLanguage): string {
  const { hour, minute } = wallParts(instant, timeZone, language);
  if (language === 'es') return `${hour}:${minute}`;
  return `${hour % 12 === 0 ? 12 : hour % 12}:${minute} ${hour < 12 ? 'am' : 'pm'}`;
}

/** "Thursday 3 December" / "jueves 3 de diciembre" (with the year when it is not this year's). */
export function dayInWords(instant: Date, timeZone: string, language: WordsLanguage, now: Date = new Date()): string {
  const parts = wallParts(instant, timeZone, language);
  const thisYear = wallParts(now, timeZone, language).year;
  const year = parts.year === thisYear ? '' : language === 'es' ? ` de ${parts.year}` : ` ${parts.year}`;
  return language === 'es' ? `${parts.weekday} ${parts.day} de ${parts.month}${year}` : `${parts.weekday} ${parts.day} ${parts.month}${year}`;
}

/**
 * "Thursday 3 December at 10:30 am (Sydney time)" / "jueves 3 de diciembre a las 10:30 (hora de Australia oriental)";
 * `withZone` false leaves the zone out (when the reader is known to be on those clocks).
 */
export function whenInWords(
  instant: Date | string,
  timeZone: string,
  language: WordsLanguage = 'en',
  options: { withZone?: boolean; now?: Date } = {},
): string {
  const at = instant instanceof Date ? instant : new Date(instant);
  const day = dayInWords(at, timeZone, language, options.now);
  const clock = clockInWords(at, timeZone, language);
  const place = zonePlace(timeZone);
  const zone = options.withZone === false ? '' : language === 'es' ? ` (${spanishZone(timeZone, at)})` : ` (${place} time)`;
  const connector = language === 'es' ? (clock.startsWith('1:') ? 'a la' : 'a las') : 'at';
  return `${day} ${connector} ${clock}${zone}`;
}
