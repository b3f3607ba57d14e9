import { sql } from 'drizzle-orm';
import { UUID_PATTERN } from '../../../contract/common';

/** A malformed id names no row: answered as not found without asking the database (which would refuse the cast). */
export const isId = (value: string) => UUID_PATTERN.test(value);
export const TRIAL_MATCH_RUN_KIND = 'trial_match';

const ESCAPED = /["\\]/;
/** A PostgreSQL array literal of texts, each quoted (a run writes 100,000 of these: no closure per item). */
export function arrayLiteral(items: readonly string[]): string {
  let out = '{';
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    out += `${i ? ',' : ''}"${ESCAPED.test(item) ? item.replace(/["\\]/g, '\\$&') : item}"`;
  }
  return `${out}}`;
}
/** Words an array literal may hold unquoted (uuids and such ids), except NULL. */
const PLAIN = /^[A-Za-z0-9_.:-]+$/;
/**
 * A criterion id list as an array literal, unquoted when every id is plain (they are uuids), so the outer literal
 * needs no escaping. `plain` remembers the ids already checked: a slice repeats the same few thousand times.
 */
export function idList(ids: readonly string[], plain: Set<string>): string {
  for (const id of ids) {
    if (plain.has(id)) continue;
    if (!PLAIN.test(id) || id.toLowerCase() === 'null') return arrayLiteral(ids);
    plain.add(id);
  }
  return `{${ids.join(',')}}`;
}
/** A PostgreSQL array literal of numbers. */
export const numberArray = (values: readonly number[]) => `{${values.join(',')}}`;

/** One JSON array parameter per list (a batch holds thousands of values: never one parameter each). */
export const jsonList = (values: unknown) => sql`${JSON.stringify(values)}::jsonb`;
