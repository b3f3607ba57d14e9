import { describe, expect, it } from 'vitest';
import { literal } from '../../src/server/db/prebuilt';

// A one-message read (decision 114) writes its values into the SQL text: only forms with nothing to escape.
describe('literal', () => {
  it('writes ids, id arrays, whole phone numbers, statuses and integers', () => {
    expect(literal('4409b9c3-5ac9-4bad-9206-17fa0a8c341b')).toBe("'4409b9c3-5ac9-4bad-9206-17fa0a8c341b'");
    expect(literal('{4409b9c3-5ac9-4bad-9206-17fa0a8c341b,5409b9c3-5ac9-4bad-9206-17fa0a8c341b}')).toBe(
      "'{4409b9c3-5ac9-4bad-9206-17fa0a8c341b,5409b9c3-5ac9-4bad-9206-17fa0a8c341b}'",
    );
    expect(literal('{}')).toBe("'{}'");
    expect(literal('+12125550101')).toBe("'+12125550101'");
    expect(literal('prescreen_passed')).toBe("'prescreen_passed'");
    expect(literal(51)).toBe('51');
  });

  it('refuses anything that would need escaping, so the statement goes with parameters instead', () => {
    for (const value of [
      "o'brien",
      "x'; drop table candidate; --",
      '%ada%',
      'ada@example.test',
      '2026-11-24T10:00:00.000Z',
      "4409b9c3-5ac9-4bad-9206-17fa0a8c341b'",
      "{4409b9c3-5ac9-4bad-9206-17fa0a8c341b,x'}",
      '+1 212 555 0101',
      'Contacted',
      1.5,
      -5,
      Number.MAX_SAFE_INTEGER + 2,
      null,
      true,
    ]) {
      expect(literal(value), String(value)).toBeUndefined();
    }
  });
});
