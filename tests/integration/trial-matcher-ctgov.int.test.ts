import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whenMatchRunSettled } from '../../src/server/features/matching/matcher';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';

/**
 * A real registry record (NCT05887817: finerenone in type 2 diabetes with chronic kidney disease), read into
 * rules by the criteria reader, matched against a small pool whose answers a coordinator would give: each
 * person described only by a clinical note, read by the note extractor. Nothing here is tuned to the record:
 * the pool follows the record's own criteria. Skips where ../shared is absent.
 */

const SHARED = path.resolve(process.cwd(), '../shared/data/ctgov/studies.json');
const NCT = 'NCT05887817';
const year = new Date().getUTCFullYear();

const weeksAgo = (weeks: number) => new Date(Date.now() - weeks * 7 * 86_400_000).toISOString().slice(0, 10);

/**
 * The stroke criterion reads "a history of ischemic stroke, acute coronary syndrome, ... in the past 8 weeks":
 * the window covers the whole list, so a stroke three weeks ago (a dated fact, entered by hand) fails it (the rule is
 * flagged for review, so the person is flagged, not excluded, until staff accept it), and
 * a history of stroke with no date leaves the criterion unknown: possibly eligible, never excluded on a guess.
 */
const pool: Array<{
  name: string;
  dateOfBirth: string;
  note: string;
  fact?: Record<string, unknown>;
  /** flagged: the deciding rule is not yet reviewed, so it flags ("possible") instead of excluding (decision 131). */
  expected: 'excluded' | 'flagged' | 'not excluded';
  decidedBy?: RegExp;
}> = [
  {
    name: 'Kenji',
    dateOfBirth: `${year - 62}-03-01`,
    note: 'A 62-year-old man with type 2 diabetes and chronic kidney disease. eGFR 40. HbA1c 8.1%. No history of stroke.',
    expected: 'not excluded',
  },
  {
    name: 'Maria',
    dateOfBirth: `${year - 45}-03-01`,
    note: 'A 45-year-old woman with type 2 diabetes and chronic kidney disease. HbA1c 11.2%.',
    expected: 'excluded',
    decidedBy: /HbA1c greater than 10/,
  },
  { name: 'Tom', dateOfBirth: `${year - 17}-03-01`, note: 'A 17-year-old boy with type 2 diabetes.', expected: 'excluded', decidedBy: /20 years/ },
  {
    name: 'Ruth',
    dateOfBirth: `${year - 70}-03-01`,
    note: 'A 70-year-old woman with type 2 diabetes and chronic kidney disease.',
    fact: { kind: 'condition', name: 'Ischemic stroke', status: 'present', observedOn: weeksAgo(3) },
    // The reader flags the long list with its one window for review: until staff accept it, it flags and never excludes.
    expected: 'flagged',
    decidedBy: /ischemic stroke/,
  },
  {
    name: 'Hana',
    dateOfBirth: `${year - 66}-03-01`,
    note: 'A 66-year-old woman with type 2 diabetes and chronic kidney disease and a history of ischemic stroke.',
    expected: 'not excluded',
  },
  {
    name: 'Ana',
    dateOfBirth: `${year - 55}-03-01`,
    note: 'A 55-year-old woman with chronic kidney disease. She has no diabetes.',
    expected: 'excluded',
    decidedBy: /type 2 diabetes mellitus/,
  },
];

let t: TestApp;
let site: SignedUp;

beforeAll(async () => {
  t = await createTestApp();
  site = await t.signUp({ organizationName: 'Kidney Research Site' });
});
afterAll(() => t?.close());

describe.skipIf(!existsSync(SHARED))(`a registry record (${NCT}) against a pool with known answers`, () => {
  it('excludes exactly the people its criteria exclude, naming the deciding criterion', async () => {
    const study = (JSON.parse(readFileSync(SHARED, 'utf8')) as Array<{ protocolSection: { identificationModule: { nctId: string } } }>).find(
      (record) => record.protocolSection.identificationModule.nctId === NCT,
    );
    const trial = await site.actor.post('/api/trials/auto-gen', { study, save: true });
    expect(trial.status).toBe(201);
    const ids = new Map<string, string>();
    for (const person of pool) {
      const created = await site.actor.post('/api/candidates/', { firstName: person.name, lastName: 'Pool', dateOfBirth: person.dateOfBirth });
      ids.set(person.name, created.body.id);
      expect((await site.actor.post(`/api/candidates/${created.body.id}/clinical/notes`, { body: person.note })).status).toBe(201);
      if (person.fact) expect((await site.actor.post(`/api/candidates/${created.body.id}/clinical/facts`, person.fact)).status).toBe(201);
    }
    const run = await site.actor.post(`/api/trial-matcher/${trial.body.id}/runs`, {});
    await whenMatchRunSettled(run.body.id);

    for (const person of pool) {
      const match = await site.actor.get(`/api/trial-matcher/${trial.body.id}/candidates/${ids.get(person.name)}`);
      const notMet = (match.body.evidence as Array<{ outcome: string; text: string }>).filter((item) => item.outcome === 'not_met').map((item) => item.text);
      if (person.expected !== 'not excluded') {
        expect(match.body.matchClass, `${person.name}: ${notMet.join(' | ')}`).toBe(person.expected === 'excluded' ? 'excluded' : 'possible');
        if (person.expected === 'flagged') expect(match.body.summary).toMatch(/not yet reviewed says? not met/);
        expect(
          notMet.some((text) => person.decidedBy!.test(text)),
          `${person.name} excluded by: ${notMet.join(' | ')}`,
        ).toBe(true);
      } else {
        expect(match.body.matchClass, `${person.name} excluded by: ${notMet.join(' | ')}`).not.toBe('excluded');
      }
    }
  });
});
