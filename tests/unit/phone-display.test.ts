import { describe, expect, it } from 'vitest';
import { countryCodeOf, phoneForDisplay } from '../../src/server/features/candidates/phone-display';

describe("the candidate list's phone as a person reads it", () => {
  it("is national for a number of the person's own country, however the address writes the country", () => {
    expect(phoneForDisplay('+12125550101', 'US')).toBe('(212) 555-0101');
    expect(phoneForDisplay('+12125550101', 'United States')).toBe('(212) 555-0101');
    expect(phoneForDisplay('+61291234567', 'Australia')).toBe('(02) 9123 4567');
    expect(phoneForDisplay('+34912345678', 'es')).toBe('912 34 56 78');
    expect(phoneForDisplay('+442079460000', 'UK')).toBe('020 7946 0000');
  });
  it("is international for another country's number, and national across a shared calling code (US and Canada)", () => {
    expect(phoneForDisplay('+61291234567', 'US')).toBe('+61 2 9123 4567');
    expect(phoneForDisplay('+12125550101', 'Australia')).toBe('+1 212 555 0101');
    expect(phoneForDisplay('+14165550101', 'US')).toBe('(416) 555-0101');
  });
  it('without a country on the address, reads North American numbers nationally and others internationally', () => {
    expect(phoneForDisplay('+12125550101', null)).toBe('(212) 555-0101');
    expect(phoneForDisplay('+61291234567', null)).toBe('+61 2 9123 4567');
    expect(phoneForDisplay('+61291234567', 'Atlantis')).toBe('+61 2 9123 4567');
  });
  it('has nothing to show for no phone, and shows a number it cannot read as it is', () => {
    expect(phoneForDisplay(null, 'US')).toBeNull();
    expect(phoneForDisplay('12345', 'US')).toBe('12345');
  });
  it('knows a country by its code, its English name or a common other name', () => {
    expect(countryCodeOf(' mexico ')).toBe('MX');
    expect(countryCodeOf('USA')).toBe('US');
    expect(countryCodeOf('XX')).toBeNull();
    expect(countryCodeOf('')).toBeNull();
  });
});
