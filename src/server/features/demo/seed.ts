/**
 * The demo organization's data (decision 033): "Demo Research Site" (its name contains "demo", so global admins'
 * default lists leave it out) with four trials in the shape of ClinicalTrials.gov records, each with 5-6 sites in
 * US cities, and ~3,000 synthetic candidates at those sites taken through the funnel with the rows each step
 * leaves: prescreen forms and results (reviewed, some overridden), calls, SMS, chats, bookings, and the matching
 * activity events, so the dashboards and the sponsor demo have numbers.
 *
 * Deterministic from a seed; dates are relative to `now` (the last ~8 months, busier towards today) so the
 * default 30-day dashboard shows activity whatever the day. Everything is built in memory, then inserted in
 * batches inside one `runAsOrganization` transaction (row security on, the demo organization only).
 */
import { and, asc, count, eq, inArray, ne } from 'drizzle-orm';
import type { DemoCounts } from '../../../contract/demo';
import { VOICE_PURPOSES } from '../../../contract/phone-numbers';
import { recordActivity } from '../../activity';
import { recordAudit, rowChange } from '../../audit';
import type { Database } from '../../db/client';
import {
  activityDaily,
  activityEvent,
  activityKindDaily,
  activityMonthly,
  activityTotal,
  booking,
  call,
  callback,
  callEvent,
  candidate,
  candidateFact,
  candidateNote,
  candidateTrial,
  chatAgent,
  chatConversation,
  chatMessage,
  contactEvent,
  enrollmentMonthly,
  prescreenForm,
  prescreenFormVersion,
  prescreenResult,
  prescreenResultMonthly,
  processingRun,
  phoneNumber,
  processingRunItem,
  sequence,
  sequenceEnrollment,
  sequenceStepRun,
  sequenceVersion,
  smsMessage,
  timeToResultMonthly,
  timeToResultTotal,
  trial,
  trialCriterion,
  trialMatch,
  voiceAgent,
} from '../../db/schema';
import { runAsOrganization, type Transaction } from '../../db/scoped';
import { systemDb } from '../../db/system';
import { seededRandom } from '../../seeded-random';
import { findOrganizationBySlug, insertOrganization } from '../../tenancy/organizations';
import { storeClinicalNotes } from '../matching/facts';
import { DAY, DEMO_ORGANIZATION_NAME, type DemoData, type DemoSeedOptions, Dice, type SeedContext } from './seed-context';
import { DEMO_TRIALS } from './seed-data';
import { walkFunnel } from './seed-outcomes';
import { buildPerson } from './seed-people';
import { buildTrial } from './seed-trials';

export { DEMO_ORGANIZATION_NAME, type DemoData, type DemoSeedOptions };

export const DEMO_ORGANIZATION_SLUG = 'demo-research-site';
export const DEFAULT_DEMO_CANDIDATES = 3000;
const DEFAULT_SEED = 20240601;
/** The referral notes' generator: the demo's seed plus this. */
const REFERRAL_NOTE_SEED_OFFSET = 7919;

/** How far back the demo's history reaches. */
const HISTORY_DAYS = 240;

/** What the demo organization holds (the status tile of /admin/demo, and what tests compare): the contract's shape. */
export type { DemoCounts };

/**
 * Builds every row of the demo organization in memory (no I/O). Same options, same rows: the steps draw from one
 * seeded generator in a fixed order (trials, then each person with their history), pinned by
 * tests/unit/demo-seed-digest.test.ts.
 */
