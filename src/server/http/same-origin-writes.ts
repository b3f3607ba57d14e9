import type { MiddlewareHandler } from 'hono';
import { trustedOrigins } from '../auth/origins';
import type { AppEnv } from './context';
import { AppError } from './errors';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Sec-Fetch-Site values of a request the page itself made, or the user typed (decision 120). */
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

/**
 * Refuses a state-changing request another site's page made (decision 120), as defence in depth beside the
 * SameSite=Lax session cookie and the JSON-only bodies. A browser names the page's origin on every POST, PUT, PATCH
 * and DELETE: a foreign or opaque ("null") Origin is 403; with no Origin, a Sec-Fetch-Site other than same-origin is
 * 403. A request with neither header is no browser's (a script, a server-to-server tool): its credential decides.
 * Mounted for the signed-in API only; provider webhooks and the public chat carry no session cookie.
 */
export const sameOriginWrites: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!WRITE_METHODS.has(c.req.method)) return next();
  const origin = c.req.header('origin');
  if (origin !== undefined) {
    if (!trustedOrigins(c.get('deps').config).includes(origin)) throw new AppError(403, 'This request came from another site and was refused');
    return next();
  }
  const fetchSite = c.req.header('sec-fetch-site');
  if (fetchSite !== undefined && !OWN_FETCH_SITES.has(fetchSite.toLowerCase())) throw new AppError(403, 'This request came from another site and was refused');
  return next();
};
