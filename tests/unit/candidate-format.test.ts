import { describe, expect, it } from 'vitest';
import { customFieldLabel, formatBirthDate } from '../../src/web/features/candidates/format';

describe("a candidate's profile in words", () => {
  it('shows a date of birth as the calendar date it is, in words', () => {
    const shown = formatBirthDate('1989-01-24');
    expect(shown).toMatch(/24/);
    expect(shown).toMatch(/1989/);
    expect(shown).not.toMatch(/1989-01-24|23/);
    expect(formatBirthDate(null)).toBe('—');
  });

  it("labels an imported column's key as words", () => {
    expect(customFieldLabel('siteId')).toBe('Site id');
    expect(customFieldLabel('referral_source')).toBe('Referral source');
    expect(customFieldLabel('MRN')).toBe('MRN');
    expect(customFieldLabel('patientMRN')).toBe('Patient MRN');
  });
});
