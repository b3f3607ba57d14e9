import { describe, expect, it } from 'vitest';
import { bucketStep, CHAT_LIMITS } from '../../src/server/features/chat/throttle';

/** The chat's message limit: a burst, then a steady rate no person answering questions reaches. */

function run(gapsMs: number[]) {
  const limit = CHAT_LIMITS.messagesPerConversation;
  let stored: number | null = null;
  let now = 0;
  const refused: number[] = [];
  gapsMs.forEach((gap, index) => {
    now += gap;
    const step = bucketStep(limit, stored, now);
    stored = step.storedMs;
    if (!step.allowed) refused.push(index);
  });
  return refused;
}

describe('the chat message bucket', () => {
  it('lets a person tap through a 36-question yes/no form (plus name and consent) as fast as they can (0.4 s a tap)', () => {
    expect(run(Array.from({ length: 40 }, () => 400))).toEqual([]);
  });

  it('lets a burst of 30 through at once, refuses the 31st, and says how long to wait', () => {
    const limit = CHAT_LIMITS.messagesPerConversation;
    let stored: number | null = null;
    for (let i = 0; i < 30; i++) {
      const step = bucketStep(limit, stored, 1_000);
      expect(step.allowed).toBe(true);
      stored = step.storedMs;
    }
    const refused = bucketStep(limit, stored, 1_000);
    expect(refused).toMatchObject({ allowed: false, retryAfterMs: 1_000 });
    expect(bucketStep(limit, refused.storedMs, 2_000).allowed).toBe(true);
  });

  it('refuses a script that keeps sending 5 a second', () => {
    const refused = run(Array.from({ length: 200 }, () => 200));
    expect(refused.length).toBeGreaterThan(100);
    expect(refused[0]).toBeGreaterThanOrEqual(30);
  });

  it('refills while the person reads: after a pause the full burst is back', () => {
    expect(run([...Array.from({ length: 30 }, () => 0), 30_000, ...Array.from({ length: 29 }, () => 0)])).toEqual([]);
  });
});
