import { count, eq, getTableColumns } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FHIR_BUNDLE_MAX_BYTES } from '../../src/contract/matching';
import { recordAudits } from '../../src/server/audit';
import { MAX_BIND_PARAMETERS, rowsPerInsert } from '../../src/server/db/batched-insert';
import { auditLog, candidateFact } from '../../src/server/db/schema';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';

/**
 * Bounded work per request (issue 35 item 4): input of any size within the body limits is stored, or refused
 * with a 400 or 413 that names the problem, never a 500. Multi-row INSERTs are cut under PostgreSQL's 65,535
 * bind parameters (db/batched-insert.ts); a CSV header of blank names is a 400.
 */

let t: TestApp;
let site: SignedUp;

beforeAll(async () => {
  t = await createTestApp();
  site = await t.signUp({ organizationName: 'Bounded Work Research' });
});
afterAll(() => t?.close());

describe('CSV headers', () => {
  it('a header of blank names is a 400 naming the problem, on the import, its preview and the streamed import', async () => {
    for (const data of [',\n', ',', ' , ,\nAna,Lopez,+12125550100\n']) {
      for (const path of ['/api/candidates/bulk', '/api/candidates/bulk/preview']) {
        const answer = await site.actor.post(path, { format: 'csv', data });
        expect(answer.status, `${path} ${JSON.stringify(data)}: ${JSON.stringify(answer.body)}`).toBe(400);
        expect(answer.body.error.message).toMatch(/blank column names/);
        expect(answer.body.error.details).toEqual([{ path: 'data', message: 'blank header names' }]);
      }
      const streamed = await site.actor.upload('/api/candidates/bulk/stream', data);
      expect(streamed.status, JSON.stringify(streamed.body)).toBe(400);
      expect(streamed.body.error.message).toMatch(/blank column names/);
    }
  });

  it('repeated and partly blank header names each keep their own column, none overwriting another', async () => {
    const data = 'First Name,Notes,Notes_2,Notes,,Phone\nAna,a,b,c,d,+12125550100\n';
    const answer = await site.actor.post('/api/candidates/bulk/preview', { format: 'csv', data });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.columns).toEqual(['First Name', 'Notes', 'Notes_2', 'Notes_3', 'column_5', 'Phone']);
    expect(answer.body.totalRows).toBe(1);
  });
});

/** A bundle of one patient and `conditions` active Conditions. */
function bundleWith(conditions: number) {
  const codes = ['195967001', '44054006', '38341003', '73211009', '13645005'];
  const entry: unknown[] = [
    { resource: { resourceType: 'Patient', id: 'p', name: [{ given: ['Ana'], family: 'Lopez' }], birthDate: '1970-03-01', gender: 'female' } },
  ];
  for (let index = 0; index < conditions; index++)
    entry.push({
      resource: {
        resourceType: 'Condition',
        id: `c${index}`,
        clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
        code: { coding: [{ system: 'http://snomed.info/sct', code: codes[index % 5], display: 'Asthma' }], text: 'Asthma' },
      },
    });
  return { resourceType: 'Bundle', type: 'collection', entry };
}

const factsOf = async (candidateId: string) =>
  Number((await t.deps.db.select({ n: count() }).from(candidateFact).where(eq(candidateFact.candidateId, candidateId)))[0].n);

describe('FHIR bundles of any size within the body limit', () => {
  it('a bundle of 3,900 Conditions (more parameters than one statement takes) is stored whole', async () => {
    const bundle = bundleWith(3_900);
    expect(JSON.stringify(bundle).length).toBeLessThan(FHIR_BUNDLE_MAX_BYTES);
    expect(3_900).toBeGreaterThan(rowsPerInsert(candidateFact));
    const answer = await site.actor.post('/api/candidates/fhir', bundle);
    expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(201);
    expect(answer.body.factCount).toBe(3_900);
    expect(await factsOf(answer.body.candidateId)).toBe(3_900);
  });

  it('a bundle of 20,000 entries within the body limit is stored whole', async () => {
    const bundle = bundleWith(20_000);
    bundle.entry[0] = { resource: { ...(bundle.entry[0] as { resource: object }).resource, name: [{ given: ['Bea'], family: 'Ruiz' }] } };
    expect(JSON.stringify(bundle).length).toBeLessThan(FHIR_BUNDLE_MAX_BYTES);
    const answer = await site.actor.post('/api/candidates/fhir', bundle);
    expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(201);
    expect(answer.body.factCount).toBe(20_000);
    expect(await factsOf(answer.body.candidateId)).toBe(20_000);
  });
});

describe('the batched insert', () => {
  it('cuts a write of more rows than one statement takes, all of them stored in the caller’s transaction', async () => {
    const rows = rowsPerInsert(auditLog) * 2 + 7;
    expect(rows * Object.keys(getTableColumns(auditLog)).length).toBeGreaterThan(2 * MAX_BIND_PARAMETERS);
    await t.deps.db.transaction((tx) =>
      recordAudits(
        tx,
        Array.from({ length: rows }, (_, index) => ({
          organizationId: site.organizationId,
          actorUserId: null,
          action: 'test.bounded_write',
          entityType: 'candidate',
          entityId: `row-${index}`,
        })),
      ),
    );
    const [{ n }] = await t.deps.db.select({ n: count() }).from(auditLog).where(eq(auditLog.action, 'test.bounded_write'));
    expect(Number(n)).toBe(rows);
  });
});
