import { describe, expect, it } from 'vitest';
import { ratingFrom } from '../../src/server/features/satisfaction/service';
import { reviewAgreement } from '../../src/server/activity';

describe('ratingFrom: a 1-5 rating from what a person typed or said', () => {
  it.each([
    ['5', 5],
    [' 4 ', 4],
    ['4/5', 4],
    ['3 out of 5', 3],
    ['4 de 5', 4],
    ['5 great staff', 5],
    ['2, the wait was long', 2],
    ['Five', 5],
    ['cuatro', 4],
    [3, 3],
  ])('%s -> %s', (input, expected) => expect(ratingFrom(input)).toBe(expected));

  it.each([['0'], ['6'], ['10'], ['45'], ['yes'], [''], ['maybe 4'], [4.5], [null], [undefined]])('%s is not a rating', (input) =>
    expect(ratingFrom(input)).toBeNull(),
  );
});

describe('reviewAgreement: whether a reviewer agreed with the AI', () => {
  it.each([
    ['PASS', 'approve', null, 'agree'],
    ['POTENTIAL', 'approve', null, 'agree'],
    ['FAIL', 'reject', null, 'agree'],
    ['FAIL', 'approve', 'PASS', 'override'],
    ['PASS', 'reject', null, 'override'],
    ['FAIL', 'approve', null, 'override'],
    ['INCONCLUSIVE', 'approve', null, 'resolved'],
    ['INCONCLUSIVE', 'approve', 'PASS', 'override'],
  ] as const)('AI %s, reviewer %s (override %s) -> %s', (ai, decision, override, expected) => expect(reviewAgreement(ai, decision, override)).toBe(expected));
});
