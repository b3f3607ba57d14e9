import {
  DEFAULT_CHAT_AGENT,
  DEFAULT_VOICE_AGENT,
  ONBOARDING_STEPS,
  STARTER_SEQUENCE_TEMPLATES,
  type ChecklistItem,
  type CreateOnboardingAgentsInput,
  type CreateStarterSequenceInput,
  type ImportOnboardingTrialInput,
  type InviteOwnerInput,
  type Onboarding,
  type OnboardingChecklist,
  type OnboardingList,
  type OnboardingStep,
  type OnboardingSummary,
  type SaveOrganizationSitesInput,
  type StartOnboardingInput,
  type UpdateOnboardingInput,
} from '../../../contract/onboarding';
import { CreateChatAgentSchema } from '../../../contract/chat';
import { patientQuestions, type StudyBlock } from '../../../contract/prescreen-forms';
import { VOICE_PURPOSES } from '../../../contract/phone-numbers';
import { CreateSequenceSchema } from '../../../contract/sequences';
import { CreateVoiceAgentSchema } from '../../../contract/voice';
import { can } from '../../auth/permissions';
import { canReach, runScoped, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import type { OnboardingMade } from '../../db/schema';
import type { Transaction } from '../../db/scoped';
import { systemDb } from '../../db/system';
import type { AppDeps } from '../../http/context';
import { AppError, conflict, forbidden, notFound } from '../../http/errors';
import { recordAudit } from '../../audit';
import { createAgent } from '../chat/agent-service';
import { findAgentRow } from '../chat/queries';
import { createOrganizationIn } from '../organizations/service';
import { isUuid } from '../../tenancy/organizations';
import { listOrganizationSites, markOwnSites, replaceOrganizationSites } from '../organizations/sites';
import { listPhoneNumberRows } from '../phone-numbers/queries';
import { createForm, generateStudyBlocks, updateForm } from '../prescreen-forms/service';
import { findFormRow, listVersionRows } from '../prescreen-forms/queries';
import { autoGenerate, updateTrial } from '../trials/service';
import { findTrialRow, listCriteria } from '../trials/queries';
import { createSequence } from '../sequences/service';
import { readSites } from '../trials/sites';
import { addUser, revokeInvitation } from '../users/service';
import { createVoiceAgent } from '../voice-agents/service';
import { findVoiceAgent } from '../voice-agents/queries';
import {
  findOnboardingRow,
  findSequenceSummary,
  insertOnboardingRow,
  listOnboardingRows,
  ownerInvitationsOf,
  ownersOf,
  rememberMade,
  updateOnboardingRow,
  type ListedOnboardingRow,
} from './queries';

/**
 * Onboarding a customer organization (decision 027). Only Cohortly's internal admins with the Cohortly
 * organization active (global scope) onboard; an onboarding of an organization outside the request's scope
 * does not exist (404), and anyone else within reach is refused (403). Each step calls the service of the
 * feature that owns what it makes (with its checks and audit records); the onboarding row remembers the ids,
 * and every read checks them against their tables, so a step whose result was deleted shows as not done.
 */

export type OnboardingDeps = Pick<AppDeps, 'db' | 'auth' | 'mail' | 'config' | 'voice' | 'sms' | 'logger'>;

function requireOnboarder(scope: RequestScope) {
  if (!can(scope, 'organization:onboard')) {
    throw forbidden(scope.isAdmin ? 'Switch to the Cohortly organization to onboard organizations' : "Only Cohortly's internal admins onboard organizations");
  }
}

/** The onboarding, when it is within the scope (404 otherwise, malformed ids included) and the caller may onboard (403). */
async function onboardingInScope(db: Database, scope: RequestScope, id: string): Promise<ListedOnboardingRow> {
  const row = isUuid(id) ? await runScoped(db, scope, (tx) => findOnboardingRow(tx, id)) : undefined;
  if (!row || !canReach(scope, row.onboarding.organizationId)) throw notFound('Onboarding not found');
  requireOnboarder(scope);
  return row;
}

/** A 404 of another feature's service (its row was deleted meanwhile) as null. */
async function unlessGone<T>(work: Promise<T>): Promise<T | null> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return null;
    throw error;
  }
}

const stepIndex = (step: OnboardingStep) => ONBOARDING_STEPS.indexOf(step);

