import { z } from '@hono/zod-openapi';

/** The one error shape every API endpoint answers with: { error: { code, message, details? } } (docs/product-spec.md §8). */
export const ApiErrorSchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: 'NOT_FOUND' }),
      message: z.string().openapi({ example: 'Not Found' }),
      details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    }),
  })
  .openapi('ApiError');
export type ApiError = z.infer<typeof ApiErrorSchema>;

import { UUID_PATTERN } from './ids';

export { UUID_PATTERN };

/** An id in a query filter: a malformed one is a 400 naming the field, never a query the database refuses. */
export const IdFilterSchema = z.string().trim().regex(UUID_PATTERN, 'Must be an id (UUID)').openapi({ format: 'uuid' });

export const IdParamSchema = z.object({ id: z.string().min(1) });

/**
 * A list of organization ids in a query string: accepts `?orgs=a&orgs=b`, `?orgs=a,b` or a JSON array.
 * It only ever narrows the request scope (see server/auth/scope.ts).
 */
export const OrganizationIdListSchema = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((value) => {
    if (value === undefined) return undefined;
    const raw = Array.isArray(value) ? value : [value];
    const ids = raw.flatMap((item) => {
      const text = item.trim();
      if (text.startsWith('[')) {
        try {
          const parsed = JSON.parse(text);
          return Array.isArray(parsed) ? parsed.map(String) : [];
        } catch {
          return [];
        }
      }
      return text.split(',');
    });
    return ids.map((id) => id.trim()).filter(Boolean);
  });

export const TimestampSchema = z.string().openapi({ format: 'date-time' });
