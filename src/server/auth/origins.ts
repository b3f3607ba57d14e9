import type { AppConfig } from '../config';

/**
 * The origins the web app is served from: the public URL, and outside production the local addresses `npm run dev:server`
 * and the tests use. better-auth checks /api/auth against them; http/same-origin-writes.ts checks every other write.
 */
export function trustedOrigins(config: AppConfig): string[] {
  const origins = [new URL(config.publicBaseUrl).origin];
  if (!config.isProduction) origins.push(`http://localhost:${config.port}`, `http://127.0.0.1:${config.port}`);
  return origins;
}
