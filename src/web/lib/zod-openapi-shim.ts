/**
 * The browser's stand-in for '@hono/zod-openapi' (aliased in vite.config.ts). The contracts in src/contract
 * import `z` from there so the server can describe them in OpenAPI; the web app only validates with them,
 * and the OpenAPI generator (tens of kB) has no place in the page's JavaScript. `.openapi()` keeps the schema.
 */
import { z } from 'zod';

const prototype = z.ZodType.prototype as unknown as { openapi?: unknown };
if (typeof prototype.openapi !== 'function') {
  // A plain assignment (enumerable), as zod-to-openapi does: zod v4 copies the prototype's own keys onto each schema.
  prototype.openapi = function openapi(this: unknown) {
    return this;
  };
}

export { z };
