import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { forgetExceedsLimit, forgetLargeCounts, knownToExceedLimit, rememberExceedsLimit } from '../../src/server/features/candidates/large-counts';

// Decision 093's memory of organizations past the list's count limit (10 s), and decision 111's one recount at a time.
const TTL = 10_000;
const organizations = () => [randomUUID(), randomUUID()];

describe('organizations known to exceed the count limit', () => {
  it('answers from memory for 10 s, in any order of the organization ids', () => {
    const ids = organizations();
    expect(knownToExceedLimit(ids, 0)).toBe(false);
    rememberExceedsLimit(ids, 1_000);
    expect(knownToExceedLimit([...ids].reverse(), 1_000 + TTL - 1)).toBe(true);
  });

  it('past 10 s, lets one list count again while the others keep the answer, until that count is remembered', () => {
    const ids = organizations();
    rememberExceedsLimit(ids, 0);
    expect(knownToExceedLimit(ids, TTL)).toBe(false); // this list counts
    expect(knownToExceedLimit(ids, TTL + 5)).toBe(true); // the lists meanwhile do not
    expect(knownToExceedLimit(ids, TTL + 300)).toBe(true);
    rememberExceedsLimit(ids, TTL + 400);
    expect(knownToExceedLimit(ids, TTL + 400 + TTL - 1)).toBe(true);
  });

  it('counts on every list again once the recount finds the organizations within the limit', () => {
    const ids = organizations();
    rememberExceedsLimit(ids, 0);
    expect(knownToExceedLimit(ids, TTL)).toBe(false);
    forgetExceedsLimit(ids);
    expect(knownToExceedLimit(ids, TTL + 5)).toBe(false);
    expect(knownToExceedLimit(ids, TTL + 6)).toBe(false);
  });

  it('lets another list count when a recount never reported (an error, a client gone) within another 10 s', () => {
    const ids = organizations();
    rememberExceedsLimit(ids, 0);
    expect(knownToExceedLimit(ids, TTL)).toBe(false);
    expect(knownToExceedLimit(ids, 2 * TTL - 1)).toBe(true);
    expect(knownToExceedLimit(ids, 2 * TTL)).toBe(false);
    expect(knownToExceedLimit(ids, 2 * TTL + 1)).toBe(true);
  });

  it('forgets at once when a candidate of one of the organizations is removed', () => {
    const ids = organizations();
    rememberExceedsLimit(ids, 0);
    forgetLargeCounts([ids[1]]);
    expect(knownToExceedLimit(ids, 1)).toBe(false);
  });
});
