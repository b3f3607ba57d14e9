// What PostgreSQL's text and errors ask of every feature's queries.
import { type SQL, sql } from 'drizzle-orm';

/** Escapes LIKE's wildcards (and its escape character) so a search term matches as plain text. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * A unique constraint refused the write (SQLSTATE 23505). Drivers and Drizzle wrap the database's error,
 * so the code is looked for a few causes deep.
 */
export function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    if ((current as { code?: string }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * A list of ids as ONE `uuid[]` parameter (an array literal), for `= any(...)`: one parameter however long the list,
 * where a parameter per id costs binding and planning (on PGlite, each is described and serialized on its one
 * thread). Ids only: uuids need no quoting in an array literal.
 */
export const uuidArray = (ids: readonly string[]): SQL => sql`${`{${ids.join(',')}}`}::uuid[]`;