/** The onboarding as it is now: what each remembered id still points at, and each step's status. */
async function build(tx: Transaction, listed: ListedOnboardingRow): Promise<Onboarding> {
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

async function load(db: Database, scope: RequestScope, id: string): Promise<Onboarding> {
  return runScoped(db, scope, async (tx) => {
    const listed = await findOnboardingRow(tx, id);
    if (!listed) throw notFound('Onboarding not found');
    return build(tx, listed);
  });
}

const remember = (db: Database, scope: RequestScope, id: string, made: OnboardingMade) => runScoped(db, scope, (tx) => rememberMade(tx, id, made));

function toSummary(listed: ListedOnboardingRow): OnboardingSummary {
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
      await recordAudit(tx, {
        organizationId: listed.onboarding.organizationId,
        actorUserId: scope.userId,
        action: 'onboarding.complete',
        entityType: 'onboarding',
        entityId: listed.onboarding.id,
      });
    });
  }
  return load(db, scope, listed.onboarding.id);
}

// ---- the steps ----

/**
 * Invites the organization's first owner through the users feature (its invitation mail). An earlier open
 * invitation to be owner is revoked once the new one is out; an organization that has an owner already is a 409.
 */
export async function inviteOwner(deps: OnboardingDeps, scope: RequestScope, id: string, input: InviteOwnerInput): Promise<Onboarding> {
  const listed = await onboardingInScope(deps.db, scope, id);
  const organizationId = listed.onboarding.organizationId;
  const before = await runScoped(deps.db, scope, async (tx) => ({
    owners: await ownersOf(tx, organizationId),
    invitations: await ownerInvitationsOf(tx, organizationId),
  }));
  if (before.owners.length) throw conflict('The organization has an owner already: add more people from Users');
  const result = await addUser(deps, scope, { organizationId, email: input.email, role: 'owner', mode: 'invite' });
  for (const old of before.invitations) if (!old.acceptedAt) await unlessGone(revokeInvitation(deps.db, scope, old.id));
  await remember(deps.db, scope, listed.onboarding.id, { ownerInvitationId: result.invitation?.id });
  return load(deps.db, scope, listed.onboarding.id);
}

/** The trial of the onboarding, when it still exists in the organization. */
async function trialOf(db: Database, scope: RequestScope, listed: ListedOnboardingRow) {
  const trialId = listed.onboarding.made.trialId;
  if (!trialId) return undefined;
  const row = await runScoped(db, scope, (tx) => findTrialRow(tx, trialId));
  return row && row.organizationId === listed.onboarding.organizationId ? row : undefined;
}

/** Marks the organization's sites on the onboarding's trial (through the trials feature: checked and audited). */
async function markSitesOnTrial(db: Database, scope: RequestScope, listed: ListedOnboardingRow, trialId: string) {
  const [trial, sites] = await runScoped(
    db,
    scope,
    async (tx) => [await findTrialRow(tx, trialId), await listOrganizationSites(tx, listed.onboarding.organizationId)] as const,
  );
  if (!trial || sites.length === 0) return;
  const marked = markOwnSites(readSites(trial.sites), sites);
  if (marked) await updateTrial(db, scope, trialId, { sites: marked });
}

/** Replaces the organization's sites; the onboarding's trial, when there is one, gets them marked as ours. */
export async function saveSites(db: Database, scope: RequestScope, id: string, input: SaveOrganizationSitesInput): Promise<Onboarding> {
  const listed = await onboardingInScope(db, scope, id);
  const organizationId = listed.onboarding.organizationId;
  await runScoped(db, scope, async (tx) => {
    const saved = await replaceOrganizationSites(tx, organizationId, input.sites);
    await recordAudit(tx, {
      organizationId,
      actorUserId: scope.userId,
      action: 'organization.sites.replace',
      entityType: 'organization',
      entityId: organizationId,
      changes: { added: saved.added, updated: saved.updated, removed: saved.removed, timeZones: [...new Set(saved.sites.map((site) => site.timeZone))] },
    });
  });
  const trial = await trialOf(db, scope, listed);
  if (trial) await markSitesOnTrial(db, scope, listed, trial.id);
  return load(db, scope, listed.onboarding.id);
}

