import { z, type ZodType } from 'zod';

/**
 * The most characters a contract's string schema accepts, read through its wrappers (optional, nullable, a
 * default, a transform or pipe), so a form stops at the length the server would refuse. Throws for a schema
 * without a maximum: the form would no longer match its contract.
 */
export function maxLengthOf(schema: ZodType): number {
  let current: unknown = schema;
  for (let depth = 0; depth < 8 && current; depth++) {
    const node = current as { maxLength?: number | null; unwrap?: () => unknown; in?: unknown };
    if (typeof node.maxLength === 'number') return node.maxLength;
    current = typeof node.unwrap === 'function' ? node.unwrap() : node.in;
  }
  throw new Error('The schema sets no maximum length');
}

/** A form's trimmed text, at most as long as the contract's `schema` allows, saying so in words: "Name must be at most 100 characters". */
export function textUpTo(schema: ZodType, label: string) {
  const max = maxLengthOf(schema);
  return z.string().trim().max(max, `${label} must be at most ${max} characters`);
}
