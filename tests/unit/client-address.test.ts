import { describe, expect, it } from 'vitest';
import { resolveClientAddress, trustedProxyList } from '../../src/server/auth/client-address';

describe('client address', () => {
  const proxies = trustedProxyList(['10.0.0.0/8', '2001:db8::/32', '127.0.0.1']);

  it('is the socket peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(resolveClientAddress('198.51.100.1', '203.0.113.9', trustedProxyList([]))).toBe('198.51.100.1');
    expect(resolveClientAddress('::ffff:198.51.100.1', undefined, trustedProxyList([]))).toBe('198.51.100.1');
    expect(resolveClientAddress(undefined, '203.0.113.9', proxies)).toBeUndefined();
  });

  it('behind trusted proxies, is the right-most entry that is no trusted proxy', () => {
    expect(resolveClientAddress('10.1.2.3', '6.6.6.6, 198.51.100.7', proxies)).toBe('198.51.100.7');
    expect(resolveClientAddress('10.1.2.3', '6.6.6.6, 198.51.100.7, 10.9.9.9', proxies)).toBe('198.51.100.7');
    expect(resolveClientAddress('2001:db8::1', '2001:DB8::5, 2a00:1450::1', proxies)).toBe('2a00:1450::1');
    expect(resolveClientAddress('127.0.0.1', 'not-an-address', proxies)).toBe('127.0.0.1');
    // A socket outside the list: its header is ignored.
    expect(resolveClientAddress('198.51.100.1', '10.0.0.1, 203.0.113.9', proxies)).toBe('198.51.100.1');
  });

  it('refuses a malformed TRUSTED_PROXIES entry at start-up', () => {
    expect(() => trustedProxyList(['10.0.0.0/33'])).toThrow(/TRUSTED_PROXIES/);
    expect(() => trustedProxyList(['proxy.local'])).toThrow(/TRUSTED_PROXIES/);
  });
});