/**
 * Imports the organization's first trial from a ClinicalTrials.gov record through the trials feature (the
 * same reader as /trials/import), marks the organization's sites on it, and starts recruiting when asked.
 * One trial per onboarding: a second import is a 409 while the first exists.
 */
export async function importTrial(db: Database, scope: RequestScope, id: string, input: ImportOnboardingTrialInput): Promise<Onboarding> {
  const listed = await onboardingInScope(db, scope, id);
  const existing = await trialOf(db, scope, listed);
  if (existing) throw conflict(`This onboarding imported ${existing.nctId ?? 'its trial'} already: delete that trial first to import another`);
  const result = await autoGenerate(db, scope, [listed.onboarding.organizationId], { study: input.study, save: true });
  if (!result.saved) throw new Error('the import did not save the trial');
  await remember(db, scope, listed.onboarding.id, { trialId: result.trial.id });
  await markSitesOnTrial(db, scope, listed, result.trial.id);
  if (input.startRecruiting) await updateTrial(db, scope, result.trial.id, { status: 'recruiting' });
  return load(db, scope, listed.onboarding.id);
}

/**
 * A published prescreen form of the trial (generated from its criteria by the prescreen-forms feature), and
 * the default chat agent and prescreen voice agent asking it. What exists already is kept, so a retry after a
 * failure (a provider refusing the assistant) only makes what is missing.
 */
export async function createAgents(deps: OnboardingDeps, scope: RequestScope, id: string, input: CreateOnboardingAgentsInput): Promise<Onboarding> {
  const { db } = deps;
  const listed = await onboardingInScope(db, scope, id);
  const onboardingId = listed.onboarding.id;
  const organizationId = listed.onboarding.organizationId;
  const made = listed.onboarding.made;
  const trial = await trialOf(db, scope, listed);
  if (!trial) throw conflict("Import the organization's first trial before creating its agents");

  let formId = made.prescreenFormId;
  const form = formId ? await runScoped(db, scope, (tx) => findFormRow(tx, formId!)) : undefined;
  if (form && form.trialId === trial.id && form.organizationId === organizationId) {
    if (form.status !== 'published') await updateForm(db, scope, form.id, { status: 'published' });
  } else {
    const generated = await generateStudyBlocks(db, scope, trial.id);
    const name = `${trial.publicTitle ?? trial.title}`.slice(0, 180);
    const created = await createForm(db, scope, { trialId: trial.id, name: `Prescreen: ${name}`, blocks: generated.blocks, status: 'published' });
    formId = created.id;
    await remember(db, scope, onboardingId, { prescreenFormId: formId });
  }

  if (input.chatAgent) {
    const existing = made.chatAgentId ? await runScoped(db, scope, (tx) => findAgentRow(tx, made.chatAgentId!)) : undefined;
    if (!existing || existing.organizationId !== organizationId) {
      const agent = await createAgent(
        db,
        scope,
        CreateChatAgentSchema.parse({
          name: DEFAULT_CHAT_AGENT.name,
          trialId: trial.id,
          prescreenFormId: formId,
          greeting: DEFAULT_CHAT_AGENT.greeting,
          closingMessage: DEFAULT_CHAT_AGENT.closingMessage,
        }),
      );
      await remember(db, scope, onboardingId, { chatAgentId: agent.id });
    }
  }

  if (input.voiceAgent) {
    const existing = made.voiceAgentId ? await runScoped(db, scope, (tx) => findVoiceAgent(tx, made.voiceAgentId!)) : undefined;
    if (!existing || existing.organizationId !== organizationId) {
      // The agent calls from the organization's first voice number, when Cohortly assigned one already.
      const numbers = await runScoped(db, scope, (tx) => listPhoneNumberRows(tx, [organizationId]));
      const fromNumber = numbers.find((number) => VOICE_PURPOSES.includes(number.purpose))?.number ?? null;
      const agent = await createVoiceAgent(
        deps,
        scope,
        CreateVoiceAgentSchema.parse({
          organizationId,
          name: DEFAULT_VOICE_AGENT.name,
          type: 'PRESCREEN',
          trialId: trial.id,
          prescreenFormId: formId,
          languages: ['en', 'es'],
          firstMessage: DEFAULT_VOICE_AGENT.firstMessage,
          voicemailMessage: DEFAULT_VOICE_AGENT.voicemailMessage,
          fromNumber,
        }),
      );
      await remember(db, scope, onboardingId, { voiceAgentId: agent.id });
    }
  }
  return load(db, scope, onboardingId);
}

