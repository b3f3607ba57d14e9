import { describe, expect, it } from 'vitest';
import { trialOption } from '../../src/web/features/trials/format';
import { timeZoneOptions, utcOffsetLabel } from '../../src/web/lib/time-zone-options';

describe('time zones as Combobox options', () => {
  it('writes offsets with a minus sign, hours and minutes', () => {
    expect(utcOffsetLabel(-300)).toBe('UTC−05:00');
    expect(utcOffsetLabel(330)).toBe('UTC+05:30');
    expect(utcOffsetLabel(0)).toBe('UTC+00:00');
  });

  it('lists the common zones first, every zone once, searchable by city and offset', () => {
    const options = timeZoneOptions();
    expect(options[0]?.value).toBe('America/New_York');
    expect(new Set(options.map((option) => option.value)).size).toBe(options.length);
    expect(options.length).toBeGreaterThan(300);
    const losAngeles = options.find((option) => option.value === 'America/Los_Angeles')!;
    expect(losAngeles.label).toBe('America/Los Angeles');
    expect(losAngeles.description).toMatch(/^UTC−0[78]:00$/);
    expect(losAngeles.keywords).toContain('Los Angeles');
    expect(losAngeles.keywords).toMatch(/UTC-0[78]:00/);
    expect(options.find((option) => option.value === 'Asia/Tokyo')!.description).toBe('UTC+09:00');
    expect(options.find((option) => option.value === 'America/Chicago')!.keywords).toContain('Central');
    expect(options.some((option) => option.value === 'UTC')).toBe(true);
  });

  it('keeps a stored zone the browser does not list, first', () => {
    expect(timeZoneOptions('Mars/Olympus_Mons')[0]).toMatchObject({ value: 'Mars/Olympus_Mons', label: 'Mars/Olympus Mons', description: undefined });
    expect(timeZoneOptions('America/Chicago')[0]?.value).toBe('America/New_York');
  });
});

describe('trials as Combobox options', () => {
  it('shows the public title, with the NCT id and status in words below; both titles and the id are searchable', () => {
    const option = trialOption({ id: 't1', title: 'A Randomized Phase 3 Trial', publicTitle: 'Asthma study', nctId: 'NCT01234567', status: 'recruiting' });
    expect(option).toEqual({ value: 't1', label: 'Asthma study', description: 'NCT01234567 · Recruiting', keywords: 'NCT01234567 A Randomized Phase 3 Trial' });
    expect(trialOption({ id: 't2', title: 'Draft trial', publicTitle: null, nctId: null, status: 'draft' })).toEqual({
      value: 't2',
      label: 'Draft trial',
      description: 'Draft',
      keywords: '',
    });
  });
});
