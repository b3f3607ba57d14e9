import { describe, expect, it } from 'vitest';
import { urlOf } from '../../scripts/check-bundle-budget';
import { parsePhoneNumberFromString } from '../../src/web/lib/phone-lazy';

describe('bundle budget: route files to URLs', () => {
  it('drops pathless layouts and index/route files', () => {
    expect(urlOf('sign-in.tsx')).toBe('/sign-in');
    expect(urlOf('index.tsx')).toBe('/');
    expect(urlOf('_authed/candidates/index.tsx')).toBe('/candidates');
    expect(urlOf('_authed/candidates/$id/contact-history.tsx')).toBe('/candidates/$id/contact-history');
    expect(urlOf('_authed/admin/demo/sponsors/intro.tsx')).toBe('/admin/demo/sponsors/intro');
  });
});

describe('the lazily loaded phone library', () => {
  it('before it is asked for, shows North American numbers in their national form and reads only E.164', () => {
    expect(parsePhoneNumberFromString('+12125550123')?.formatNational()).toBe('(212) 555-0123');
    expect(parsePhoneNumberFromString('+12125550123')?.countryCallingCode).toBe('1');
    expect(parsePhoneNumberFromString('+61291234567')?.formatInternational()).toBe('+61291234567');
    expect(parsePhoneNumberFromString('(212) 555-0123', 'US')).toBeUndefined();
  });

  it('reads numbers the full library reads, once it has loaded', async () => {
    const { loadPhoneLibrary } = await import('../../src/web/lib/phone-lazy');
    await loadPhoneLibrary();
    expect(parsePhoneNumberFromString('+61291234567')?.formatInternational()).toBe('+61 2 9123 4567');
    const parsed = parsePhoneNumberFromString('(212) 555-0123', 'US');
    expect(parsed?.number).toBe('+12125550123');
    expect(parsed?.formatNational()).toBe('(212) 555-0123');
  });
});

describe("the browser's stand-in for @hono/zod-openapi", () => {
  it('keeps .openapi() on every schema, so the contracts load and validate in the browser', async () => {
    const { z } = await import('../../src/web/lib/zod-openapi-shim');
    const schema = z.object({ name: z.string().openapi({ example: 'Ann' }) }).openapi('Person');
    expect(schema.parse({ name: 'Ann' })).toEqual({ name: 'Ann' });
    expect(z.enum(['a', 'b']).openapi('Letter').safeParse('c').success).toBe(false);
  });
});
