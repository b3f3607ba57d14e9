import type { Onboarding, OnboardingList, StartOnboardingInput, UpdateOnboardingInput } from '../../../contract/onboarding';
import { runScoped, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import { systemDb } from '../../db/system';
import { recordAudit, rowChange } from '../../audit';
import { createOrganizationIn } from '../organizations/service';

import { insertOnboardingRow, listOnboardingRows, updateOnboardingRow } from './queries';
import { load, onboardingInScope, requireOnboarder, toSummary } from './onboarding-record';

/**
 * Onboarding a customer organization (decision 027). Only Cohortly's internal admins with the Cohortly
 * organization active (global scope) onboard; an onboarding of an organization outside the request's scope
 * does not exist (404), and anyone else within reach is refused (403). Each step calls the service of the
 * feature that owns what it makes (with its checks and audit records); the onboarding row remembers the ids,
 * and every read checks them against their tables, so a step whose result was deleted shows as not done.
 */

// The onboarding feature's surface: the onboardings below, each step (steps.ts) and the checklist (checklist.ts).
export type { OnboardingDeps } from './onboarding-record';
export * from './steps';
export * from './checklist';

// ---- the onboardings ----

export async function listOnboardings(db: Database, scope: RequestScope, status: 'open' | 'completed' | 'all'): Promise<OnboardingList> {
  requireOnboarder(scope);
  return runScoped(db, scope, async (tx) => {
    const rows = await listOnboardingRows(tx, status);
    return { onboardings: rows.map(toSummary), total: rows.length };
  });
}

/** Starts an onboarding: the organization and its onboarding are created together, or neither. */
export async function startOnboarding(db: Database, scope: RequestScope, input: StartOnboardingInput): Promise<Onboarding> {
  requireOnboarder(scope);
  // The system path: the organization registry has no row security, and the onboarding row is the new organization's first.
  const id = await systemDb(db).transaction(async (tx) => {
    const organization = await createOrganizationIn(tx, scope, input);
    const row = await insertOnboardingRow(tx, { organizationId: organization.id, createdByUserId: scope.userId, currentStep: 'owner' });
    await recordAudit(tx, {
      organizationId: organization.id,
      actorUserId: scope.userId,
      action: 'onboarding.start',
      entityType: 'onboarding',
      entityId: row.id,
    });
    return row.id;
  });
  return load(db, scope, id);
}

export async function getOnboarding(db: Database, scope: RequestScope, id: string): Promise<Onboarding> {
  const listed = await onboardingInScope(db, scope, id);
  return load(db, scope, listed.onboarding.id);
}

/** Where the admin is: the step "Continue" opens next time. */
export async function updateOnboarding(db: Database, scope: RequestScope, id: string, input: UpdateOnboardingInput): Promise<Onboarding> {
  const listed = await onboardingInScope(db, scope, id);
  if (input.currentStep !== listed.onboarding.currentStep)
    await runScoped(db, scope, (tx) => updateOnboardingRow(tx, listed.onboarding.id, { currentStep: input.currentStep }));
  return load(db, scope, listed.onboarding.id);
}

/** Marks the onboarding finished (whatever the checklist still misses: it stays there to fix). */
export async function completeOnboarding(db: Database, scope: RequestScope, id: string): Promise<Onboarding> {
  const listed = await onboardingInScope(db, scope, id);
  if (!listed.onboarding.completedAt) {
    await runScoped(db, scope, async (tx) => {
      await updateOnboardingRow(tx, listed.onboarding.id, { completedAt: new Date(), currentStep: 'checklist' });
      await recordAudit(tx, rowChange(scope.userId, listed.onboarding, 'onboarding.complete', 'onboarding'));
    });
  }
  return load(db, scope, listed.onboarding.id);
}
