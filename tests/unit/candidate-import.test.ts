import { describe, expect, it } from 'vitest';
import { normalizePhone } from '../../src/contract/candidates';
import { guessField, mapRow, normalizeDate, parseCsv, resolveMapping, validateRow } from '../../src/server/features/candidates/import';
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