export function buildDemoData(organizationId: string, options: DemoSeedOptions = {}): DemoData {
  const seed = options.seed ?? DEFAULT_SEED;
  const end = (options.now ?? new Date()).getTime();
  const ctx: SeedContext = {
    dice: new Dice(seededRandom(seed)),
    noteDice: new Dice(seededRandom(seed + REFERRAL_NOTE_SEED_OFFSET)),
    org: organizationId,
    start: end - HISTORY_DAYS * DAY,
    end,
    today: new Date(end).toISOString().slice(0, 10),
    data: emptyDemoData(),
    slots: new Set(),
  };
  const trials = DEMO_TRIALS.map((definition, index) => buildTrial(ctx, definition, index));
  const candidateCount = Math.max(0, Math.floor(options.candidates ?? DEFAULT_DEMO_CANDIDATES));
  for (let i = 0; i < candidateCount; i++) walkFunnel(ctx, buildPerson(ctx, trials, i));
  return ctx.data;
}

function emptyDemoData(): DemoData {
  return {
    trials: [],
    criteria: [],
    forms: [],
    formVersions: [],
    voiceAgents: [],
    chatAgents: [],
    candidates: [],
    links: [],
    contactEvents: [],
    results: [],
    bookings: [],
    calls: [],
    sms: [],
    conversations: [],
    chatMessages: [],
    activity: [],
    notes: [],
  };
}

// ---- the database ----

/** Children first: every table with the organization's demo rows (memberships, invitations, audit are kept). */
const DEMO_TABLES = [
  activityEvent,
  // Every rollup of the events, or a reset would count the old events in them again (decision 082).
  activityDaily,
  activityKindDaily,
  activityMonthly,
  activityTotal,
  enrollmentMonthly,
  prescreenResultMonthly,
  timeToResultMonthly,
  timeToResultTotal,
  sequenceStepRun,
  sequenceEnrollment,
  sequenceVersion,
  sequence,
  trialMatch,
  candidateFact,
  candidateNote,
  callEvent,
  callback,
  call,
  chatMessage,
  chatConversation,
  chatAgent,
  smsMessage,
  booking,
  prescreenResult,
  voiceAgent,
  prescreenFormVersion,
  prescreenForm,
  contactEvent,
  candidateTrial,
  processingRunItem,
  processingRun,
  candidate,
  trialCriterion,
  trial,
] as const;

