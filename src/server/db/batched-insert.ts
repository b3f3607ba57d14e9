import { getTableColumns, type Table } from 'drizzle-orm';

/**
 * PostgreSQL takes at most 65,535 bind parameters in one statement (the protocol counts them in 16 bits): a
 * multi-row INSERT built from input of any size (a FHIR bundle's facts, an import's rows, a burst's audit
 * records) must be cut into statements under it, or the server answers 08P01 and the request a 500.
 */
export const MAX_BIND_PARAMETERS = 65_535;

/** How many rows of `table` one INSERT may carry: every column may take a parameter (drizzle binds each value). */
export function rowsPerInsert(table: Table, parameterLimit = MAX_BIND_PARAMETERS): number {
  return Math.max(1, Math.floor(parameterLimit / Object.keys(getTableColumns(table)).length));
}

/**
 * Inserts `rows` into `table` in as few statements as the parameter limit allows, in order, each through
 * `insert` (the caller's `executor.insert(table).values(batch)`, with its `returning()` or conflict clause);
 * with `returning()`, what the statements return, concatenated. Runs in the caller's transaction: all or nothing.
 */
export async function insertInBatches<Row, Result>(table: Table, rows: readonly Row[], insert: (batch: Row[]) => PromiseLike<Result[]>): Promise<Result[]>;
export async function insertInBatches<Row>(table: Table, rows: readonly Row[], insert: (batch: Row[]) => PromiseLike<unknown>): Promise<void>;
export async function insertInBatches<Row>(table: Table, rows: readonly Row[], insert: (batch: Row[]) => PromiseLike<unknown>): Promise<unknown> {
  const size = rowsPerInsert(table);
  const results: unknown[] = [];
  for (let start = 0; start < rows.length; start += size) {
    const answer = await insert(rows.slice(start, start + size));
    if (Array.isArray(answer)) for (const row of answer) results.push(row);
  }
  return results;
}
