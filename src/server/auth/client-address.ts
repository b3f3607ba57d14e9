import { BlockList, isIP } from 'node:net';

/** The header the app sets (never the client) for better-auth's rate limiter and session records. */
export const CLIENT_ADDRESS_HEADER = 'x-cohortly-client-address';

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) is `10.0.0.1`. */
export function normalizeAddress(address: string): string {
  const trimmed = address.trim().replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  return (mapped ? mapped[1] : trimmed).toLowerCase();
}

/**
 * TRUSTED_PROXIES as a BlockList: each entry an address (`10.0.0.7`, `::1`) or a CIDR (`10.0.0.0/8`).
 * A malformed entry stops the start-up: a typo must not silently trust or distrust a proxy.
 */
export function trustedProxyList(entries: string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split('/');
    const family = isIP(normalizeAddress(address));
    if (!family) throw new Error(`TRUSTED_PROXIES: "${entry}" is not an address or CIDR`);
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) {
      list.addAddress(normalizeAddress(address), type);
      continue;
    }
    const bits = Number(prefix);
    if (!/^\d+$/.test(prefix) || bits > (family === 6 ? 128 : 32)) throw new Error(`TRUSTED_PROXIES: "${entry}" has an invalid prefix length`);
    list.addSubnet(normalizeAddress(address), bits, type);
  }
  return list;
}

function isTrusted(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * The client's address: the socket's peer, unless that peer is a trusted proxy; then X-Forwarded-For is read
 * from the right (each trusted proxy appends the address it saw) and the first untrusted entry is the client.
 * Entries left of it were written by the client and are never believed. Undefined when nothing is known
 * (an in-process request without a socket).
 */
export function resolveClientAddress(socketAddress: string | undefined, forwardedFor: string | undefined, trusted: BlockList): string | undefined {
  if (!socketAddress) return undefined;
  const peer = normalizeAddress(socketAddress);
  if (!forwardedFor || !isTrusted(trusted, peer)) return peer;
  const hops = forwardedFor
    .split(',')
    .map((entry) => normalizeAddress(entry))
    .filter(Boolean);
  for (let index = hops.length - 1; index >= 0; index--) {
    const hop = hops[index];
    if (!isIP(hop)) return peer; // garbage in the chain: fall back to the proxy itself rather than trust it
    if (!isTrusted(trusted, hop)) return hop;
  }
  // Every hop is a trusted proxy: the left-most one is as close to the client as we know.
  return hops[0] ?? peer;
}

const proxyLists = new WeakMap<string[], BlockList>();

/** The request's client address (see resolveClientAddress), from the Node socket and the configured TRUSTED_PROXIES. */
export function clientAddressOf(c: { env: unknown; req: { header(name: string): string | undefined } }, trustedProxies: string[]): string | undefined {
  let list = proxyLists.get(trustedProxies);
  if (!list) proxyLists.set(trustedProxies, (list = trustedProxyList(trustedProxies)));
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } }; server?: { incoming?: { socket?: { remoteAddress?: string } } } } | undefined;
  const socketAddress = (env?.server ?? env)?.incoming?.socket?.remoteAddress;
  return resolveClientAddress(socketAddress, c.req.header('x-forwarded-for'), list);
}
