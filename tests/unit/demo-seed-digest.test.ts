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
    expect(digest(data)).toMatchInlineSnapshot(`"0110d4928ddaea14b52cf3922c4493ce3ed80d678ea0151d91f525f25b8742d5"`);
  });

  it('builds other rows from another seed', () => {
    const other = buildDemoData(ORGANIZATION_ID, { seed: 7, now: NOW, candidates: 200 });
    const same = buildDemoData(ORGANIZATION_ID, { seed: 20240601, now: NOW, candidates: 200 });
    expect(digest(other)).not.toBe(digest(same));
    expect(digest(buildDemoData(ORGANIZATION_ID, { seed: 20240601, now: NOW, candidates: 200 }))).toBe(digest(same));
  });
});
