import { describe, expect, it } from 'vitest';
import { databaseInputErrorCode } from '../../src/server/http/errors';

describe("databaseInputErrorCode (the last line of defence: data exceptions are the caller's input)", () => {
  it('finds PostgreSQL data exceptions on the error or its causes', () => {
    expect(databaseInputErrorCode(Object.assign(new Error('invalid input syntax for type uuid'), { code: '22P02' }))).toBe('22P02');
    const wrapped = new Error('Failed query', { cause: Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' }) });
    expect(databaseInputErrorCode(wrapped)).toBe('22021');
  });

  it('leaves everything else a 500', () => {
    expect(databaseInputErrorCode(Object.assign(new Error('deadlock detected'), { code: '40P01' }))).toBeUndefined();
    expect(databaseInputErrorCode(new Error('boom'))).toBeUndefined();
    expect(databaseInputErrorCode(undefined)).toBeUndefined();
  });
});
