import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudyBlock } from '../../src/contract/prescreen-forms';
import { prescreenForm, prescreenFormVersion } from '../../src/server/db/schema';
import { rowsOf } from '../../src/server/db/scoped';
import { whenRunSettled } from '../../src/server/features/candidates/import-runner';
import { resetDemoOrganization, seedDemoOrganization } from '../../src/server/features/demo/seed';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';
import { seededRandom } from '../support/seeded-random';

/**
 * A candidate's facts kept packed on write (decisions 087, 112): after every kind of write, through every path
 * that writes or deletes clinical facts, each candidate's stored digest, unpacked with its signatures' words,
 * equals their facts (spelled out here, not through the migration's functions) and a candidate without facts has
 * none. The match
 * run reads these digests; `trial-matcher-slices.int.test.ts` proves the run's results against the evidence
 * screen's and with digests missing.
 */

let t: TestApp;
let site: SignedUp;
let other: SignedUp;

type DigestFact = { signature: string; value: number | null; day: number | null };

/** Each candidate's facts as the run must read them, spelled out from the facts, in the evidence screen's order. */
async function expectedDigests(): Promise<Array<{ candidate_id: string; facts: DigestFact[] }>> {
  return rowsOf<{ candidate_id: string; facts: DigestFact[] | string }>(
    await t.deps.db.execute(sql`
      select f.candidate_id::text as candidate_id,
        json_agg(json_build_object(
          'signature', concat(f.kind, chr(31), f.status, chr(31), f.concept_id, chr(31), f.name, chr(31), f.unit, chr(31), '=' || f.value_text),
          'value', f.value,
          'day', case when isfinite(f.observed_on) then f.observed_on - date '1970-01-01' end)
          order by f.kind, f.name, f.observed_on desc, f.id) as facts
      from candidate_fact f
      group by f.candidate_id
      order by 1`),
  ).map((row) => ({ candidate_id: row.candidate_id, facts: typeof row.facts === 'string' ? JSON.parse(row.facts) : row.facts }));
}

/** The stored digests unpacked here (17 bytes a fact: signature id, value, day, has a value) with their signatures' words. */
async function storedDigests(): Promise<Array<{ candidate_id: string; facts: DigestFact[] }>> {
  const words = new Map(
    rowsOf<{ id: number; signature: string }>(await t.deps.db.execute(sql`select id, signature from candidate_fact_signature`)).map((row) => [
      Number(row.id),
      row.signature,
    ]),
  );
  const rows = rowsOf<{ candidate_id: string; facts: Uint8Array }>(
    await t.deps.db.execute(sql`select candidate_id::text as candidate_id, facts from candidate_fact_digest order by 1`),
  );
  return rows.map((row) => {
    const bytes = row.facts;
    expect(bytes.byteLength % 17).toBe(0);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const facts: DigestFact[] = [];
    for (let at = 0; at < bytes.byteLength; at += 17) {
      const day = view.getInt32(at + 12);
      facts.push({
        signature: words.get(view.getInt32(at)) ?? `missing signature ${view.getInt32(at)}`,
        value: bytes[at + 16] ? view.getFloat64(at + 4) : null,
        day: day === -2147483648 ? null : day,
      });
    }
    return { candidate_id: row.candidate_id, facts };
  });
}

async function expectDigestsTrue(after: string) {
  const expected = await expectedDigests();
  expect(await storedDigests(), after).toEqual(expected);
  return expected.length;
}

const random = seededRandom(87);
const KINDS = ['condition', 'medication', 'lab', 'age', 'sex', 'pregnancy', 'smoking', 'performance_status'] as const;
// Names and texts that a format could trip on: quotes, commas, braces, backslashes, non-ASCII, empty value texts.
const NAMES = ['asthma', 'Type 2 Diabetes Mellitus', 'Asthme sévère', 'metformin 500 mg, twice "daily"', 'HbA1c', 'a\\b {c}', 'ECOG', 'hypertension'];
const VALUES = [null, null, 0, -3.5, 7.25, 0.1 + 0.2, 1e-7, 123456789.125];
const TEXTS = [null, null, '', 'ECOG', 'female', 'left, "upper"'];
const DAYS = [null, '1969-12-31', '1970-01-01', '2001-02-03', '2026-06-01', '2026-06-01'];

