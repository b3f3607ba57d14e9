import { localMinutes } from '../../calling-hours';
import type { DemoSampleCandidate, DemoSamples, DemoStatus, DemoVoiceCallInput } from '../../../contract/demo';
import type { Call } from '../../../contract/voice';
import type { RequestScope } from '../../auth/scope';
import type { AppDeps } from '../../http/context';
import { runAsOrganization } from '../../db/scoped';
import { AppError, forbidden } from '../../http/errors';
import { createCall } from '../calls/service';
import { createCandidate } from '../candidates/service';
import { addClinicalNote } from '../matching/facts';
import { ageInYears } from '../prescreen/engine';
import { seededRandom } from '../../seeded-random';
import { referralNote } from './referral-notes';
import { DEMO_TRIALS } from './seed-data';
import { demoTrials, lastSeededAt, sampleCandidates, samplePhonesInUse, trialNctId } from './queries';
import { latestDemoReset, startDemoReset } from './reset-run';
import { countDemoRows, createDemoOrganization, findDemoOrganization } from './seed';
import { toRun } from '../processing-runs/service';

type DemoDeps = AppDeps;
type DemoOrganization = NonNullable<Awaited<ReturnType<typeof findDemoOrganization>>>;

/**
 * The demo area is for Cohortly's internal admins: with global scope (the cohortly organization active) or with
 * the demo organization itself active. Everybody else gets 403. Returns the demo organization, if it exists.
 */
async function demoAccess(deps: DemoDeps, scope: RequestScope): Promise<DemoOrganization | undefined> {
  if (!scope.isAdmin) throw forbidden('Only Cohortly administrators can use the demo area');
  const organization = await findDemoOrganization(deps.db);
  if (!scope.global && (!organization || scope.activeOrganization.id !== organization.id)) {
    throw forbidden('Switch to the Cohortly organization (or the demo organization) to use the demo area');
  }
  return organization;
}

async function existingDemo(deps: DemoDeps, scope: RequestScope): Promise<DemoOrganization> {
  const organization = await demoAccess(deps, scope);
  if (!organization) throw new AppError(409, 'There is no demo data yet: create it on the demo page first', 'DEMO_MISSING');
  return organization;
}

const RESETTING_MESSAGE = 'The demo data is being reset: try again when the reset has finished';

/**
 * The demo organization for an action that writes into its data (a sample person, a call). While a reset runs its
 * one transaction deletes and rewrites that data, so such an action is refused in words (409) rather than left to
 * fail half way on rows the reset removed.
 */
async function settledDemo(deps: DemoDeps, scope: RequestScope): Promise<DemoOrganization> {
  const organization = await existingDemo(deps, scope);
  if (await resetGoing(deps, organization)) throw new AppError(409, RESETTING_MESSAGE, 'DEMO_RESETTING');
  return organization;
}

async function resetGoing(deps: DemoDeps, organization: DemoOrganization): Promise<boolean> {
  const reset = await runAsOrganization(deps.db, organization.id, (tx) => latestDemoReset(tx, organization.id));
  return reset?.status === 'pending' || reset?.status === 'running';
}

/** A reset that began after settledDemo's check removes the rows the action refers to: the same 409, not a 500. */
async function unlessResetMeanwhile<T>(deps: DemoDeps, organization: DemoOrganization, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (await resetGoing(deps, organization)) throw new AppError(409, RESETTING_MESSAGE, 'DEMO_RESETTING');
    throw error;
  }
}

/**
 * The request's scope with the demo organization reachable. demoAccess has admitted the caller; the scope's
 * organization list may predate a reset that just created the demo organization (another process's cache, or
 * this one's within its cache period), and that must not turn the demo's own actions into 404s.
 */
function withDemoReach(scope: RequestScope, organization: DemoOrganization): RequestScope {
  if (scope.reachableOrganizationIds.includes(organization.id)) return scope;
  return { ...scope, reachableOrganizationIds: [...scope.reachableOrganizationIds, organization.id] };
}

