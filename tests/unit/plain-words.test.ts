import { defaultParseSearch } from '@tanstack/react-router';
import { describe, expect, it } from 'vitest';
import { trialMatchSearch } from '../../src/contract/search';
import { BOOKING_STATUSES } from '../../src/contract/prescreen';
import { MEMBER_ROLES } from '../../src/contract/users';
import { CALL_OUTCOMES, CALL_STATUSES } from '../../src/contract/voice';
import { BOOKING_STATUS_LABELS, CALL_OUTCOME_WORDS, CALL_STATUS_WORDS, callOutcomeWords, MEMBER_ROLE_LABELS, phaseWords } from '../../src/contract/words';
import { answerInWords } from '../../src/web/features/prescreen/format';
import { countOf, countWords } from '../../src/web/lib/counts';
import { calendarDateInWords, datesInTextInWords } from '../../src/web/lib/date-words';

// Issue 32 item 9 follow-up: codes and ISO dates that still reached users on the first day of `npm start`.
describe('plain words for codes', () => {
  it('writes a trial phase code in words and leaves a phase already in words alone', () => {
    expect(phaseWords('PHASE1')).toBe('Phase 1');
    expect(phaseWords('PHASE3')).toBe('Phase 3');
    expect(phaseWords('PHASE2/PHASE3')).toBe('Phase 2/3');
    expect(phaseWords('PHASE2, PHASE3')).toBe('Phase 2/3');
    expect(phaseWords('phase1')).toBe('Phase 1');
    expect(phaseWords('EARLY_PHASE1')).toBe('Early Phase 1');
    expect(phaseWords('NA')).toBe('Not applicable');
    expect(phaseWords('Phase 2/Phase 3')).toBe('Phase 2/Phase 3');
    expect(phaseWords('Phase 3b (extension)')).toBe('Phase 3b (extension)');
    expect(phaseWords('PHASE3 extension')).toBe('PHASE3 extension');
  });
  it('has a word for every role, booking status, call status and call outcome, none of them the code', () => {
    for (const [codes, words] of [
      [MEMBER_ROLES, MEMBER_ROLE_LABELS],
      [BOOKING_STATUSES, BOOKING_STATUS_LABELS],
      [CALL_STATUSES, CALL_STATUS_WORDS],
      [CALL_OUTCOMES, CALL_OUTCOME_WORDS],
    ] as const) {
      for (const code of codes) {
        const word = (words as Record<string, string>)[code];
        expect(word, code).toMatch(/^[A-Z][a-z -]+$/);
        expect(word).not.toBe(code);
      }
    }
    expect(MEMBER_ROLE_LABELS.coordinator).toBe('Coordinator');
    expect(BOOKING_STATUS_LABELS.no_show).toBe('No-show');
    expect(callOutcomeWords('no_answer')).toBe('No answer');
    expect(callOutcomeWords('assistant_ended_call')).toBe('Assistant ended call');
  });
});

describe('answers that are dates', () => {
  it('writes a calendar date in words, the same day in every time zone', () => {
    expect(calendarDateInWords('1958-03-09')).toBe('9 March 1958');
    expect(calendarDateInWords('2001-12-31T00:00:00.000Z')).toBe('31 December 2001');
    expect(calendarDateInWords('1958-02-30')).toBeNull();
    expect(calendarDateInWords('09/03/1958')).toBeNull();
    expect(calendarDateInWords('2026-12-03T10:30:00.000Z')).toBeNull();
  });
  it('shows a date answer in words wherever answers are shown, other answers as before', () => {
    expect(answerInWords({ value: '1958-03-09', type: 'date' })).toBe('9 March 1958');
    expect(answerInWords({ value: '1958-03-09' })).toBe('9 March 1958');
    expect(answerInWords({ value: ['2020-01-05', 'other'] })).toBe('5 January 2020, other');
    expect(answerInWords({ value: 'I was born in 1958' })).toBe('I was born in 1958');
    expect(answerInWords({ value: 42 })).toBe('42');
    expect(answerInWords({ value: true })).toBe('Yes');
    expect(answerInWords({ value: '' })).toBe('No answer');
  });
});

describe('counts', () => {
  it('writes counts over 999 with a thousands separator', () => {
    expect(countWords(1001)).toBe('1,001');
    expect(countWords(999)).toBe('999');
    expect(countOf(1, 'trial')).toBe('1 trial');
    expect(countOf(3003, 'trial')).toBe('3,003 trials');
    expect(countOf(2, 'criterion', 'criteria')).toBe('2 criteria');
  });

  it('writes any number exactly as the browser would in US English (grouped by hand, no locale data)', () => {
    const numbers = [0, -0, 7, 12, 345, 6789, -6789, 10_000, 123_456, 7_654_321, -98_765_432, 100_000_000_000, Number.MAX_SAFE_INTEGER];
    numbers.push(2 ** 53, 3.25, 1234.56789, -0.0004, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e21);
    // Every digit count from 1 to 16, positive and negative, with digits that would show a misplaced separator.
    for (let digits = 1; digits <= 16; digits++) numbers.push(Number('9876543210123456'.slice(0, digits)), -Number('1023456789876543'.slice(0, digits)));
    for (const value of numbers) expect(countWords(value), String(value)).toBe(value.toLocaleString('en-US'));
    expect(countWords(4_500_000)).toBe('4,500,000');
    expect(countWords(-1200)).toBe('-1,200');
  });
});

describe('a link to the trial matcher opens the tab it names', () => {
  const tabOf = (query: string) => (trialMatchSearch.parse(defaultParseSearch(query))['gap-analysis'] !== undefined ? 'gap analysis' : 'ranked');
  it('opens the gap analysis for ?gap-analysis with any value the router may read (number, true, text)', () => {
    expect(tabOf('?gap-analysis=1')).toBe('gap analysis');
    expect(tabOf('?gap-analysis=true')).toBe('gap analysis');
    expect(tabOf('?gap-analysis=yes')).toBe('gap analysis');
    expect(tabOf('?gap-analysis=4b0f9f5e-2d1c-4a57-9c55-0d8f1f6f2a10')).toBe('gap analysis');
  });
  it('falls back to the ranked list without it or with a value that says no', () => {
    expect(tabOf('')).toBe('ranked');
    expect(tabOf('?q=ana')).toBe('ranked');
    expect(tabOf('?gap-analysis=false')).toBe('ranked');
    expect(tabOf('?gap-analysis=null')).toBe('ranked');
  });
});

describe('dates quoted in sentences staff read', () => {
  it('writes a quoted date answer in words and leaves timestamps and other numbers alone', () => {
    expect(datesInTextInWords('Date of birth answered "1958-03-09": aged 68')).toBe('Date of birth answered "9 March 1958": aged 68');
    expect(datesInTextInWords('Diagnosed 2019-06-01, again 2021-02-30')).toBe('Diagnosed 1 June 2019, again 2021-02-30');
    expect(datesInTextInWords('Called 2026-12-03T10:30:00.000Z')).toBe('Called 2026-12-03T10:30:00.000Z');
    expect(datesInTextInWords('Trial NCT01234567, 12-03-2020')).toBe('Trial NCT01234567, 12-03-2020');
  });
});
