/**
 * A small deterministic generator of bad requests from the OpenAPI document (tests/integration/bad-input.int.test.ts).
 * For every operation: a baseline request built from its schemas (so each case changes one thing), then
 * invalid types, missing fields, NUL bytes and control characters, huge and unicode strings, malformed ids in
 * the path, query and body, broken JSON and wrong content types.
 */

type Schema = Record<string, any>;
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }>; required?: boolean };
  security?: Array<Record<string, string[]>>;
}

export interface BadRequest {
  operation: string;
  label: string;
  method: string;
  /** Path with query string, already encoded. */
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export const NIL_LIKE_UUID = '7d0b4a57-1f1e-4c43-9a59-5d6c0a7e2b11';
export const HUGE = 'x'.repeat(100_000);
export const UNICODE = 'Ŝïtë ñame 🧪👩🏽‍⚕️ \u202eעברית\u202c 𝔘𝔫𝔦 \uFEFF\u200d 日本語 \ud83d';
const NUL = 'a\u0000b';
const CONTROL = 'bell\u0007 escape\u001b';

/** Values that are wrong for a string field (or right but hostile). */
const STRING_VALUES: Array<[string, unknown]> = [
  ['NUL byte', NUL],
  ['control characters', CONTROL],
  ['huge string', HUGE],
  ['unicode', UNICODE],
  ['malformed id', 'not-a-uuid'],
  ['numeric id', '123'],
];
/** Values of the wrong type (a body field gets each; the numbers also stand in for wrong strings). */
const TYPE_VALUES: Array<[string, unknown]> = [
  ['null', null],
  ['huge number', 1e308],
  ['object', { nested: NUL }],
  ['array', ['not-a-uuid', NUL]],
];
/** For a body field: the wrong types and the hostile strings, minus the near-duplicates. */
const BODY_FIELD_VALUES = [...TYPE_VALUES, ...STRING_VALUES.filter(([label]) => label !== 'numeric id'), ['empty string', ''] as [string, unknown]];

export function resolve(doc: OpenApiDocument, schema: Schema | undefined, depth = 0): Schema {
  if (!schema || depth > 20) return {};
  if (schema.$ref) {
    const name = String(schema.$ref).split('/').pop()!;
    return resolve(doc, doc.components?.schemas?.[name], depth + 1);
  }
  return schema;
}

const typeOf = (schema: Schema): string | undefined => {
  if (Array.isArray(schema.type)) return schema.type.find((type: string) => type !== 'null');
  return schema.type;
};

/** A value the schema accepts, as far as a generator can tell: enough that one changed field is what the server judges. */
export function baseline(doc: OpenApiDocument, raw: Schema | undefined, depth = 0): unknown {
  const schema = resolve(doc, raw);
  if (depth > 6) return undefined;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('default' in schema && schema.default !== undefined) return schema.default;
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key])) {
      const option = schema[key].map((item: Schema) => resolve(doc, item)).find((item: Schema) => item.type !== 'null') ?? schema[key][0];
      return baseline(doc, option, depth + 1);
    }
  }
  if (Array.isArray(schema.allOf)) return Object.assign({}, ...schema.allOf.map((item: Schema) => baseline(doc, item, depth + 1)));
  switch (typeOf(schema)) {
    case 'string': {
      if (schema.format === 'uuid') return NIL_LIKE_UUID;
      if (schema.format === 'email') return 'fuzz.case@site.test';
      if (schema.format === 'date-time') return '2030-01-02T15:00:00.000Z';
      if (schema.format === 'date') return '1980-05-17';
      const length = Math.max(schema.minLength ?? 0, 10);
      return 'Fuzz value'.padEnd(length, 'x').slice(0, schema.maxLength ?? length);
    }
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? Number(schema.exclusiveMinimum) + 1 : 1);
    case 'boolean':
      return false;
    case 'array':
      return schema.minItems ? Array.from({ length: schema.minItems }, () => baseline(doc, schema.items, depth + 1)) : [];
    default: {
      if (!schema.properties) return typeOf(schema) === 'object' ? {} : 'Fuzz value';
      const value: Record<string, unknown> = {};
      for (const name of schema.required ?? []) value[name] = baseline(doc, schema.properties[name], depth + 1);
      return value;
    }
  }
}

