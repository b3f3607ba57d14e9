/**
 * A very small validator for route search params, in the Standard Schema shape TanStack Router reads
 * (`~standard.validate`, `~standard.types` for the input and output types).
 *
 * Why not zod: every route's search schema sits in the first page's JavaScript (the route tree is not
 * code-split), and zod's core alone is ~16 kB gz of the 150 kB the sign-in page may load
 * (scripts/check-bundle-budget.ts). Search params only ever need "this text, this value from a list, or
 * the default": a bad value falls back instead of throwing, so a bad URL shows the route's defaults.
 */

/** One search param: how to read it, and (types only) what a link may pass. */
export interface Param<In, Out> {
  readonly read: (value: unknown) => Out;
  /** Types only: what a link or navigate() may pass. */
  readonly input?: In;
}
type AnyParam = Param<any, any>;
type OutputOf<P> = P extends Param<any, infer O> ? O : never;
type InputOf<P> = P extends Param<infer I, any> ? I : never;
type Shape = Record<string, AnyParam>;

type OptionalKeys<S extends Shape> = { [K in keyof S]: undefined extends OutputOf<S[K]> ? K : never }[keyof S];
type RequiredKeys<S extends Shape> = Exclude<keyof S, OptionalKeys<S>>;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

export type SearchOutput<S extends Shape> = Simplify<{ [K in OptionalKeys<S>]?: OutputOf<S[K]> } & { [K in RequiredKeys<S>]: OutputOf<S[K]> }>;
export type SearchInput<S extends Shape> = Simplify<{ [K in keyof S]?: InputOf<S[K]> }>;

export interface SearchSchema<S extends Shape> {
  readonly shape: S;
  parse(value: unknown): SearchOutput<S>;
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: 'cohortly';
    readonly validate: (value: unknown) => { value: SearchOutput<S> };
    readonly types?: { readonly input: SearchInput<S>; readonly output: SearchOutput<S> };
  };
}
export type InferSearch<T> = T extends SearchSchema<infer S> ? SearchOutput<S> : never;

export function searchSchema<S extends Shape>(shape: S): SearchSchema<S> {
  const parse = (value: unknown): SearchOutput<S> => {
    const source = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
    const out: Record<string, unknown> = {};
    // Every key of the shape is set, undefined included: TanStack Router spreads the validated search over the
    // raw one, so a dropped key would let the bad raw value (?aiRecommendation=MAYBE) through to the page.
    for (const [key, param] of Object.entries(shape)) out[key] = param.read(source[key]);
    return out as SearchOutput<S>;
  };
  return { shape, parse, '~standard': { version: 1, vendor: 'cohortly', validate: (value) => ({ value: parse(value) }) } };
}

/** The same params and more (later keys win). */
export function extendSearch<S extends Shape, E extends Shape>(schema: SearchSchema<S>, extra: E): SearchSchema<Omit<S, keyof E> & E> {
  return searchSchema({ ...schema.shape, ...extra } as Omit<S, keyof E> & E);
}

/** Any text; anything else is dropped. */
export const text: Param<string | undefined, string | undefined> = { read: (value) => (typeof value === 'string' ? value : undefined) };
/**
 * A switch named by its presence (`?gap-analysis=1`, `?gap-analysis=yes`, `?gap-analysis=ID`): the router reads
 * `1` and `true` as JSON, so a number or `true` counts as given too; `false`, null, lists and objects do not.
 */
export const presenceText: Param<string | undefined, string | undefined> = {
  read: (value) => (typeof value === 'string' ? value : (typeof value === 'number' && Number.isFinite(value)) || value === true ? String(value) : undefined),
};
/** Non-empty text. */
export const nonEmptyText: Param<string | undefined, string | undefined> = {
  read: (value) => (typeof value === 'string' && value.length > 0 ? value : undefined),
};
// ids.ts's pattern, written out: importing it costs the first page a chunk of its own (the /sign-in budget).
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const uuid: Param<string | undefined, string | undefined> = { read: (value) => (typeof value === 'string' && UUID.test(value) ? value : undefined) };

/** A list of ids: an array (TanStack's JSON search encoding) or a comma list. */
export const idList: Param<string[] | string | undefined, string[] | undefined> = {
  read: (value) => {
    if (typeof value === 'string') return value.split(',').filter(Boolean);
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
    return undefined;
  },
};

/** A page number: an integer of at least 1; a bad one is page 1, none is none. */
export const pageNumber: Param<number | undefined, number | undefined> = {
  read: (value) => {
    if (value === undefined) return undefined;
    const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
    return Number.isInteger(n) && n >= 1 ? n : 1;
  },
};

/** One of the values; anything else is dropped. */
export function oneOf<const T extends readonly string[]>(values: T): Param<T[number] | undefined, T[number] | undefined> {
  return { read: (value) => (typeof value === 'string' && values.includes(value) ? (value as T[number]) : undefined) };
}

/** One of the values, or the default. */
export function oneOfOr<const T extends readonly string[]>(values: T, fallback: T[number]): Param<T[number] | undefined, T[number]> {
  return { read: (value) => (typeof value === 'string' && values.includes(value) ? (value as T[number]) : fallback) };
}
