import { OpenAPIHono, z } from '@hono/zod-openapi';
import { ApiErrorSchema } from '../../contract/common';
import type { AppEnv } from './context';
import { validationError } from './errors';

/** A feature router: zod-validated routes whose schemas also feed the OpenAPI document. */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    strict: false,
    defaultHook: (result, c) => {
      if (!result.success) return validationError(c, result.error, result.target);
    },
  });
}

/** A JSON response entry of a route contract. */
export const jsonContent = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { 'application/json': { schema } },
  description,
});

/** A required JSON request body of a route contract. */
export const jsonBody = <T extends z.ZodType>(schema: T) => ({ body: { content: { 'application/json': { schema } }, required: true } });

/** A path parameter schema, documented as such. */
export const pathParams = <K extends string>(...names: K[]) =>
  z.object(
    Object.fromEntries(
      names.map((name) => [
        name,
        z
          .string()
          .min(1)
          .openapi({ param: { name, in: 'path' } }),
      ]),
    ) as Record<K, z.ZodString>,
  );

/** The error answers an authenticated, tenant-scoped route may give. */
export const errorResponses = {
  400: jsonContent(ApiErrorSchema, 'Invalid input: the message and details name the field'),
  401: jsonContent(ApiErrorSchema, 'Not signed in'),
  403: jsonContent(ApiErrorSchema, 'Signed in, but the role does not allow it'),
  404: jsonContent(ApiErrorSchema, 'Not found, or outside the organizations in scope'),
} as const;