/** encodeURIComponent, with lone surrogates (which URLs cannot carry) sent as %ED%A0%BD, the bytes a careless client would send. */
const encodeText = (value: string) =>
  value
    .split(/([\ud800-\udfff])/)
    .map((part) => (/^[\ud800-\udfff]$/.test(part) ? '%ED%A0%BD' : encodeURIComponent(part)))
    .join('');
const encodeQuery = (entries: Array<[string, string]>) => entries.map(([key, value]) => `${encodeText(key)}=${encodeText(value)}`).join('&');

/** Path parameter values: malformed and foreign ids, NUL, huge, unicode, broken escapes (already encoded). */
const PATH_VALUES: Array<[string, string]> = [
  ['malformed id', 'not-a-uuid'],
  ['numeric id', '123'],
  ['unknown uuid', NIL_LIKE_UUID],
  ['NUL byte', 'a%00b'],
  ['control character', 'a%07b'],
  ['broken escape', '%E0%A4%A'],
  ['huge', 'y'.repeat(10_000)],
  ['unicode', encodeText(UNICODE)],
  ['dot segments', '..%2F..%2Fapi%2Fusers'],
];

/** Every bad request for one operation. */
export function badRequestsFor(doc: OpenApiDocument, method: string, path: string, operation: Operation): BadRequest[] {
  const name = `${method.toUpperCase()} ${path}`;
  const cases: BadRequest[] = [];
  const parameters = operation.parameters ?? [];
  const pathParams = parameters.filter((parameter) => parameter.in === 'path');
  const queryParams = parameters.filter((parameter) => parameter.in === 'query');
  const bodyEntry = Object.entries(operation.requestBody?.content ?? {})[0];
  const mediaType = bodyEntry?.[0];
  const bodySchema = resolve(doc, bodyEntry?.[1].schema);
  const isForm = mediaType === 'application/x-www-form-urlencoded';

  const fillPath = (values: Record<string, string> = {}) => path.replace(/\{(\w+)\}/g, (_, param: string) => values[param] ?? NIL_LIKE_UUID);
  const baseQuery: Array<[string, string]> = queryParams.filter((param) => param.required).map((param) => [param.name, String(baseline(doc, param.schema))]);
  const url = (pathValues: Record<string, string> = {}, query: Array<[string, string]> = baseQuery, rawQuery?: string) => {
    const search = rawQuery ?? encodeQuery(query);
    return `${fillPath(pathValues)}${search ? `?${search}` : ''}`;
  };
  const baseBody = bodyEntry ? baseline(doc, bodySchema) : undefined;
  const encode = (value: unknown) => {
    if (isForm) {
      const form = new URLSearchParams();
      for (const [key, item] of Object.entries((value ?? {}) as Record<string, unknown>))
        form.append(key, typeof item === 'string' ? item : JSON.stringify(item));
      return form.toString();
    }
    return JSON.stringify(value);
  };
  const contentType = isForm ? 'application/x-www-form-urlencoded' : 'application/json';
  const add = (label: string, init: Partial<BadRequest>) =>
    cases.push({
      operation: name,
      label,
      method: method.toUpperCase(),
      url: init.url ?? url(),
      headers: init.headers ?? (init.body !== undefined ? { 'content-type': contentType } : {}),
      body: init.body,
    });
  const withBody = (value: unknown) => (bodyEntry ? { body: encode(value) } : {});

  // The baseline itself (valid as far as the generator knows), and with a malformed id in the path.
  add('baseline', withBody(baseBody));

  // Path parameters.
  for (const param of pathParams) {
    for (const [label, value] of PATH_VALUES) add(`path ${param.name}: ${label}`, { url: url({ [param.name]: value }), ...withBody(baseBody) });
  }

  // Query parameters: each declared one bad in turn, repeated, plus an undeclared one.
  for (const param of queryParams) {
    const others = baseQuery.filter(([key]) => key !== param.name);
    for (const [label, value] of STRING_VALUES)
      add(`query ${param.name}: ${label}`, { url: url({}, [...others, [param.name, String(value)]]), ...withBody(baseBody) });
    add(`query ${param.name}: repeated`, { url: url({}, [...others, [param.name, 'not-a-uuid'], [param.name, NIL_LIKE_UUID]]), ...withBody(baseBody) });
    add(`query ${param.name}: JSON array text`, { url: url({}, [...others, [param.name, '["not-a-uuid",1,null]']]), ...withBody(baseBody) });
  }
  add('query: undeclared parameter with NUL', { url: url({}, [...baseQuery, ['unexpected', NUL]]), ...withBody(baseBody) });
  add('query: broken escape', { url: url({}, [], `${encodeQuery(baseQuery)}${baseQuery.length ? '&' : ''}q=%E0%A4%A&%ZZ=1`), ...withBody(baseBody) });

  if (bodyEntry) {
    const properties = Object.entries((bodySchema.properties ?? {}) as Record<string, Schema>);
    const required = new Set<string>(bodySchema.required ?? []);
    const base = (baseBody && typeof baseBody === 'object' && !Array.isArray(baseBody) ? baseBody : {}) as Record<string, unknown>;
    // Each field: left out (when required), each wrong type, each hostile string.
    for (const [field, fieldSchema] of properties) {
      const { [field]: _dropped, ...rest } = base;
      if (required.has(field)) add(`body ${field}: missing`, { body: encode(rest) });
      for (const [label, value] of BODY_FIELD_VALUES) add(`body ${field}: ${label}`, { body: encode({ ...base, [field]: value }) });
      // One level down: the first item of an array of objects, or a nested object's fields.
      const resolved = resolve(doc, fieldSchema);
      const inner = resolve(doc, typeOf(resolved) === 'array' ? resolved.items : resolved);
      if (typeOf(inner) === 'object' && inner.properties && !isForm) {
        const innerBase = (baseline(doc, inner) ?? {}) as Record<string, unknown>;
        for (const innerField of Object.keys(inner.properties).slice(0, 12)) {
          for (const [label, value] of [
            ['NUL byte', NUL],
            ['number', 12345],
            ['malformed id', 'not-a-uuid'],
          ] as Array<[string, unknown]>) {
            const nested = { ...innerBase, [innerField]: value };
            add(`body ${field}.${innerField}: ${label}`, { body: encode({ ...base, [field]: typeOf(resolved) === 'array' ? [nested] : nested }) });
          }
        }
      }
    }
    add('body: unknown field with NUL key and value', { body: encode({ ...base, 'k\u0000ey': NUL }) });
    add('body: prototype keys', { body: isForm ? '__proto__=x&constructor=y' : '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}' });
    // The whole body wrong.
    for (const [label, text] of [
      ['empty', ''],
      ['broken JSON', '{"a":'],
      ['JSON null', 'null'],
      ['JSON array', '[1,2,3]'],
      ['JSON string', '"text"'],
      ['JSON number', '123'],
      ['raw NUL byte', `{"a":"x\u0000y"}`],
      ['deep nesting', `${'{"a":'.repeat(20_000)}"\\u0041"${'}'.repeat(20_000)}`],
      ['deep arrays', `${'['.repeat(50_000)}${']'.repeat(50_000)}`],
      ['invalid UTF-8 escape', '{"a":"\\ud800\\udc00\\udfff"}'],
    ] as Array<[string, string]>) {
      add(`body: ${label}`, { body: text, headers: { 'content-type': 'application/json' } });
    }
    // Wrong content types with the baseline body.
    for (const type of [
      'text/plain',
      isForm ? 'application/json' : 'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=xyz',
      'application/xml',
      'application/json; charset=utf-16',
    ]) {
      add(`content type ${type}`, { body: isForm ? JSON.stringify(baseBody) : encode(baseBody), headers: { 'content-type': type } });
    }
    add('no content type', { body: encode(baseBody), headers: {} });
    add('no body', { headers: {} });
  } else if (method !== 'get') {
    add('unexpected JSON body', { body: JSON.stringify({ extra: NUL }), headers: { 'content-type': 'application/json' } });
  } else {
    add('GET with a body-like content type', { headers: { 'content-type': 'application/json' } });
  }
  return cases;
}

export function allBadRequests(doc: OpenApiDocument): BadRequest[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).flatMap(([method, operation]) => badRequestsFor(doc, method, path, operation)),
  );
}
