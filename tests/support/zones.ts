/**
 * An Etc/GMT zone where the local hour is `hour` right now: calling hours are checked against the real
 * clock, so tests pick the candidate's zone to put "now" where they need it.
 */
export function zoneAtHour(hour: number): string {
  let offset = hour - new Date().getUTCHours();
  if (offset < -12) offset += 24;
  if (offset > 14) offset -= 24;
  return offset === 0 ? 'Etc/UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}
