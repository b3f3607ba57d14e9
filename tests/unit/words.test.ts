import { describe, expect, it } from 'vitest';
import { blockReasonWords, humanSummary, statusChangeSummary } from '../../src/web/lib/words';

describe('words a coordinator reads', () => {
  it('says a status change in words', () => {
    expect(statusChangeSummary('new', 'prescreen_passed')).toBe('Status changed from New to Prescreen passed');
    expect(humanSummary('Status: new -> prescreen_passed')).toBe('Status changed from New to Prescreen passed');
  });
  it('rewords a reason code in a stored line, and leaves other text alone', () => {
    expect(humanSummary('SMS not sent (no_call_consent): reminder')).toBe('SMS not sent (no consent to calls): reminder');
    expect(humanSummary('Call completed (prescreen)')).toBe('Call completed (prescreen)');
    expect(blockReasonWords('no_call_consent')).toBe('no consent to calls');
    expect(blockReasonWords('something_new')).toBe('something new');
  });
});
