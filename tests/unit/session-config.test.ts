import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';

const base = { NODE_ENV: 'test', BETTER_AUTH_SECRET: 'unit-test-secret' };

describe('session timeouts from the environment', () => {
  it('take decimals (a short idle timeout for the browser test of the idle warning)', () => {
    expect(loadConfig({ ...base, SESSION_IDLE_MINUTES: '1.25', SESSION_MAX_HOURS: '0.5' }).session).toMatchObject({ idleMinutes: 1.25, maxHours: 0.5 });
  });

  it('fall back to 30 minutes and 12 hours when unset, zero, negative or not a number', () => {
    for (const value of [undefined, '', '0', '-5', 'soon']) {
      expect(loadConfig({ ...base, SESSION_IDLE_MINUTES: value, SESSION_MAX_HOURS: value }).session).toMatchObject({ idleMinutes: 30, maxHours: 12 });
    }
  });
});
