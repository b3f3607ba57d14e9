import type { MiddlewareHandler } from 'hono';
import { BODILESS_METHODS, isStreamedImport } from './body-limit';
import type { AppEnv } from './context';
import { errorBody } from './errors';

/**
 * NUL and the other C0 control characters (tab, line feed and carriage return excepted) and DEL. PostgreSQL
 * cannot store NUL in text or jsonb at all, and no field a person or a provider fills needs the others.
 */
// eslint-disable-next-line no-control-regex
export const FORBIDDEN_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export const hasForbiddenCharacters = (text: string) => FORBIDDEN_CHARACTERS.test(text);

/** Half of a surrogate pair alone (only a JSON \\u escape can carry one): not Unicode text, and jsonb refuses it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const SURROGATE_MESSAGE = 'must be valid Unicode text (an unpaired surrogate escape)';

/** Deeper JSON than any contract needs: refused before a validator or the database recurses into it. */
export const MAX_JSON_DEPTH = 64;

const MESSAGE = 'must not contain NUL or other control characters';
const DEPTH_MESSAGE = `must not be nested more than ${MAX_JSON_DEPTH} levels deep`;

export interface InputProblem {
  path: string;
  message: string;
}

/**
 * The first place in a parsed JSON value holding a forbidden character (as a field path, "answers.0.value"),
 * or nested deeper than MAX_JSON_DEPTH; null when the value is clean. Iterative: no stack to overflow.
 */
export function inputProblem(root: unknown): InputProblem | null {
  const stack: Array<[unknown, string[]]> = [[root, []]];
  while (stack.length) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (hasForbiddenCharacters(value)) return { path: path.join('.') || '(body)', message: MESSAGE };
      if (LONE_SURROGATE.test(value)) return { path: path.join('.') || '(body)', message: SURROGATE_MESSAGE };
    } else if (value && typeof value === 'object') {
      if (path.length >= MAX_JSON_DEPTH) return { path: path.slice(0, 3).join('.') || '(body)', message: DEPTH_MESSAGE };
      const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value);
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, item] = entries[index];
        if (hasForbiddenCharacters(key) || LONE_SURROGATE.test(key)) return { path: [...path, key].join('.'), message: MESSAGE };
        stack.push([item, [...path, key]]);
      }
    }
  }
  return null;
}

/** Whether JSON text nests brackets deeper than `max` (strings skipped), without parsing it. */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 92)
        index++; // backslash: skip the escaped character
      else if (char === 34) inString = false;
    } else if (char === 34) inString = true;
    else if (char === 123 || char === 91) {
      if (++depth > max) return true;
    } else if (char === 125 || char === 93) depth--;
  }
  return false;
}

const decoded = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/**
 * One central refusal of NUL bytes and control characters in every input under /api: the path (404: no such
 * resource), the query string and the body (400 naming the field). Runs before routing, so no handler, auth
 * included, ever passes such a string to the database. Bodies are read through Hono's body cache, so the
 * route's validator reads the same text again without a second read of the stream.
 */
export const refuseControlCharacters: MiddlewareHandler<AppEnv> = async (c, next) => {
  const url = new URL(c.req.url);
  if (url.pathname.split('/').some((segment) => hasForbiddenCharacters(decoded(segment)))) {
    return c.json(errorBody(404, 'Not Found'), 404);
  }
  for (const [key, value] of url.searchParams) {
    if (hasForbiddenCharacters(key) || hasForbiddenCharacters(value)) {
      const field = hasForbiddenCharacters(key) ? '(query)' : key;
      return c.json(errorBody(400, `${field}: ${MESSAGE}`, 'VALIDATION_FAILED', [{ path: field, message: MESSAGE }]), 400);
    }
  }
  // The streamed import's body is a file read as a stream: its reader refuses these characters line by line.
  // The method first: asking a GET for its body builds the Web Request @hono/node-server otherwise never makes.
  if (!BODILESS_METHODS.has(c.req.method) && c.req.raw.body && !isStreamedImport(c.req.method, c.req.path)) {
    const type = (c.req.header('content-type') ?? '').toLowerCase();
    // Multipart bodies are not parsed by any route; file contents are not text fields.
    if (!type.startsWith('multipart/')) {
      const text = await c.req.text();
      // Handlers that take the raw request (better-auth) read the same text again.
      c.req.raw = new Request(c.req.raw, { body: text });
      let problem: InputProblem | null = null;
      if (type.startsWith('application/x-www-form-urlencoded')) {
        for (const [key, value] of new URLSearchParams(text)) {
          if (hasForbiddenCharacters(key) || hasForbiddenCharacters(value)) {
            problem = { path: hasForbiddenCharacters(key) ? '(body)' : key, message: MESSAGE };
            break;
          }
        }
      } else if (text.includes('\\u') || hasForbiddenCharacters(text) || nestsDeeperThan(text, MAX_JSON_DEPTH)) {
        // JSON escapes (\u0000) only become characters when parsed; not-JSON text is judged as it is.
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: the route's validator answers that
        }
        problem = inputProblem(parsed);
      }
      if (problem) return c.json(errorBody(400, `${problem.path}: ${problem.message}`, 'VALIDATION_FAILED', [problem]), 400);
    }
  }
  return next();
};
