import { types as pgliteTypes } from '@electric-sql/pglite';
import { Column, is, Placeholder, type SQL, sql, type Query } from 'drizzle-orm';
import pg from 'pg';
import type { Database } from './client';
import { readScopedInOneMessage, type Executor, type RowSecurityScope } from './scoped';

/**
 * Statements built once and run many times (decision 114). Under load the server's own CPU was most of a cheap
 * request's time, and drizzle's part of it was building the same SQL text on every request (the select's fields,
 * every condition walked with `is()` checks) and mapping each row field by field. A prebuilt statement is the
 * text drizzle built the first time, with `sql.placeholder`s where the values go; later requests send that text
 * with their values, through the same executor (the request's transaction: its scope, its role, row security),
 * and read the rows as arrays.
 *
 * Dates and times come back as the text PostgreSQL sends, as drizzle's own drivers ask for them; a column's
 * `mapFromDriverValue` turns them into what drizzle would give.
 */
export interface Prebuilt<Row> {
  readonly text: string;
  /** Each parameter: a placeholder's name, or a value drizzle put in itself. */
  readonly params: ReadonlyArray<{ name: string } | { value: unknown }>;
  readonly toRow: (values: unknown[]) => Row;
}

type Field = Column | SQL | SQL.Aliased;

/**
 * The statement `build` gives (a drizzle select of `fields`, placeholders for its values), and a reader of its rows:
 * columns mapped as drizzle maps them, SQL fields as the driver gives them.
 */
export function prebuild<Fields extends Record<string, Field>, Row = { [K in keyof Fields]: unknown }>(
  fields: Fields,
  /** A query built with drizzle's `QueryBuilder` (no database handle: only its text is wanted). */
  build: () => { toSQL(): Query },
): Prebuilt<Row> {
  const query = build().toSQL();
  const names = Object.keys(fields);
  const columns = names.map((name) => (is(fields[name], Column) ? (fields[name] as Column) : null));
  return {
    text: query.sql,
    params: query.params.map((param) => (is(param, Placeholder) ? { name: (param as Placeholder).name } : { value: param })),
    toRow: (values) => {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < names.length; i++) {
        const value = values[i];
        const column = columns[i];
        row[names[i]] = value === null || !column ? value : column.mapFromDriverValue(value);
      }
      return row as Row;
    },
  };
}

/** Statements by their shape: a few dozen at most (a list's sort, filters and number of organizations). */
export class PrebuiltCache<Row> {
  private readonly byKey = new Map<string, Prebuilt<Row>>();
  constructor(private readonly limit = 256) {}
  get(key: string, build: () => Prebuilt<Row>): Prebuilt<Row> {
    let found = this.byKey.get(key);
    if (!found) {
      if (this.byKey.size >= this.limit) this.byKey.clear();
      this.byKey.set(key, (found = build()));
    }
    return found;
  }
}

/** pg's parsers as drizzle's node-postgres driver sets them: timestamps, dates, intervals and their arrays as text. */
const AS_TEXT = new Set([
  pg.types.builtins.TIMESTAMPTZ,
  pg.types.builtins.TIMESTAMP,
  pg.types.builtins.DATE,
  pg.types.builtins.INTERVAL,
  1231,
  1115,
  1185,
  1187,
  1182,
]);
const asText = (value: string) => value;
const pgTypes = {
  getTypeParser: (typeId: number, format?: 'text' | 'binary') => (AS_TEXT.has(typeId) ? asText : pg.types.getTypeParser(typeId, format as 'text')),
};
/** PGlite's, as drizzle's PGlite driver sets them. */
const pgliteParsers = {
  [pgliteTypes.TIMESTAMP]: asText,
  [pgliteTypes.TIMESTAMPTZ]: asText,
  [pgliteTypes.INTERVAL]: asText,
  [pgliteTypes.DATE]: asText,
  1231: asText,
  1115: asText,
  1185: asText,
  1187: asText,
  1182: asText,
};

