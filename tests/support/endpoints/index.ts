/**
 * How every API endpoint is protected, by feature. The tenant-isolation inventory test fails when an
 * endpoint of /api/openapi.json is missing here, so a new endpoint cannot skip the isolation suite.
 *
 * - public: no sign-in (and nothing tenant-owned, or a secret token in the path)
 * - self: only the caller's own record
 * - list-scoped: a list filtered by the request scope
 * - admin-only: internal admins only
 * - tenant-row: reads or changes one organization's row: must be probed from another organization
 *   (a probe in a tenant-isolation*.int.test.ts file) and answer 404
 * - provider: a provider webhook or agent tool: no session, a Twilio signature or the Vapi secret instead;
 *   probed unsigned in production configuration (tenant-isolation.providers.int.test.ts): 401/403, nothing changed
 */
export type Classification = 'public' | 'self' | 'list-scoped' | 'admin-only' | 'tenant-row' | 'provider';

const modules = import.meta.glob<{ ENDPOINTS: Record<string, Classification> }>('./*.ts', { eager: true });

/** Every feature's classifications, merged: `'METHOD /path/{param}' -> classification`. */
export const ENDPOINTS: Record<string, Classification> = Object.assign(
  {},
  ...Object.entries(modules)
    .filter(([file]) => !file.endsWith('/index.ts'))
    .map(([, module]) => module.ENDPOINTS),
);
