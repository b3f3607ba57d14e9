/**
 * Demo data: `npm run seed`. A deterministic demo organization ("Demo Research Site": its name contains "demo",
 * so global admins' default lists leave it out) with a handful of trials in the shape of ClinicalTrials.gov
 * records and ~3,000 synthetic candidates across every funnel status, with their contact history.
 * Idempotent: when the demo organization exists, nothing is done. Uses DATABASE_URL or DATA_DIR like main.ts.
 */
import { eq } from 'drizzle-orm';
import { CANDIDATE_STATUSES, type CandidateStatus } from '../src/contract/candidates';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';
import { candidate, candidateTrial, contactEvent, organization, trial, trialCriterion } from '../src/server/db/schema';
import { insertOrganization } from '../src/server/tenancy/organizations';
import { AREA_CODES, DEMO_TRIALS, FIRST_NAMES, LAST_NAMES, PRESCREEN_NOTES, SOURCES } from './seed-data';

export const DEMO_ORGANIZATION_NAME = 'Demo Research Site';
export const DEMO_ORGANIZATION_SLUG = 'demo-research-site';
const CANDIDATES = Number(process.env.SEED_CANDIDATES ?? 3000);

function mulberry32(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The path through the funnel that ends in each status (each step is a status_change event). */
const PATHS: Record<CandidateStatus, CandidateStatus[]> = {
  new: [],
  contacted: ['contacted'],
  prescreening: ['contacted', 'prescreening'],
  prescreen_passed: ['contacted', 'prescreening', 'prescreen_passed'],
  prescreen_failed: ['contacted', 'prescreening', 'prescreen_failed'],
  visit_scheduled: ['contacted', 'prescreening', 'prescreen_passed', 'visit_scheduled'],
  enrolled: ['contacted', 'prescreening', 'prescreen_passed', 'visit_scheduled', 'enrolled'],
  not_interested: ['contacted', 'not_interested'],
  unreachable: ['unreachable'],
  do_not_contact: ['contacted', 'do_not_contact'],
};
/** Rough funnel shape: many new and contacted, fewer at each later step. */
const WEIGHTS: Record<CandidateStatus, number> = {
  new: 25, contacted: 18, prescreening: 10, prescreen_passed: 8, prescreen_failed: 9, visit_scheduled: 6, enrolled: 5, not_interested: 8, unreachable: 8, do_not_contact: 3,
};

export async function seed(): Promise<{ created: boolean; organizationId: string }> {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await database.migrate();
    const db = database.db;
    const [existing] = await db.select().from(organization).where(eq(organization.slug, DEMO_ORGANIZATION_SLUG));
    if (existing) return { created: false, organizationId: existing.id };

    return await db.transaction(async (tx) => {
      const org = await insertOrganization(tx, { name: DEMO_ORGANIZATION_NAME, slug: DEMO_ORGANIZATION_SLUG });
      const random = mulberry32(20240601);
      const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
      const base = Date.UTC(2025, 0, 6, 15, 0, 0);
      const day = 86_400_000;

      const trialIds: string[] = [];
      for (const [index, definition] of DEMO_TRIALS.entries()) {
        const { criteria, ...fields } = definition;
        const createdAt = new Date(base - (60 - index) * day);
        const [row] = await tx
          .insert(trial)
          .values({
            ...fields,
            organizationId: org.id,
            statusHistory: [
              { from: null, to: 'draft', at: createdAt.toISOString(), byUserId: null },
              ...(fields.status !== 'draft' ? [{ from: 'draft' as const, to: 'recruiting' as const, at: new Date(createdAt.getTime() + day).toISOString(), byUserId: null }] : []),
              ...(fields.status === 'paused' ? [{ from: 'recruiting' as const, to: 'paused' as const, at: new Date(createdAt.getTime() + 20 * day).toISOString(), byUserId: null }] : []),
            ],
            createdAt,
            updatedAt: createdAt,
          })
          .returning();
        trialIds.push(row.id);
        await tx.insert(trialCriterion).values(
          criteria.map((criterion, position) => ({
            organizationId: org.id,
            trialId: row.id,
            position,
            kind: criterion.kind,
            text: criterion.text,
            rule: criterion.rule ?? null,
            ruleSource: criterion.rule ? ('structured' as const) : null,
            needsReview: !criterion.rule,
          })),
        );
      }

      const weighted = CANDIDATE_STATUSES.flatMap((status) => Array.from({ length: WEIGHTS[status] }, () => status));
      const candidates: Array<typeof candidate.$inferInsert> = [];
      const links: Array<typeof candidateTrial.$inferInsert> = [];
      const events: Array<typeof contactEvent.$inferInsert> = [];
      for (let i = 0; i < CANDIDATES; i++) {
        const id = uuidFrom(random);
        // Every status at least once, then the funnel's weights.
        const status = i < CANDIDATE_STATUSES.length ? CANDIDATE_STATUSES[i] : pick(weighted);
        const firstName = pick(FIRST_NAMES);
        const lastName = pick(LAST_NAMES);
        const createdAt = new Date(base + Math.floor(random() * 150 * day));
        const path = PATHS[status];
        const dnc = status === 'do_not_contact';
        const notes = ['prescreening', 'prescreen_passed', 'prescreen_failed', 'visit_scheduled', 'enrolled'].includes(status)
          ? [{ text: pick(PRESCREEN_NOTES), authorUserId: null, authorName: 'Demo Coordinator', createdAt: new Date(createdAt.getTime() + 2 * day).toISOString() }]
          : [];
        const lastAt = new Date(createdAt.getTime() + path.length * 2 * day);
        candidates.push({
          id,
          organizationId: org.id,
          firstName,
          lastName,
          phone: `+1${AREA_CODES[Math.floor(i / 100) % AREA_CODES.length]}5550${String(100 + (i % 100)).slice(-3)}`,
          email: i % 5 === 4 ? null : `${firstName}.${lastName}.${i}@demo.example`.toLowerCase(),
          dateOfBirth: `${1945 + Math.floor(random() * 60)}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`,
          sex: random() < 0.52 ? 'female' : 'male',
          city: 'Springfield',
          region: 'IL',
          postalCode: String(62701 + Math.floor(random() * 90)),
          country: 'US',
          timeZone: 'America/Chicago',
          preferredLanguage: random() < 0.85 ? 'en' : 'es',
          source: pick(SOURCES),
          consentSms: !dnc && random() < 0.7,
          consentCalls: !dnc && random() < 0.8,
          doNotContact: dnc,
          doNotContactAt: dnc ? lastAt : null,
          doNotContactReason: dnc ? 'Requested by candidate' : null,
          status,
          prescreenNotes: notes,
          createdAt,
          updatedAt: lastAt,
        });
        links.push({ candidateId: id, trialId: trialIds[i % trialIds.length], organizationId: org.id, linkedAt: createdAt });
        events.push({ organizationId: org.id, candidateId: id, kind: 'created', summary: 'Added (demo data)', details: { source: 'seed' }, actorLabel: 'System', occurredAt: createdAt });
        let from: CandidateStatus = 'new';
        path.forEach((to, step) => {
          const at = new Date(createdAt.getTime() + (step + 1) * 2 * day);
          events.push({ organizationId: org.id, candidateId: id, kind: 'status_change', summary: `Status: ${from} -> ${to}`, details: { from, to }, actorLabel: 'Demo Coordinator', occurredAt: at });
          if (to === 'do_not_contact') {
            events.push({ organizationId: org.id, candidateId: id, kind: 'consent', summary: 'Consent: do not contact on', details: { doNotContact: { from: false, to: true }, reason: 'Requested by candidate' }, actorLabel: 'Demo Coordinator', occurredAt: new Date(at.getTime() + 1000) });
          }
          from = to;
        });
        if (notes.length) events.push({ organizationId: org.id, candidateId: id, kind: 'note', summary: 'Prescreen note added', details: { noteIndex: 0 }, actorLabel: 'Demo Coordinator', occurredAt: new Date(notes[0].createdAt) });
      }
      for (let i = 0; i < candidates.length; i += 500) await tx.insert(candidate).values(candidates.slice(i, i + 500));
      for (let i = 0; i < links.length; i += 1000) await tx.insert(candidateTrial).values(links.slice(i, i + 1000));
      for (let i = 0; i < events.length; i += 1000) await tx.insert(contactEvent).values(events.slice(i, i + 1000));
      return { created: true, organizationId: org.id };
    });
  } finally {
    await database.close();
  }
}

/** A v4-shaped UUID from the seeded generator, so reruns on empty databases give the same ids. */
function uuidFrom(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = '4';
  hex[16] = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now();
  const result = await seed();
  process.stdout.write(
    result.created
      ? `Seeded "${DEMO_ORGANIZATION_NAME}" (${result.organizationId}): ${DEMO_TRIALS.length} trials, ${CANDIDATES} candidates in ${Date.now() - started} ms\n`
      : `"${DEMO_ORGANIZATION_NAME}" already exists (${result.organizationId}); nothing to do\n`,
  );
}
