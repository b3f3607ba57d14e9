import {
  DEFAULT_CHAT_AGENT,
  DEFAULT_VOICE_AGENT,
  STARTER_SEQUENCE_TEMPLATES,
  type CreateOnboardingAgentsInput,
  type CreateStarterSequenceInput,
  type ImportOnboardingTrialInput,
  type InviteOwnerInput,
  type Onboarding,
  type SaveOrganizationSitesInput,
} from '../../../contract/onboarding';
import { CreateChatAgentSchema } from '../../../contract/chat';
import { VOICE_PURPOSES } from '../../../contract/phone-numbers';
import { CreateSequenceSchema } from '../../../contract/sequences';
import { CreateVoiceAgentSchema } from '../../../contract/voice';
import { runScoped, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import { conflict } from '../../http/errors';
import { recordAudit } from '../../audit';
import { createAgent, findAgentRow } from '../chat/agent-service';

import { listOrganizationSites, markOwnSites, replaceOrganizationSites } from '../organizations/sites';
import { listPhoneNumberRows } from '../phone-numbers/service';
import { createForm, generateStudyBlocks, updateForm, findFormRow } from '../prescreen-forms/service';
import { autoGenerate, updateTrial, findTrialRow } from '../trials/service';
import { createSequence } from '../sequences/service';
import { readSites } from '../trials/sites';
import { addUser, revokeInvitation } from '../users/service';
import { createVoiceAgent, findVoiceAgent } from '../voice-agents/service';
import { findSequenceSummary, ownerInvitationsOf, ownersOf, type ListedOnboardingRow } from './queries';
import { load, onboardingInScope, unlessGone, remember, type OnboardingDeps } from './onboarding-record';

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
  return { ...(await load(deps.db, scope, listed.onboarding.id)), ...(result.invitationUrl ? { ownerInvitationUrl: result.invitationUrl } : {}) };
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
