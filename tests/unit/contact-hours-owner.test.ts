import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withinCallingHours, withinContactHours } from '../../src/server/calling-hours';
import { contactPermission, type ConsentSubject } from '../../src/server/features/sms/consent';

// One owner for "when may we reach a person" (issue 34): src/server/calling-hours.ts. Calls, marketing SMS,
// sequence steps and callbacks ask it; none keeps its own window or its own time-zone fallback.

const ROOT = join(__dirname, '..', '..');
const OWNER = 'src/server/calling-hours.ts';
const read = (file: string) =>
  readFileSync(join(ROOT, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
const serverFiles = () =>
  readdirSync(join(ROOT, 'src/server'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split('\\').join('/'));

/** Each path that reaches a person and the rule it must take from the owner. */
const USERS: Record<string, RegExp> = {
  'src/server/features/calls/service.ts': /\bwithinCallingHours(For)?\(/,
  'src/server/features/calls/callback-calls.ts': /\bnextCallingTime(For)?\(/,
  'src/server/features/sms/consent.ts': /\bwithinContactHours\(/,
  'src/server/features/sequences/engine.ts': /\bwithinContactHours\(/,
  'src/server/features/sequences/schedule.ts': /\bnextCallingTime\(/,
  'src/server/features/callbacks/service.ts': /\bnextCallingTime(For)?\(/,
};

describe('the contact-hours rule has one owner', () => {
  it.each(Object.entries(USERS))('%s takes its window from calling-hours.ts', (file, use) => {
    const code = read(file);
    expect(code).toMatch(/from '(\.\.\/)+calling-hours'/);
    expect(code).toMatch(use);
  });

  it('no other server file keeps an hour window or reads a local hour by itself', () => {
    const own = serverFiles().filter(
      (file) => file !== OWNER && (/\b(MARKETING_HOURS|QUIET_HOURS|localHour)\b/.test(read(file)) || /hour:\s*'numeric'[^)]*hourCycle/.test(read(file))),
    );
    expect(own).toEqual([]);
  });

  it('marketing SMS and calls are refused exactly where the calling window closes, in the same zone fallback', () => {
    const subject: ConsentSubject = { doNotContact: false, consentSms: true, consentCalls: true, timeZone: 'Not/AZone', smsOptedOutAt: null };
    // 07:59, 08:00, 20:59, 21:00 in America/New_York (the default for an unknown zone), January.
    for (const iso of ['2026-01-15T12:59:00Z', '2026-01-15T13:00:00Z', '2026-01-16T01:59:00Z', '2026-01-16T02:00:00Z']) {
      const now = new Date(iso);
      const open = withinCallingHours(now, subject.timeZone);
      expect(withinContactHours(now, subject.timeZone)).toBe(open);
      for (const channel of ['sms', 'call'] as const) {
        expect(contactPermission(subject, channel, 'marketing', now)).toEqual(open ? { allowed: true } : { allowed: false, reason: 'quiet_hours' });
      }
    }
  });
});