/**
 * The starter sequence, from one of the templates (contract/onboarding.ts), through the sequences feature:
 * for the onboarding's trial when there is one. One per onboarding: a second is a 409 while the first exists.
 */
export async function createStarterSequence(db: Database, scope: RequestScope, id: string, input: CreateStarterSequenceInput): Promise<Onboarding> {
  const listed = await onboardingInScope(db, scope, id);
  const organizationId = listed.onboarding.organizationId;
  const sequenceId = listed.onboarding.made.sequenceId;
  const existing = sequenceId ? await runScoped(db, scope, (tx) => findSequenceSummary(tx, sequenceId)) : undefined;
  if (existing?.status === 'active' && existing.organizationId === organizationId)
    throw conflict('This onboarding created its starter sequence already: change it on Sequences');
  const trial = await trialOf(db, scope, listed);
  const template = STARTER_SEQUENCE_TEMPLATES[input.template];
  const sequence = await createSequence(
    db,
    scope,
    CreateSequenceSchema.parse({
      organizationId,
      trialId: trial?.id ?? null,
      name: template.name,
      description: template.description,
      triggers: template.triggers,
      steps: template.steps,
    }),
  );
  await remember(db, scope, listed.onboarding.id, { sequenceId: sequence.id, sequenceTemplate: template.key });
  return load(db, scope, listed.onboarding.id);
}

// ---- the checklist ----

/**
 * What is done and what is missing for the organization to recruit, each with where to fix it. Read live:
 * an agent deactivated or a number released since shows here at once.
 */
