import { ONBOARDING_STEPS, type Onboarding, type OnboardingStep, type OnboardingSummary } from '../../../contract/onboarding';
import { patientQuestions, type StudyBlock } from '../../../contract/prescreen-forms';
import { can } from '../../auth/permissions';
import { canReach, runScoped, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import type { OnboardingMade } from '../../db/schema';
import type { Transaction } from '../../db/scoped';
import type { AppDeps } from '../../http/context';
import { AppError, forbidden, notFound } from '../../http/errors';
import { findAgentRow } from '../chat/agent-service';

import { listOrganizationSites } from '../organizations/sites';
import { findFormRow, listVersionRows } from '../prescreen-forms/service';
import { findTrialRow, listCriteria } from '../trials/service';
import { readSites } from '../trials/sites';
import { findVoiceAgent } from '../voice-agents/service';
import { findOnboardingRow, findSequenceSummary, ownerInvitationsOf, ownersOf, rememberMade, type ListedOnboardingRow } from './queries';
import { isUuid } from '../../../contract/ids';

/**
 * One onboarding as the steps and the checklist read it. Onboarding a customer organization (decision 027). Only Cohortly's internal admins with the Cohortly
 * organization active (global scope) onboard; an onboarding of an organization outside the request's scope
 * does not exist (404), and anyone else within reach is refused (403). Each step calls the service of the
 * feature that owns what it makes (with its checks and audit records); the onboarding row remembers the ids,
 * and every read checks them against their tables, so a step whose result was deleted shows as not done.
 */

export type OnboardingDeps = Pick<AppDeps, 'db' | 'auth' | 'mail' | 'config' | 'voice' | 'sms' | 'logger'>;

export function requireOnboarder(scope: RequestScope) {
  if (!can(scope, 'organization:onboard')) {
    throw forbidden(scope.isAdmin ? 'Switch to the Cohortly organization to onboard organizations' : "Only Cohortly's internal admins onboard organizations");
  }
}

/** The onboarding, when it is within the scope (404 otherwise, malformed ids included) and the caller may onboard (403). */
export async function onboardingInScope(db: Database, scope: RequestScope, id: string): Promise<ListedOnboardingRow> {
  const row = isUuid(id) ? await runScoped(db, scope, (tx) => findOnboardingRow(tx, id)) : undefined;
  if (!row || !canReach(scope, row.onboarding.organizationId)) throw notFound('Onboarding not found');
  requireOnboarder(scope);
  return row;
}

/** A 404 of another feature's service (its row was deleted meanwhile) as null. */
export async function unlessGone<T>(work: Promise<T>): Promise<T | null> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return null;
    throw error;
  }
}

export const stepIndex = (step: OnboardingStep) => ONBOARDING_STEPS.indexOf(step);

/** The onboarding as it is now: what each remembered id still points at, and each step's status. */
export async function build(tx: Transaction, listed: ListedOnboardingRow): Promise<Onboarding> {
  const { onboarding: row } = listed;
  const organizationId = row.organizationId;
  const made = row.made;
  const now = new Date();

  const [owners, invitations, sites] = await Promise.all([
    ownersOf(tx, organizationId),
    ownerInvitationsOf(tx, organizationId),
    listOrganizationSites(tx, organizationId),
  ]);
  let owner: Onboarding['owner'] = null;
  const openInvitation = invitations.find((item) => !item.acceptedAt);
  if (owners.length) owner = { email: owners[0].email, status: 'member', invitationId: null };
  else if (openInvitation)
    owner = { email: openInvitation.email, status: openInvitation.expiresAt < now ? 'expired' : 'invited', invitationId: openInvitation.id };

  // Only rows of this organization count: an id is never followed into another organization.
  const mine = <T extends { organizationId: string }>(found: T | undefined) => (found && found.organizationId === organizationId ? found : undefined);
  const trialRow = made.trialId ? mine(await findTrialRow(tx, made.trialId)) : undefined;
  let trial: Onboarding['trial'] = null;
  if (trialRow) {
    const trialSites = readSites(trialRow.sites);
    trial = {
      id: trialRow.id,
      title: trialRow.publicTitle ?? trialRow.title,
      nctId: trialRow.nctId,
      status: trialRow.status,
      siteCount: trialSites.length,
      ownSiteCount: trialSites.filter((site) => site.isOwnSite).length,
      criteriaCount: (await listCriteria(tx, [trialRow.id])).length,
    };
  }

  const formRow = made.prescreenFormId ? mine(await findFormRow(tx, made.prescreenFormId)) : undefined;
  let prescreenForm: Onboarding['prescreenForm'] = null;
  if (formRow) {
    const version = (await listVersionRows(tx, [formRow.id])).find((item) => item.version === formRow.currentVersion);
    prescreenForm = {
      id: formRow.id,
      name: formRow.name,
      status: formRow.status,
      questionCount: patientQuestions((version?.blocks ?? []) as StudyBlock[]).length,
    };
  }
  const chatRow = made.chatAgentId ? mine(await findAgentRow(tx, made.chatAgentId)) : undefined;
  const voiceRow = made.voiceAgentId ? mine(await findVoiceAgent(tx, made.voiceAgentId)) : undefined;
  const sequenceRow = made.sequenceId ? mine(await findSequenceSummary(tx, made.sequenceId)) : undefined;

  const done: Record<OnboardingStep, boolean> = {
    organization: true,
    owner: owner !== null && owner.status !== 'expired',
    sites: sites.length > 0,
    trial: trial !== null,
    agents: Boolean(chatRow && voiceRow),
    sequence: sequenceRow?.status === 'active',
    checklist: row.completedAt !== null,
  };
  const current = stepIndex(row.currentStep);
  return {
    id: row.id,
    organizationId,
    organizationName: listed.organizationName,
    organizationSlug: listed.organizationSlug,
    organizationPublicId: listed.organizationPublicId,
    currentStep: row.currentStep,
    steps: ONBOARDING_STEPS.map((step) => ({ step, status: done[step] ? 'done' : stepIndex(step) < current ? 'skipped' : 'pending' })),
    owner,
    sites,
    trial,
    prescreenForm,
    chatAgent: chatRow ? { id: chatRow.id, name: chatRow.name, active: chatRow.active } : null,
    voiceAgent: voiceRow ? { id: voiceRow.id, name: voiceRow.name, active: voiceRow.active } : null,
    sequence: sequenceRow ? { id: sequenceRow.id, name: sequenceRow.name, status: sequenceRow.status } : null,
    startedByName: listed.startedByName,
    completedAt: row.completedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function load(db: Database, scope: RequestScope, id: string): Promise<Onboarding> {
  return runScoped(db, scope, async (tx) => {
    const listed = await findOnboardingRow(tx, id);
    if (!listed) throw notFound('Onboarding not found');
    return build(tx, listed);
  });
}

export const remember = (db: Database, scope: RequestScope, id: string, made: OnboardingMade) => runScoped(db, scope, (tx) => rememberMade(tx, id, made));

export function toSummary(listed: ListedOnboardingRow): OnboardingSummary {
  const { onboarding: row } = listed;
  return {
    id: row.id,
    organizationId: row.organizationId,
    organizationName: listed.organizationName,
    currentStep: row.currentStep,
    startedByName: listed.startedByName,
    completedAt: row.completedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