interface PgliteQueryable {
  query(text: string, params: unknown[], options: { rowMode: 'array'; parsers: typeof pgliteParsers }): Promise<{ rows: unknown[][] }>;
}

/**
 * Runs a prebuilt statement on the executor's own connection (an open transaction's: the request's scope and row
 * security apply as to any of its statements) and reads its rows.
 */
export async function runPrebuilt<Row>(executor: Executor, statement: Prebuilt<Row>, values: Record<string, unknown>): Promise<Row[]> {
  const client = (executor as unknown as { session?: { client?: unknown } }).session?.client;
  if (!client) throw new Error('runPrebuilt: the executor has no client');
  const params = statement.params.map((param) => ('name' in param ? values[param.name] : param.value));
  const rows =
    client instanceof pg.Client || client instanceof pg.Pool
      ? (await client.query({ text: statement.text, values: params, rowMode: 'array', types: pgTypes })).rows
      : (await (client as PgliteQueryable).query(statement.text, params, { rowMode: 'array', parsers: pgliteParsers })).rows;
  return rows.map(statement.toRow);
}

/** A placeholder for `name`, with its value kept in `values` (the binder the hot queries build their conditions with). */
export interface Binder {
  /** The statement's shape so far: the parts that change its text. */
  readonly shape: string[];
  readonly values: Record<string, unknown>;
  bind<T>(name: string, value: T): T | Placeholder;
}

/** Values go in as placeholders, for a prebuilt statement. */
export function placeholders(): Binder {
  const values: Record<string, unknown> = {};
  return {
    shape: [],
    values,
    bind<T>(name: string, value: T): T | Placeholder {
      values[name] = value;
      return sql.placeholder(name);
    },
  };
}

/** Values go in as parameters, for an ordinary drizzle query (a count, a bulk action). */
export function inlineValues(): Binder {
  return { shape: [], values: {}, bind: <T>(_name: string, value: T) => value };
}

/**
 * A value written into the SQL text as a literal (`runPrebuiltInOneMessage`), only when its form leaves nothing to
 * escape: a whole number not below zero, a uuid, a uuid array literal, an E.164 phone number, a lowercase word (a status). Anything else
 * (a name pattern, an email, a cursor's text) answers undefined and the statement goes with parameters.
 */
export function literal(value: unknown): string | undefined {
  // Not negative: a minus sign written after another ("x -$1") would start a comment.
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
  if (typeof value !== 'string') return undefined;
  return UUID.test(value) || UUID_ARRAY.test(value) || E164.test(value) || WORD.test(value) ? `'${value}'` : undefined;
}
const UUID_TEXT = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const UUID = new RegExp(`^${UUID_TEXT}$`, 'i');
const UUID_ARRAY = new RegExp(`^\\{(${UUID_TEXT}(,${UUID_TEXT})*)?\\}$`, 'i');
const E164 = /^\+[1-9]\d{6,14}$/;
const WORD = /^[a-z_]{1,40}$/;

/**
 * A prebuilt statement under the request's scope, its transaction in one message (`readScopedInOneMessage`, decision
 * 114), or undefined when a value is not safe as a literal or the scope or engine does not allow it: the caller then
 * runs it in a transaction of its own (`runPrebuilt`).
 */
export async function runPrebuiltInOneMessage<Row>(
  db: Database,
  scope: RowSecurityScope,
  statement: Prebuilt<Row>,
  values: Record<string, unknown>,
): Promise<Row[] | undefined> {
  const literals: string[] = [];
  for (const param of statement.params) {
    const written = literal('name' in param ? values[param.name] : param.value);
    if (written === undefined) return undefined;
    literals.push(written);
  }
  const text = statement.text.replace(/\$(\d+)\b/g, (_match, n: string) => literals[Number(n) - 1]);
  const rows = await readScopedInOneMessage(db, scope, text, { pglite: pgliteParsers, pg: pgTypes });
  return rows?.map(statement.toRow);
}