/** A random fact as the manual API takes it (the API's own checks: a status where needed, a value where needed). */
function randomFact() {
  const kind = random.pick(KINDS);
  const needsStatus = kind === 'condition' || kind === 'medication' || kind === 'pregnancy' || kind === 'smoking';
  const needsValue = kind === 'lab' || kind === 'age' || kind === 'performance_status';
  return {
    kind,
    name: random.pick(NAMES),
    status: needsStatus || random.next() < 0.3 ? random.pick(['present', 'history', 'absent'] as const) : null,
    value: needsValue ? (random.pick(VALUES) ?? 42) : random.pick(VALUES),
    unit: random.pick([null, '%', 'mg/dL']),
    valueText: random.pick(TEXTS),
    observedOn: random.pick(DAYS),
  };
}

async function newCandidate(actor: SignedUp, firstName: string): Promise<string> {
  const answer = await actor.actor.post('/api/candidates/', { firstName, lastName: 'Digest' });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.id as string;
}

beforeAll(async () => {
  t = await createTestApp();
  site = await t.signUp({ organizationName: 'Digest Site' });
  other = await t.signUp({ organizationName: 'Other Digest Site' });
}, 60_000);
afterAll(() => t?.close());

describe("a candidate's facts kept packed", () => {
  it('equals the aggregation of their facts after every write: staff, notes, raw SQL inserts, updates and deletes, candidate deletion', async () => {
    const people: string[] = [];
    for (let i = 0; i < 6; i++) people.push(await newCandidate(i % 3 === 2 ? other : site, `Person${i}`));
    const actorOf = (index: number) => (index % 3 === 2 ? other : site);
    const alive = new Set(people.map((_, index) => index));
    const notes: Array<{ person: number; id: string }> = [];
    let checks = 0;
    for (let step = 0; step < 60; step++) {
      const index = random.pick([...alive]);
      const candidateId = people[index];
      const actor = actorOf(index);
      const roll = random.next();
      let what: string;
      if (roll < 0.35) {
        what = 'a fact added by staff';
        const answer = await actor.actor.post(`/api/candidates/${candidateId}/clinical/facts`, randomFact());
        expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      } else if (roll < 0.5) {
        what = 'a fact deleted by staff';
        const record = await actor.actor.get(`/api/candidates/${candidateId}/clinical`);
        const fact = record.body.facts.length ? random.pick(record.body.facts as Array<{ id: string }>) : null;
        if (fact) expect((await actor.actor.delete(`/api/candidates/${candidateId}/clinical/facts/${fact.id}`)).status).toBe(204);
      } else if (roll < 0.62) {
        what = 'a note read into facts';
        const answer = await actor.actor.post(`/api/candidates/${candidateId}/clinical/notes`, {
          body: random.pick([
            'A 58-year-old woman with asthma on budesonide. Denies smoking. No history of diabetes.',
            'Former smoker. Hypertension, on lisinopril. Family history of breast cancer.',
            'Ruled out pneumonia.',
          ]),
        });
        expect(answer.status, JSON.stringify(answer.body)).toBe(201);
        notes.push({ person: index, id: answer.body.note.id });
      } else if (roll < 0.68) {
        what = 'a note deleted';
        const note = notes.find((item) => alive.has(item.person));
        if (note) {
          notes.splice(notes.indexOf(note), 1);
          expect((await actorOf(note.person).actor.delete(`/api/candidates/${people[note.person]}/clinical/notes/${note.id}`)).status).toBe(204);
        }
      } else if (roll < 0.8) {
        what = 'facts for several people in one SQL statement';
        const rows = [...alive].slice(0, 3).flatMap((person) => [randomFact(), randomFact()].map((fact) => ({ person, fact })));
        await t.deps.db.execute(sql`
          insert into candidate_fact (organization_id, candidate_id, kind, name, status, value, unit, value_text, observed_on, source)
          select c.organization_id, c.id, r.kind, r.name, r.status, r.value, r.unit, r.value_text, r.observed_on, 'import'
          from jsonb_to_recordset(${JSON.stringify(rows.map(({ person, fact }) => ({ id: people[person], ...fact, value_text: fact.valueText, observed_on: fact.observedOn })))}::jsonb)
            as r(id uuid, kind text, name text, status text, value double precision, unit text, value_text text, observed_on date)
          join candidate c on c.id = r.id`);
      } else if (roll < 0.86) {
        what = 'a fact moved to another person of the organization and its value changed (one update)';
        const [fact] = rowsOf<{ id: string; organization_id: string }>(
          await t.deps.db.execute(sql`select id, organization_id from candidate_fact where candidate_id = ${candidateId} order by id limit 1`),
        );
        const target = people.find((id, person) => alive.has(person) && id !== candidateId && actorOf(person) === actor);
        if (fact && target)
          await t.deps.db.execute(
            sql`update candidate_fact set candidate_id = ${target}, value = coalesce(value, 0) + 1, observed_on = 'infinity' where id = ${fact.id}`,
          );
      } else if (roll < 0.92) {
        what = 'every lab of the site deleted in one statement';
        await t.deps.db.execute(sql`delete from candidate_fact where organization_id = ${site.organizationId} and kind = 'lab'`);
      } else {
        what = 'a person deleted';
        if (alive.size > 3) {
          expect((await actor.actor.delete(`/api/candidates/${candidateId}`)).status).toBe(204);
          alive.delete(index);
        }
      }
      await expectDigestsTrue(`step ${step}: ${what}`);
      checks++;
    }
    expect(checks).toBe(60);
    // The steps left people with facts and people without: both sides of the rule were exercised.
    const withFacts = (await storedDigests()).length;
    expect(withFacts).toBeGreaterThan(0);
    expect(withFacts).toBeLessThanOrEqual(alive.size);
  });

  // A whole Synthea record from the shared data, when this checkout sits beside it (npm test also runs without it).
  const synthea = path.resolve(process.cwd(), '../shared/data/fhir/Bibi254_Schowalter414_475d72ca-91c7-7211-97e3-f000af33fc04.json');
  it.skipIf(!existsSync(synthea))('follows a large Synthea bundle imported', async () => {
    const large = await site.actor.post('/api/candidates/fhir', JSON.parse(readFileSync(synthea, 'utf8')));
    expect(large.status, JSON.stringify(large.body).slice(0, 300)).toBe(201);
    await expectDigestsTrue('a Synthea bundle');
  });

  it('follows FHIR bundles imported, and one imported again (its facts replaced)', async () => {
    const bundle = JSON.parse(readFileSync(path.join(import.meta.dirname, '../fixtures/fhir/small-bundle.json'), 'utf8'));
    const first = await site.actor.post('/api/candidates/fhir', bundle);
    expect(first.status, JSON.stringify(first.body).slice(0, 300)).toBe(201);
    expect(first.body.factCount).toBeGreaterThan(3);
    await expectDigestsTrue('a FHIR import');
    const again = await site.actor.post('/api/candidates/fhir', bundle);
    expect(again.body.outcome).toBe('merged');
    await expectDigestsTrue('the same bundle again');
    const stored = await storedDigests();
    expect(stored.find((row) => row.candidate_id === first.body.candidateId)?.facts).toHaveLength(first.body.factCount);
  });

  it('follows a file import with clinical columns, new people and a merge into an existing one', async () => {
    const csv = [
      'First Name,Last Name,Phone,Diagnoses,Medications,HbA1c,Lab date',
      'Ann,Able,+12025550191,Type 2 diabetes; Zorblax syndrome,metformin,7.9,2026-03-02',
      'Ben,Baker,+12025550192,E11.9,,53 mmol/mol,03/04/2026',
      'Cal,Cole,+12025550193,Asthma,,,',
    ].join('\n');
    const started = await site.actor.post('/api/candidates/bulk', { format: 'csv', data: csv });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    await whenRunSettled(started.body.run.id);
    await expectDigestsTrue('a file import');
    const merged = await site.actor.post('/api/candidates/bulk', { format: 'csv', data: 'First Name,Phone,Medications\nCal,+12025550193,Insulin glargine\n' });
    await whenRunSettled(merged.body.run.id);
    await expectDigestsTrue('a row merged into an existing person');
  });

  it('follows prescreen answers, answered again', async () => {
    const trial = await site.actor.post('/api/trials/', {
      title: 'Digest asthma study',
      criteria: [
        { kind: 'inclusion', text: 'Aged 18 or older', rule: { type: 'age', minYears: 18, maxYears: null } },
        {
          kind: 'inclusion',
          text: 'Diagnosed with asthma',
          rule: { type: 'condition', condition: 'asthma', present: true, concepts: [{ id: 'mesh:D001249', name: 'asthma' }] },
        },
        { kind: 'exclusion', text: 'Current smoker', rule: { type: 'smoking', smoker: false } },
      ],
    });
    expect(trial.status, JSON.stringify(trial.body)).toBe(201);
    const [age, asthma, smoker] = trial.body.criteria.map((criterion: { id: string }) => criterion.id);
    const blocks: StudyBlock[] = [
      {
        id: 'about',
        title: { en: 'About you' },
        questions: [
          {
            id: 'dob',
            type: 'date',
            wording: { phone: { en: 'Date of birth?' }, chat: { en: 'Date of birth?' } },
            required: true,
            criterionLinks: [{ criterionId: age, when: { op: 'age_lt', value: 18 }, then: 'not_met', otherwise: 'met' }],
          },
          {
            id: 'asthma',
            type: 'yes_no',
            wording: { phone: { en: 'Asthma?' }, chat: { en: 'Asthma?' } },
            required: true,
            criterionLinks: [{ criterionId: asthma, when: { op: 'is_yes' }, then: 'met', otherwise: 'not_met' }],
          },
          {
            id: 'smoke',
            type: 'yes_no',
            wording: { phone: { en: 'Do you smoke?' }, chat: { en: 'Do you smoke?' } },
            required: true,
            criterionLinks: [{ criterionId: smoker, when: { op: 'is_yes' }, then: 'met', otherwise: 'not_met' }],
          },
        ],
      },
    ];
    const [form] = await t.deps.db
      .insert(prescreenForm)
      .values({ organizationId: site.organizationId, trialId: trial.body.id, name: 'Digest prescreen', status: 'published', currentVersion: 1 })
      .returning();
    await t.deps.db.insert(prescreenFormVersion).values({ organizationId: site.organizationId, formId: form.id, version: 1, blocks });
    const person = await site.actor.post('/api/candidates/', { firstName: 'Pre', lastName: 'Screen', phone: '+12125550177', trialIds: [trial.body.id] });
    expect(person.status, JSON.stringify(person.body)).toBe(201);
    const answer = async (smokes: boolean) => {
      const result = await site.actor.post('/api/prescreen/results', {
        candidateId: person.body.id,
        formId: form.id,
        answers: [
          { questionId: 'dob', value: '1980-04-02' },
          { questionId: 'asthma', value: 'yes' },
          { questionId: 'smoke', value: smokes },
        ],
      });
      expect(result.status, JSON.stringify(result.body)).toBe(201);
    };
    await answer(false);
    const before = (await storedDigests()).find((row) => row.candidate_id === person.body.id);
    expect(before?.facts.some((fact) => fact.signature.startsWith('smoking'))).toBe(true);
    await expectDigestsTrue('prescreen answers');
    await answer(true);
    await expectDigestsTrue('prescreen answered again');
  });

  it("follows the demo organization's seed and its reset", async () => {
    await seedDemoOrganization(t.deps.db, { candidates: 40, seed: 7 });
    const count = await expectDigestsTrue('the demo seed');
    expect(count).toBeGreaterThan(0);
    await resetDemoOrganization(t.deps.db, { candidates: 25, seed: 8 });
    await expectDigestsTrue('the demo reset');
  });

  it('stays whole when two transactions add facts to one person at once', async () => {
    // On PostgreSQL the two overlap (the second waits on the first's lock in the trigger); PGlite runs them one after the other.
    const candidateId = await newCandidate(site, 'Concurrent');
    const add = (name: string) => sql`
      insert into candidate_fact (organization_id, candidate_id, kind, name, status, source)
      values (${site.organizationId}, ${candidateId}, 'condition', ${name}, 'present', 'manual')`;
    const first = t.deps.db.transaction(async (tx) => {
      await tx.execute(add('asthma'));
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = t.deps.db.transaction(async (tx) => {
      await tx.execute(add('hypertension'));
    });
    await Promise.all([first, second]);
    await expectDigestsTrue('two concurrent writers');
    const digest = (await storedDigests()).find((row) => row.candidate_id === candidateId);
    expect(digest?.facts).toHaveLength(2);
  });
});
