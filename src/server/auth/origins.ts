import type { AppConfig } from '../config';

/** Vite's dev server (`npm run dev:web`, vite.config.ts `server.port`, strict): it proxies /api, so writes come from it. */
export const VITE_DEV_SERVER_PORT = 5173;

/**
 * The origins the web app is served from: the public URL, and outside production the local addresses `npm run dev:server`,
 * `npm run dev:web` and the tests use. better-auth checks /api/auth against them; http/same-origin-writes.ts checks every
 * other write.
 */
export function trustedOrigins(config: AppConfig): string[] {
  const origins = [new URL(config.publicBaseUrl).origin];
  if (!config.isProduction) {
    for (const port of [config.port, VITE_DEV_SERVER_PORT]) origins.push(`http://localhost:${port}`, `http://127.0.0.1:${port}`);
  }
  return [...new Set(origins)];
}
