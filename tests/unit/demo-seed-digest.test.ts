import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildDemoData } from '../../src/server/features/demo/seed';

/**
 * The demo data is deterministic: the same seed and "today" give the same rows. This pins them: the count of every
 * kind of row and a digest of all of them (keys sorted, dates as ISO text). A refactor of the builder must leave
 * both unchanged; a change to what the demo holds updates them on purpose, with the reason in its commit.
 * (The prescreen engine, the form generator and the referral notes feed the rows too: a change there moves the digest.)
 */

const ORGANIZATION_ID = '00000000-0000-4000-8000-00000000d3e0';
const NOW = new Date('2026-06-15T12:00:00.000Z');

function canonical(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  return value;
}

const digest = (value: unknown) =>
  createHash('sha256')
    .update(JSON.stringify(canonical(value)))
    .digest('hex');

describe('the demo data builder', () => {
  const data = buildDemoData(ORGANIZATION_ID, { seed: 20240601, now: NOW, candidates: 3000 });

  it('builds the same rows from the same seed and day (counts and a digest of every row)', () => {
    const counts = Object.fromEntries(Object.entries(data).map(([table, rows]) => [table, rows.length]));
    expect(counts).toMatchInlineSnapshot(`
      {
        "activity": 26875,
        "bookings": 398,
        "calls": 2397,
        "candidates": 3000,
        "chatAgents": 4,
        "chatMessages": 1199,
        "contactEvents": 16600,
        "conversations": 414,
        "criteria": 19,
        "formVersions": 4,
        "forms": 4,
        "links": 3000,
        "notes": 2725,
        "results": 953,
        "sms": 2328,
        "trials": 4,
        "voiceAgents": 4,
      }
    `);
    expect(digest(data)).toMatchInlineSnapshot(`"5f208f071ed94b0c6c3f25c90ec22d7c607902b56f1ef333151aea4fd8d1d627"`);
  });

  it("ends every seeded chat with the live chat's one closing message for its outcome (decision 200)", () => {
    const recommendationOf = new Map(data.results.map((result) => [result.id, result.aiRecommendation]));
    const seen = new Set<string>();
    for (const conversation of data.conversations.filter((row) => row.prescreenResultId)) {
      const messages = data.chatMessages.filter((row) => row.conversationId === conversation.id);
      const last = messages.at(-1)!;
      const recommendation = recommendationOf.get(conversation.prescreenResultId!)!;
      const es = conversation.language === 'es';
      // One closing message after the person's last answer, never two.
      expect(messages.at(-2)?.role).toBe('visitor');
      expect(last.role).toBe('agent');
      if (recommendation === 'FAIL') {
        expect(last.text).toContain(es ? 'no sea adecuado para usted' : 'may not be the right fit');
        // No promise of a coordinator's contact beside "not the right fit".
        expect(last.text).not.toMatch(es ? /Un coordinador/ : /A coordinator will/);
      } else if (recommendation === 'INCONCLUSIVE') expect(last.text).toContain(es ? 'si el estudio podría ser adecuado' : 'if the study could be a fit');
      else expect(last.text).toContain(es ? 'le llamará pronto' : 'will call you back soon');
      seen.add(`${recommendation}:${conversation.language}`);
    }
    expect([...seen].sort()).toEqual(expect.arrayContaining(['FAIL:en', 'FAIL:es', 'PASS:en', 'PASS:es']));
  });

  it('builds other rows from another seed', () => {
    const other = buildDemoData(ORGANIZATION_ID, { seed: 7, now: NOW, candidates: 200 });
    const same = buildDemoData(ORGANIZATION_ID, { seed: 20240601, now: NOW, candidates: 200 });
    expect(digest(other)).not.toBe(digest(same));
    expect(digest(buildDemoData(ORGANIZATION_ID, { seed: 20240601, now: NOW, candidates: 200 }))).toBe(digest(same));
  });
});
