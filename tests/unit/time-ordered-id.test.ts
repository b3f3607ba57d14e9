import { describe, expect, it } from 'vitest';
import { timeOrderedUuid } from '../../src/server/db/time-ordered-id';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('timeOrderedUuid (decision 117)', () => {
  it('is a UUID version 7 of the RFC 9562 variant, carrying its millisecond in the first 48 bits', () => {
    const at = Date.UTC(2026, 10, 24, 22, 15, 0, 123);
    const id = timeOrderedUuid(at);
    expect(id).toMatch(UUID_V7);
    expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
  });

  it('sorts by time: ids made in later milliseconds compare greater, as text and as PostgreSQL compares uuids', () => {
    const start = Date.UTC(2026, 0, 1);
    const ids = Array.from({ length: 200 }, (_, i) => timeOrderedUuid(start + i * 7));
    expect([...ids].sort()).toEqual(ids);
  });

  it('differs within one millisecond (74 random bits)', () => {
    const at = Date.now();
    const ids = new Set(Array.from({ length: 10_000 }, () => timeOrderedUuid(at)));
    expect(ids.size).toBe(10_000);
  });
});