async function statusOf(deps: DemoDeps, organization: DemoOrganization | undefined): Promise<DemoStatus> {
  if (!organization) return { exists: false, organization: null, lastResetAt: null, counts: null, reset: null };
  return runAsOrganization(deps.db, organization.id, async (tx) => {
    const reset = await latestDemoReset(tx, organization.id);
    const lastResetAt = await lastSeededAt(tx, organization.id);
    const counts = await countDemoRows(tx, organization.id);
    // An organization created by a first reset that has not written yet holds no demo data.
    return {
      exists: counts.trials > 0,
      organization: { id: organization.id, name: organization.name, slug: organization.slug, publicId: organization.publicId },
      lastResetAt: lastResetAt?.toISOString() ?? null,
      counts,
      reset: reset ? toRun(reset) : null,
    };
  });
}

export async function getDemoStatus(deps: DemoDeps, scope: RequestScope): Promise<DemoStatus> {
  return statusOf(deps, await demoAccess(deps, scope));
}

/**
 * Starts resetting the demo data (creates the demo organization when missing) as a demo_reset processing run and
 * answers the status with the run going; a reset already going is joined, never started twice (reset-run.ts).
 */
export async function resetDemo(deps: DemoDeps, scope: RequestScope): Promise<DemoStatus> {
  const existing = await demoAccess(deps, scope);
  const organization = existing ?? (await createDemoOrganization(deps.db));
  const seeding = !existing || !(await statusOf(deps, existing)).exists;
  const run = await startDemoReset(deps, organization.id, { actorUserId: scope.userId, seeding });
  deps.logger.info({ userId: scope.userId, runId: run.id }, 'demo data reset started');
  return statusOf(deps, organization);
}

export async function getDemoSamples(deps: DemoDeps, scope: RequestScope): Promise<DemoSamples> {
  const organization = await existingDemo(deps, scope);
  return runAsOrganization(deps.db, organization.id, async (tx) => {
    const trials = await demoTrials(tx, organization.id);
    const candidates = await sampleCandidates(
      tx,
      organization.id,
      trials.map((item) => item.id),
      6,
    );
    return {
      organizationId: organization.id,
      trials,
      candidates: candidates.map((row) => ({
        id: row.id,
        name: [row.firstName, row.lastName].filter(Boolean).join(' '),
        trialId: row.trialId,
        city: row.city,
        preferredLanguage: row.preferredLanguage,
        status: row.status,
      })),
    };
  });
}

const US_ZONES = ['America/New_York', 'America/Chicago', 'America/Denver', 'America/Phoenix', 'America/Los_Angeles', 'America/Anchorage', 'Pacific/Honolulu'];

/** A time zone where it is now the middle of the day (calling hours), a US one when there is one. */
export function middayZone(now: Date = new Date()): string {
  const us = US_ZONES.find((zone) => localMinutes(now, zone) >= 10 * 60 && localMinutes(now, zone) < 19 * 60);
  if (us) return us;
  let offset = 13 - now.getUTCHours();
  if (offset < -12) offset += 24;
  if (offset > 14) offset -= 24;
  return offset === 0 ? 'Etc/UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

const SAMPLE_BIRTH_DATE = '1982-04-12';

/** A new sample person in the demo organization, linked to a trial: callable now (consent, phone, midday zone). */
async function createSamplePerson(
  deps: DemoDeps,
  scope: RequestScope,
  organization: DemoOrganization,
  trialId: string | null,
  language: 'en' | 'es' = 'en',
): Promise<DemoSampleCandidate> {
  // Two samples asked for at once can pick the same free number; the one refused as a duplicate takes the next.
  for (let attempt = 1; ; attempt++) {
    try {
      return await createSampleOnce(deps, scope, organization, trialId, language);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof AppError && error.code === 'CONFLICT')) throw error;
    }
  }
}

