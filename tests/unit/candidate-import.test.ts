import { describe, expect, it } from 'vitest';
import { normalizePhone } from '../../src/contract/candidates';
import { guessField, mapRow, normalizeDate, parseCsv, readCsvStream, resolveMapping, validateRow } from '../../src/server/features/candidates/import';
import { resolveStatusAndFlag } from '../../src/server/features/candidates/service';

describe('column guesses', () => {
  it.each([
    ['First Name', 'firstName'],
    ['first_name', 'firstName'],
    ['Given name', 'firstName'],
    ['Surname', 'lastName'],
    ['Phone', 'phone'],
    ['Mobile', 'phone'],
    ['Cell', 'phone'],
    ['DOB', 'dateOfBirth'],
    ['Date of Birth', 'dateOfBirth'],
    ['Zip', 'postalCode'],
    ['Postal code', 'postalCode'],
    ['E-mail', 'email'],
    ['Gender', 'sex'],
    ['Name', 'fullName'],
    ['Favourite colour', 'custom'],
  ])('%s -> %s', (column, field) => expect(guessField(column)).toBe(field));

  it('gives a field to one column only and lets the caller override', () => {
    expect(resolveMapping(['Phone', 'Mobile', 'Zip'], { Zip: 'ignore' })).toEqual({ Phone: 'phone', Mobile: 'custom', Zip: 'ignore' });
  });
});

describe('parseCsv', () => {
  it('reads quoted fields, a BOM and blank lines', () => {
    const parsed = parseCsv('\uFEFFFirst Name,Notes\r\n"Ada","likes ""tea"", coffee"\r\n\r\nBob,\r\n');
    expect(parsed.columns).toEqual(['First Name', 'Notes']);
    expect(parsed.rows).toEqual([
      { 'First Name': 'Ada', Notes: 'likes "tea", coffee' },
      { 'First Name': 'Bob', Notes: '' },
    ]);
  });
  it('names the line of an unterminated quote', () => {
    expect(() => parseCsv('a,b\n1,2\n"3,4\n')).toThrow(/line 3/);
  });
});

describe('validateRow', () => {
  it('normalizes phone, email, date and sex', () => {
    const result = validateRow(
      mapRow(
        { N: 'Hopper, Grace', P: '(212) 555-0102', E: 'G@X.TEST', D: '12/9/1976', S: 'F' },
        { N: 'fullName', P: 'phone', E: 'email', D: 'dateOfBirth', S: 'sex' },
      ),
      'US',
    );
    expect(result).toMatchObject({
      ok: true,
      values: { firstName: 'Grace', lastName: 'Hopper', phone: '+12125550102', email: 'g@x.test', dateOfBirth: '1976-12-09', sex: 'female' },
    });
  });
  it('reports each bad field', () => {
    const result = validateRow({ firstName: '', phone: '123', dateOfBirth: '1990-13-01', sex: 'sometimes' }, 'US');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.map((error) => error.field).sort()).toEqual(['dateOfBirth', 'firstName', 'phone', 'sex']);
  });
  it('reads day-first dates outside the US', () => {
    expect(normalizeDate('09/12/1976', 'GB')).toBe('1976-12-09');
    expect(normalizeDate('09/12/1976', 'US')).toBe('1976-09-12');
  });
  it('uses the default country for national numbers', () => {
    expect(normalizePhone('020 7946 0958', 'GB')).toBe('+442079460958');
    expect(normalizePhone('020 7946 0958', 'US')).toBeNull();
  });
});

describe('status and do-not-contact stay consistent', () => {
  it.each([
    [{ status: 'contacted', doNotContact: false }, { doNotContact: true }, { status: 'do_not_contact', doNotContact: true }],
    [{ status: 'do_not_contact', doNotContact: true }, { doNotContact: false }, { status: 'new', doNotContact: false }],
    [{ status: 'do_not_contact', doNotContact: true }, { status: 'contacted' }, { status: 'contacted', doNotContact: false }],
    [{ status: 'new', doNotContact: false }, { status: 'do_not_contact' }, { status: 'do_not_contact', doNotContact: true }],
  ] as const)('%o + %o -> %o', (current, input, expected) => expect(resolveStatusAndFlag(current, input)).toEqual(expected));
  it('refuses a contradiction', () =>
    expect(() => resolveStatusAndFlag({ status: 'new', doNotContact: false }, { status: 'enrolled', doNotContact: true })).toThrow());
});

describe('readCsvStream row limit', () => {
  it('refuses at the first row over the limit with a 413 naming it, without handing that row over or reading the rest', async () => {
    const encoder = new TextEncoder();
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled === 0) controller.enqueue(encoder.encode('First Name\n'));
        if (pulled >= 100_000) return controller.close();
        // 100 rows a read: the limit is crossed in the third read.
        controller.enqueue(encoder.encode(Array.from({ length: 100 }, (_, i) => `P${pulled + i}\n`).join('')));
        pulled += 100;
      },
    });
    const handed: number[] = [];
    const reading = readCsvStream(body, {
      maxBytes: 1024 * 1024,
      batchRows: 50,
      maxRows: 250,
      onHeader: () => undefined,
      onRows: async (rows) => {
        handed.push(rows.length);
      },
    });
    await expect(reading).rejects.toMatchObject({ status: 413, message: expect.stringContaining('more than 250 rows') });
    expect(handed.reduce((sum, n) => sum + n, 0)).toBeLessThanOrEqual(250);
    // The first 64 KB are waited for to guess the delimiter, so a few reads happen; never the whole file.
    expect(pulled).toBeLessThan(100_000);
  });
});
