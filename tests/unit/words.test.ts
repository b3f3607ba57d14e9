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
    // Demo rows written before the call lines were in words read as the provider's lines do.
    expect(humanSummary('Call ended: no_answer')).toBe('Call not answered');
    expect(humanSummary('Call ended: completed')).toBe('Call completed');
    expect(blockReasonWords('no_call_consent')).toBe('no consent to calls');
    expect(blockReasonWords('something_new')).toBe('something new');
  });
  it('rewords the system words of stored contact-history lines (issue 32 item 9)', () => {
    expect(humanSummary('Details updated: timeZone, dateOfBirth, phone')).toBe('Details updated: time zone, date of birth, phone');
    expect(humanSummary('SMS sent: visit_confirmation')).toBe('SMS sent: visit confirmation');
    expect(humanSummary('Prescreen (call): PASS')).toBe('Prescreen (call): Pass');
    expect(humanSummary('Prescreen approved; recommendation overridden: INCONCLUSIVE -> PASS')).toBe(
      'Prescreen approved; recommendation overridden from Inconclusive to Pass',
    );
    const line = humanSummary('Callback scheduled for 2026-12-03T10:30:00.000Z');
    expect(line).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    expect(line).toMatch(/^Callback scheduled for .*2026/);
  });
});