async function createSampleOnce(
  deps: DemoDeps,
  scope: RequestScope,
  organization: DemoOrganization,
  trialId: string | null,
  language: 'en' | 'es',
): Promise<DemoSampleCandidate> {
  const inUse = await runAsOrganization(deps.db, organization.id, (tx) => samplePhonesInUse(tx, organization.id));
  const free = Array.from({ length: 100 }, (_, n) => `+1312555${String(100 + n).padStart(4, '0')}`).find((phone) => !inUse.has(phone));
  if (!free) throw new AppError(409, 'All sample phone numbers are taken: reset the demo data', 'DEMO_SAMPLES_FULL');
  const number = Number(free.slice(-2)) + 1;
  const created = await createCandidate(deps.db, withDemoReach(scope, organization), organization.id, {
    firstName: language === 'es' ? 'Sofía' : 'Sam',
    lastName: `Sample ${number}`,
    phone: free,
    dateOfBirth: SAMPLE_BIRTH_DATE,
    sex: 'female',
    city: 'Springfield',
    region: 'IL',
    country: 'US',
    timeZone: middayZone(),
    preferredLanguage: language,
    source: 'manual',
    customFields: { sample: true },
    consent: { sms: true, calls: true, source: 'Demo sample person' },
    trialIds: trialId ? [trialId] : [],
  });
  if (trialId) await giveReferralNote(deps, withDemoReach(scope, organization), organization.id, created.id, trialId, number);
  return { candidateId: created.id, name: `${created.firstName} ${created.lastName ?? ''}`.trim() };
}

/** The seed of the sample people's referral notes: this plus the sample's number, so each sample differs. */
const SAMPLE_NOTE_SEED = 104_729;

/**
 * A referral letter for a sample person, as the seeded people have (decision 132), added as a clinical note (read
 * into facts, audited): the simulated caller answers by those facts, so sample calls end PASS, FAIL or
 * INCONCLUSIVE by the person, not all alike (issue 32 item 10, decision 160).
 */
async function giveReferralNote(deps: DemoDeps, scope: RequestScope, organizationId: string, candidateId: string, trialId: string, number: number) {
  const nctId = await runAsOrganization(deps.db, organizationId, (tx) => trialNctId(tx, organizationId, trialId));
  const trialIndex = DEMO_TRIALS.findIndex((item) => item.nctId === nctId);
  if (trialIndex < 0) return;
  const body = referralNote(seededRandom(SAMPLE_NOTE_SEED + number), {
    trialIndex,
    age: ageInYears(SAMPLE_BIRTH_DATE, new Date().toISOString().slice(0, 10)),
    female: true,
  });
  await addClinicalNote(deps.db, scope, candidateId, body);
}

/** POST /api/demo/sample-candidate: a fresh sample person for a demo trial (404 for a trial that is not the demo's). */
export async function createSampleCandidate(deps: DemoDeps, scope: RequestScope, trialId: string): Promise<DemoSampleCandidate> {
  const organization = await settledDemo(deps, scope);
  return unlessResetMeanwhile(deps, organization, () => createSamplePerson(deps, scope, organization, trialId));
}

/**
 * POST /api/demo/voice-call: a simulated prescreen call through the calls service with the demo organization's
 * active prescreen agent, to the chosen demo candidate or to a new sample person (callable at any hour).
 */
export async function startDemoCall(deps: DemoDeps, scope: RequestScope, input: DemoVoiceCallInput): Promise<Call> {
  const organization = await settledDemo(deps, scope);
  return unlessResetMeanwhile(deps, organization, async () => {
    let candidateId = input.candidateId;
    if (!candidateId) {
      const samples = await runAsOrganization(deps.db, organization.id, (tx) => demoTrials(tx, organization.id));
      const trialId = samples.find((item) => item.voiceAgent?.active)?.id ?? samples[0]?.id ?? null;
      candidateId = (await createSamplePerson(deps, scope, organization, trialId, input.language)).candidateId;
    }
    return createCall(deps, withDemoReach(scope, organization), { candidateId, organizationId: organization.id, type: 'PRESCREEN', simulate: 'answer' });
  });
}