async function insertBatches<T>(rows: T[], size: number, insert: (batch: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/** Writes built demo data in the caller's (organization-scoped) transaction. */
export async function insertDemoData(tx: Transaction, data: DemoData): Promise<void> {
  if (data.trials.length) await tx.insert(trial).values(data.trials);
  if (data.criteria.length) await tx.insert(trialCriterion).values(data.criteria);
  if (data.forms.length) await tx.insert(prescreenForm).values(data.forms);
  if (data.formVersions.length) await tx.insert(prescreenFormVersion).values(data.formVersions);
  if (data.voiceAgents.length) await tx.insert(voiceAgent).values(data.voiceAgents);
  if (data.chatAgents.length) await tx.insert(chatAgent).values(data.chatAgents);
  await insertBatches(data.candidates, 500, (batch) => tx.insert(candidate).values(batch));
  await insertBatches(data.links, 2000, (batch) => tx.insert(candidateTrial).values(batch));
  // The notes and the facts the note reader finds in them, as for any note (matching's facts.ts).
  await insertBatches(data.notes, 1000, (batch) => storeClinicalNotes(tx, data.candidates[0].organizationId, batch));
  await insertBatches(data.results, 300, (batch) => tx.insert(prescreenResult).values(batch));
  await insertBatches(data.bookings, 1000, (batch) => tx.insert(booking).values(batch));
  await insertBatches(data.calls, 500, (batch) => tx.insert(call).values(batch));
  await insertBatches(data.sms, 1000, (batch) => tx.insert(smsMessage).values(batch));
  await insertBatches(data.conversations, 1000, (batch) => tx.insert(chatConversation).values(batch));
  await insertBatches(data.chatMessages, 2000, (batch) => tx.insert(chatMessage).values(batch));
  await insertBatches(data.contactEvents, 1500, (batch) => tx.insert(contactEvent).values(batch));
  await insertBatches(data.activity, 2500, (batch) => recordActivity(tx, batch));
}

/** The demo organization's own line (a fictional 555-01xx number, outside the demo people's area codes). */
export const DEMO_PHONE_NUMBER = '+16175550100';

/**
 * The number the demo's voice agents call from, as a customer's agents get theirs (decision 182): one of the
 * organization's registry numbers for voice. The first seed assigns the demo line to the organization (a simulator
 * number, audited like an admin's assignment); the registry is not demo data, so a reset keeps it, and a number an
 * admin assigned to the demo organization is used instead. Null when the demo line belongs to another organization.
 */
async function demoPhoneNumber(tx: Transaction, organizationId: string, actorUserId: string | null): Promise<string | null> {
  const own = () =>
    tx
      .select({ number: phoneNumber.number })
      .from(phoneNumber)
      .where(and(eq(phoneNumber.organizationId, organizationId), inArray(phoneNumber.purpose, [...VOICE_PURPOSES])))
      .orderBy(asc(phoneNumber.createdAt), asc(phoneNumber.number))
      .limit(1);
  const [existing] = await own();
  if (existing) return existing.number;
  const [assigned] = await tx
    .insert(phoneNumber)
    .values({ organizationId, number: DEMO_PHONE_NUMBER, provider: 'simulator', purpose: 'voice', label: 'Demo line' })
    .onConflictDoNothing({ target: phoneNumber.number })
    .returning();
  if (!assigned) return null;
  await recordAudit(tx, rowChange(actorUserId, assigned, 'phone_number.assign', 'phone_number', { provider: 'simulator', purpose: 'voice', demo: true }));
  return assigned.number;
}

/** The processing run kind of a demo reset (reset-run.ts): its runs are the resets' history and survive them. */
export const DEMO_RESET_RUN_KIND = 'demo_reset';

/**
 * Deletes the organization's demo rows (row security limits every statement to it as well), but not the demo
 * reset runs: the run doing this reset is one of them.
 */
export async function deleteDemoData(tx: Transaction, organizationId: string): Promise<void> {
  for (const table of DEMO_TABLES) {
    const ofOrganization = eq(table.organizationId, organizationId);
    await tx.delete(table).where(table === processingRun ? and(ofOrganization, ne(processingRun.kind, DEMO_RESET_RUN_KIND)) : ofOrganization);
  }
}

export async function countDemoRows(tx: Transaction, organizationId: string): Promise<DemoCounts> {
  const countOf = async (table: (typeof DEMO_TABLES)[number]) =>
    Number((await tx.select({ value: count() }).from(table).where(eq(table.organizationId, organizationId)))[0]?.value ?? 0);
  const trials = await tx.select({ sites: trial.sites }).from(trial).where(eq(trial.organizationId, organizationId));
  return {
    trials: trials.length,
    sites: trials.reduce((sum, row) => sum + row.sites.length, 0),
    candidates: await countOf(candidate),
    prescreenForms: await countOf(prescreenForm),
    prescreenResults: await countOf(prescreenResult),
    bookings: await countOf(booking),
    calls: await countOf(call),
    smsMessages: await countOf(smsMessage),
    chatConversations: await countOf(chatConversation),
    voiceAgents: await countOf(voiceAgent),
    chatAgents: await countOf(chatAgent),
    activityEvents: await countOf(activityEvent),
  };
}

/** The demo organization, found by its slug across organizations (the registry has no row security). */
export async function findDemoOrganization(db: Database) {
  return findOrganizationBySlug(systemDb(db), DEMO_ORGANIZATION_SLUG);
}

/** The demo organization, new (without data); when another request created it meanwhile (its slug is unique), that one. */
export async function createDemoOrganization(db: Database) {
  try {
    return await insertOrganization(systemDb(db), { name: DEMO_ORGANIZATION_NAME, slug: DEMO_ORGANIZATION_SLUG });
  } catch (error) {
    const created = await findDemoOrganization(db);
    if (created) return created;
    throw error;
  }
}

export interface DemoSeedResult {
  created: boolean;
  organizationId: string;
  counts: DemoCounts | null;
}

/**
 * Creates the demo organization with its data. Idempotent: when it exists with trials, nothing is done; when
 * it exists empty (an interrupted first run), its data is written now.
 */
export async function seedDemoOrganization(db: Database, options: DemoSeedOptions = {}): Promise<DemoSeedResult> {
  const existing = await findDemoOrganization(db);
  if (existing) {
    const trials = await runAsOrganization(
      db,
      existing.id,
      async (tx) => (await tx.select({ value: count() }).from(trial).where(eq(trial.organizationId, existing.id)))[0]?.value ?? 0,
    );
    if (Number(trials) > 0) return { created: false, organizationId: existing.id, counts: null };
  }
  const organization = existing ?? (await insertOrganization(systemDb(db), { name: DEMO_ORGANIZATION_NAME, slug: DEMO_ORGANIZATION_SLUG }));
  return { created: true, organizationId: organization.id, counts: await writeDemoData(db, organization.id, options, 'demo.seed') };
}

/** Builds the data and writes it in one transaction with its audit record; a reset deletes the old data first. */
async function writeDemoData(db: Database, organizationId: string, options: DemoSeedOptions, action: 'demo.seed' | 'demo.reset') {
  const data = buildDemoData(organizationId, options);
  return runAsOrganization(db, organizationId, (tx) => writeDemoRows(tx, organizationId, data, { actorUserId: options.actorUserId ?? null, action }));
}

/**
 * Writes built demo data in the caller's transaction with its audit record ('demo.reset' deletes the old data
 * first), so a failure leaves the old data; answers the counts.
 */
export async function writeDemoRows(
  tx: Transaction,
  organizationId: string,
  data: DemoData,
  how: { actorUserId: string | null; action: 'demo.seed' | 'demo.reset' },
): Promise<DemoCounts> {
  if (how.action === 'demo.reset') await deleteDemoData(tx, organizationId);
  const fromNumber = await demoPhoneNumber(tx, organizationId, how.actorUserId);
  await insertDemoData(tx, { ...data, voiceAgents: data.voiceAgents.map((agent) => ({ ...agent, fromNumber })) });
  await recordAudit(tx, {
    organizationId,
    actorUserId: how.actorUserId,
    action: how.action,
    entityType: 'organization',
    entityId: organizationId,
    changes: { candidates: data.candidates.length },
  });
  return countDemoRows(tx, organizationId);
}

/**
 * Deletes the demo organization's data and seeds it again under the same organization id (public chat links,
 * memberships and the audit trail stay), in one transaction: a failure leaves the old data. Creates the
 * organization when it does not exist.
 */
export async function resetDemoOrganization(db: Database, options: DemoSeedOptions = {}): Promise<DemoSeedResult> {
  const existing = await findDemoOrganization(db);
  if (!existing) return seedDemoOrganization(db, options);
  return { created: false, organizationId: existing.id, counts: await writeDemoData(db, existing.id, options, 'demo.reset') };
}

/** Candidates of the demo organization at each site id (customFields.siteId), for checks and the status tile. */
export async function candidatesBySite(tx: Transaction, organizationId: string, trialIds: string[]): Promise<Map<string, number>> {
  if (!trialIds.length) return new Map();
  const rows = await tx
    .select({ customFields: candidate.customFields })
    .from(candidate)
    .innerJoin(candidateTrial, and(eq(candidateTrial.candidateId, candidate.id), inArray(candidateTrial.trialId, trialIds)))
    .where(eq(candidate.organizationId, organizationId));
  const bySite = new Map<string, number>();
  for (const row of rows) {
    const siteId = typeof row.customFields.siteId === 'string' ? row.customFields.siteId : '';
    bySite.set(siteId, (bySite.get(siteId) ?? 0) + 1);
  }
  return bySite;
}
