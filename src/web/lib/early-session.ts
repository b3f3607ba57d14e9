/** The session's first answer, asked for by index.html before the app's JavaScript arrives (decision 185). */

declare global {
  interface Window {
    /** The session's answer, asked for by index.html while the JavaScript downloads (decision 185); taken once. */
    earlySession?: Promise<Response | null>;
  }
}

/**
 * The auth client's fetch: its first plain `GET /api/auth/get-session` takes the answer index.html asked for before
 * this code arrived, so the page's first requests do not wait for the entry to run first (on a phone that run is
 * several hundred milliseconds). Anything else, and that request when the early answer failed, goes to the network.
 */
export function fetchTakingEarlySession(
  source: { earlySession?: Promise<Response | null> },
  origin: string,
  /** better-auth's session endpoint, the one src/web/index.html asks for. */
  sessionPath: string,
  network: typeof fetch = (input, init) => fetch(input, init),
): typeof fetch {
  return (input, init) => {
    const early = source.earlySession;
    const url = new URL(input instanceof Request ? input.url : String(input), origin);
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    if (!early || method !== 'GET' || url.pathname !== sessionPath || url.search) return network(input, init);
    source.earlySession = undefined;
    return early.then((response) => (response?.ok ? response : network(input, init)));
  };
}
