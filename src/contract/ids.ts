// Plain (no zod): the search params of the first page read it too.

/** Any 8-4-4-4-12 hex id, as PostgreSQL's uuid type reads it (not only RFC version 4). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids from URLs and bodies are checked before they reach a uuid column, so a malformed id is a 404 (or a 400 in a filter), not a 500. */
export const isUuid = (value: string) => UUID_PATTERN.test(value);