export async function checklist(deps: OnboardingDeps, scope: RequestScope, id: string): Promise<OnboardingChecklist> {
  const listed = await onboardingInScope(deps.db, scope, id);
  const state = await load(deps.db, scope, listed.onboarding.id);
  const numbers = await runScoped(deps.db, scope, (tx) => listPhoneNumberRows(tx, [state.organizationId]));
  const step = (target: OnboardingStep, label: string) => ({ label, target: 'step' as const, step: target });
  const items: ChecklistItem[] = [];

  const owner = state.owner;
  items.push(
    owner?.status === 'member'
      ? { key: 'owner', label: 'Owner', state: 'done', detail: `${owner.email} has signed up as the owner.`, fix: null }
      : owner?.status === 'invited'
        ? {
            key: 'owner',
            label: 'Owner',
            state: 'attention',
            detail: `${owner.email} is invited and has not signed up yet.`,
            fix: step('owner', 'Invite again'),
          }
        : {
            key: 'owner',
            label: 'Owner',
            state: 'missing',
            detail: owner ? `The invitation to ${owner.email} expired.` : 'Nobody is invited to own the organization.',
            fix: step('owner', 'Invite the owner'),
          },
  );

  const zones = [...new Set(state.sites.map((site) => site.timeZone))];
  items.push(
    state.sites.length
      ? {
          key: 'sites',
          label: 'Sites and time zones',
          state: 'done',
          detail: `${state.sites.length === 1 ? '1 site' : `${state.sites.length} sites`}, in ${zones.join(', ')}.`,
          fix: null,
        }
      : {
          key: 'sites',
          label: 'Sites and time zones',
          state: 'missing',
          detail: 'No site yet: visits and calling hours need a site with its time zone.',
          fix: step('sites', 'Add sites'),
        },
  );

  const trial = state.trial;
  items.push(
    trial
      ? {
          key: 'trial',
          label: 'First trial',
          state: 'done',
          detail: `${trial.title}${trial.nctId ? ` (${trial.nctId})` : ''}: ${trial.ownSiteCount} of ${trial.siteCount} sites are ours.`,
          fix: null,
        }
      : { key: 'trial', label: 'First trial', state: 'missing', detail: 'No trial imported yet.', fix: step('trial', 'Import a trial') },
  );
  items.push(
    trial?.status === 'recruiting'
      ? { key: 'recruiting', label: 'Recruiting', state: 'done', detail: 'The trial is recruiting.', fix: null }
      : trial
        ? {
            key: 'recruiting',
            label: 'Recruiting',
            state: 'missing',
            detail: `The trial is ${trial.status}: review it and start recruiting (calls and the public chat need a recruiting trial).`,
            fix: { label: 'Open the trial', target: 'trial', id: trial.id },
          }
        : { key: 'recruiting', label: 'Recruiting', state: 'missing', detail: 'No trial to recruit for yet.', fix: step('trial', 'Import a trial') },
  );

  const form = state.prescreenForm;
  items.push(
    form?.status === 'published'
      ? {
          key: 'prescreen_form',
          label: 'Prescreen form',
          state: 'done',
          detail: `${form.name} is published (${form.questionCount === 1 ? '1 question' : `${form.questionCount} questions`}).`,
          fix: null,
        }
      : form
        ? {
            key: 'prescreen_form',
            label: 'Prescreen form',
            state: 'missing',
            detail: `${form.name} is ${form.status}: agents ask only a published form.`,
            fix: { label: 'Open the form', target: 'prescreen-form', id: form.id },
          }
        : { key: 'prescreen_form', label: 'Prescreen form', state: 'missing', detail: 'No prescreen form yet.', fix: step('agents', 'Create the agents') },
  );
  for (const [key, label, agent, target] of [
    ['chat_agent', 'Chat agent', state.chatAgent, 'chat-agents'],
    ['voice_agent', 'Prescreen voice agent', state.voiceAgent, 'voice-agents'],
  ] as const) {
    items.push(
      agent?.active
        ? { key, label, state: 'done', detail: `${agent.name} is active.`, fix: null }
        : agent
          ? { key, label, state: 'missing', detail: `${agent.name} is inactive.`, fix: { label: 'Open the agents', target } }
          : { key, label, state: 'missing', detail: `No ${label.toLowerCase()} yet.`, fix: step('agents', 'Create the agents') },
    );
  }
  items.push(
    state.sequence?.status === 'active'
      ? { key: 'sequence', label: 'Starter sequence', state: 'done', detail: `${state.sequence.name} is ready for staff to enroll candidates.`, fix: null }
      : {
          key: 'sequence',
          label: 'Starter sequence',
          state: 'missing',
          detail: state.sequence ? `${state.sequence.name} is archived.` : 'No starter sequence yet.',
          fix: step('sequence', 'Create a sequence'),
        },
  );

  const phoneNumbers = { label: 'Open phone numbers', target: 'phone-numbers' as const };
  const smsNumber = numbers.find((number) => number.purpose === 'sms' || number.purpose === 'both');
  if (deps.sms.provider === 'twilio') {
    items.push(
      smsNumber
        ? {
            key: 'sms',
            label: 'SMS (Twilio)',
            state: 'done',
            detail: `Twilio is configured; the organization's texting number is ${smsNumber.number}.`,
            fix: null,
          }
        : {
            key: 'sms',
            label: 'SMS (Twilio)',
            state: 'missing',
            detail: 'No Twilio number configured for the organization: texts go out from the shared sender and replies cannot be told apart.',
            fix: phoneNumbers,
          },
    );
  } else {
    items.push({
      key: 'sms',
      label: 'SMS',
      state: 'attention',
      detail: 'SMS simulator in use: texts are recorded, not sent. Configure Twilio (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and a sender) to send them.',
      fix: smsNumber ? null : phoneNumbers,
    });
  }
  const voiceNumber = numbers.find((number) => VOICE_PURPOSES.includes(number.purpose));
  if (deps.voice.provider === 'vapi') {
    items.push(
      voiceNumber
        ? {
            key: 'voice',
            label: 'Calls (Vapi)',
            state: 'done',
            detail: `Vapi is configured; the organization's voice number is ${voiceNumber.number}.`,
            fix: null,
          }
        : {
            key: 'voice',
            label: 'Calls (Vapi)',
            state: 'missing',
            detail: 'No voice number for the organization: inbound calls cannot reach its agents.',
            fix: phoneNumbers,
          },
    );
  } else {
    items.push({
      key: 'voice',
      label: 'Calls',
      state: 'attention',
      detail: 'Voice simulator in use: calls are simulated. Configure Vapi (VAPI_API_KEY) to place real calls.',
      fix: voiceNumber ? null : phoneNumbers,
    });
  }

  return {
    onboardingId: state.id,
    organizationId: state.organizationId,
    items,
    doneCount: items.filter((item) => item.state === 'done').length,
    total: items.length,
  };
}
