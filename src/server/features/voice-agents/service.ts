import {
  VisitScheduleSchema,
  type CreateVoiceAgentInput,
  type ListVoiceAgentsQuery,
  type UpdateVoiceAgentInput,
  type VisitSchedule,
  type VoiceAgent,
} from '../../../contract/voice';
import { type StudyBlock, patientQuestions } from '../../../contract/prescreen-forms';
import { canReach, runScoped, selectOrganizations, type RequestScope } from '../../auth/scope';
import type { Transaction } from '../../db/scoped';
import type { AppDeps } from '../../http/context';
import { AppError, badRequest, conflict, notFound } from '../../http/errors';
import { VoiceProviderError, type ScriptQuestion } from '../../integrations/voice/port';
import { recordAudit, rowChange } from '../../audit';
import { findForm, findFormVersion } from '../prescreen/service';
import { isValidTimeZone } from '../../../contract/time-zones';
import { findTrialRow, type TrialRow } from '../trials/service';
import { scheduleSites } from '../trials/sites';
import { siteLabel } from '../../../contract/trials';
import { VOICE_PURPOSES } from '../../../contract/phone-numbers';
import { findPhoneNumberByNumber } from '../phone-numbers/service';
import {
  type CallFor,
  deleteVoiceAgent,
  findVoiceAgent,
  insertVoiceAgent,
  listVoiceAgentRows,
  trialsWithoutAgent,
  updateVoiceAgent,
  type VoiceAgentInsert,
  type VoiceAgentRow,
} from './queries';
import { shortTrialTitle } from '../../../contract/trial-name';
import { isUuid } from '../../../contract/ids';

// What other features may read and write of this one (its queries.ts is its own; tests/unit/architecture.test.ts).
export { activeVoiceAgent, findVoiceAgent } from './queries';
export type { ActiveVoiceAgent, CallFor, VoiceAgentRow } from './queries';

const AGENT_KIND: Record<VoiceAgentRow['type'], string> = { PRESCREEN: 'prescreen', SITE_VISIT_SCHEDULING: 'scheduling' };

/**
 * Why no voice agent of the type may call this person, in plain words for staff (decision 174): the trials it
 * could have been for by their short names, or that the person is in no trial at all.
 */
export async function noAgentWords(tx: Transaction, type: VoiceAgentRow['type'], forCall: CallFor): Promise<string> {
  const trials = await trialsWithoutAgent(tx, forCall);
  if (trials.length === 0) return 'This person is not in any trial, so no voice agent asks them questions. Add them to a trial first.';
  const names = trials.map((named) => shortTrialTitle(named));
  const listed = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
  return `No active ${AGENT_KIND[type]} voice agent for ${listed}. Create or turn one on under Voice agents.`;
}

export type VoiceDeps = Pick<AppDeps, 'db' | 'voice' | 'config' | 'logger'>;

export function toVoiceAgent(row: VoiceAgentRow): VoiceAgent {
  return {
    id: row.id,
    organizationId: row.organizationId,
    name: row.name,
    type: row.type,
    trialId: row.trialId,
    prescreenFormId: row.prescreenFormId,
    schedule: row.schedule,
    languages: row.languages,
    voice: row.voice,
    firstMessage: row.firstMessage,
    voicemailMessage: row.voicemailMessage,
    callingHoursStart: row.callingHoursStart,
    callingHoursEnd: row.callingHoursEnd,
    fromNumber: row.fromNumber,
    providerAssistantId: row.providerAssistantId,
    active: row.active,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A voice agent within the scope, or 404 (malformed, another organization's and missing alike). */
export async function voiceAgentInScope(tx: Transaction, scope: RequestScope, id: string): Promise<VoiceAgentRow> {
  const row = await findVoiceAgent(tx, id);
  if (!row || !canReach(scope, row.organizationId)) throw notFound('Voice agent not found');
  return row;
}

/** The phone wording of the questions of a form's current version (the agent's script). */
export async function scriptOf(tx: Transaction, formId: string | null): Promise<ScriptQuestion[]> {
  if (!formId) return [];
  const form = await findForm(tx, formId);
  if (!form) return [];
  const version = await findFormVersion(tx, form.id, form.currentVersion);
  // site_review items are for staff: never in the agent's script.
  return patientQuestions((version?.blocks ?? []) as StudyBlock[]).map((question) => ({
    id: question.id,
    type: question.type,
    phone: question.wording.phone,
    options: question.options,
  }));
}

/**
 * A PRESCREEN agent asks a published prescreen form of its trial (both in the agent's organization: 404
 * outside the scope, 400 when the form is another trial's, 409 when it is not published).
 */
async function checkPrescreenSetup(
  tx: Transaction,
  scope: RequestScope,
  organizationId: string,
  trialId: string | null | undefined,
  formId: string | null | undefined,
) {
  if (!trialId) throw badRequest('trialId: A prescreen agent needs a trial', [{ path: 'trialId', message: 'Required for PRESCREEN agents' }]);
  if (!formId)
    throw badRequest('prescreenFormId: A prescreen agent needs a prescreen form', [{ path: 'prescreenFormId', message: 'Required for PRESCREEN agents' }]);
  await checkTrial(tx, scope, organizationId, trialId);
  const form = await findForm(tx, formId);
  if (!form || !canReach(scope, form.organizationId) || form.organizationId !== organizationId) throw notFound('Prescreen form not found');
  if (form.trialId !== trialId)
    throw badRequest('prescreenFormId: Not a prescreen form of this trial', [{ path: 'prescreenFormId', message: 'Not a prescreen form of this trial' }]);
  if (form.status !== 'published') throw conflict('Publish the prescreen form before giving it to a voice agent');
}

async function checkTrial(tx: Transaction, scope: RequestScope, organizationId: string, trialId: string): Promise<TrialRow> {
  const trial = isUuid(trialId) ? await findTrialRow(tx, trialId) : undefined;
  if (!trial || !canReach(scope, trial.organizationId) || trial.organizationId !== organizationId) throw notFound('Trial not found');
  return trial;
}

/**
 * A SITE_VISIT_SCHEDULING agent books visits of its trial: it needs the trial (404 outside the scope) and a
 * valid VisitSchedule whose sites are sites of that trial with a time zone (slots are wall-clock times there).
 * Answers the schedule to store: defaults filled in, site names as the trial spells them.
 */
async function checkSchedulingSetup(
  tx: Transaction,
  scope: RequestScope,
  organizationId: string,
  trialId: string | null | undefined,
  schedule: unknown,
): Promise<VisitSchedule> {
  if (!trialId) throw badRequest('trialId: A scheduling agent needs a trial', [{ path: 'trialId', message: 'Required for SITE_VISIT_SCHEDULING agents' }]);
  const parsed = VisitScheduleSchema.safeParse(schedule ?? {});
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => ({ path: ['schedule', ...issue.path.map(String)].join('.'), message: issue.message }));
    throw badRequest(details.map((detail) => `${detail.path}: ${detail.message}`).join('; '), details);
  }
  const trial = await checkTrial(tx, scope, organizationId, trialId);
  const { found, unknown, ambiguous } = scheduleSites(trial.sites, parsed.data.sites);
  if (unknown.length)
    throw badRequest(`schedule.sites: Not a site of this trial: ${unknown.join(', ')}`, [{ path: 'schedule.sites', message: 'Not a site of this trial' }]);
  if (ambiguous.length) {
    throw badRequest(`schedule.sites: Several sites of this trial are named ${ambiguous.join(', ')}: choose them by site`, [
      { path: 'schedule.sites', message: 'Several sites have this name' },
    ]);
  }
  const zoneless = found.filter((site) => !site.timeZone || !isValidTimeZone(site.timeZone)).map((site) => siteLabel(site));
  if (zoneless.length) {
    throw badRequest(`schedule.sites: Give these sites a time zone on the trial first: ${zoneless.join('; ')}`, [
      { path: 'schedule.sites', message: 'The site has no valid time zone' },
    ]);
  }
  // Stored by id: a site's name is not unique (many sponsors call every site "Research Site").
  return { ...parsed.data, sites: found.map((site) => site.id) };
}

/**
 * An agent calls from one of its organization's registry numbers (decision 016): a number the organization
 * does not own is a 400 naming fromNumber, whether another organization owns it or nobody does (the answer
 * never tells which). SMS-only numbers cannot take calls.
 */
async function checkFromNumber(tx: Transaction, organizationId: string, number: string): Promise<void> {
  const row = await findPhoneNumberByNumber(tx, number);
  if (!row || row.organizationId !== organizationId) {
    const message = "Not one of this organization's phone numbers: choose one of its numbers, or ask Cohortly to assign one";
    throw badRequest(`fromNumber: ${message}`, [{ path: 'fromNumber', message }]);
  }
  if (!(VOICE_PURPOSES as readonly string[]).includes(row.purpose)) {
    const message = 'This number is for SMS only: choose a voice number';
    throw badRequest(`fromNumber: ${message}`, [{ path: 'fromNumber', message }]);
  }
}

/** With Vapi: creates or updates the assistant and stores its id (inside the transaction: a refusal saves nothing). */
async function syncAssistant(deps: VoiceDeps, tx: Transaction, row: VoiceAgentRow): Promise<VoiceAgentRow> {
  let saved: { assistantId: string } | null;
  try {
    saved = await deps.voice.saveAssistant(
      {
        agentId: row.id,
        organizationId: row.organizationId,
        name: row.name,
        type: row.type,
        languages: row.languages,
        voice: row.voice,
        firstMessage: row.firstMessage,
        voicemailMessage: row.voicemailMessage,
        questions: row.type === 'PRESCREEN' ? await scriptOf(tx, row.prescreenFormId) : [],
        publicBaseUrl: deps.config.publicBaseUrl,
      },
      row.providerAssistantId,
    );
  } catch (error) {
    if (error instanceof VoiceProviderError) {
      deps.logger.warn({ agentId: row.id, code: error.code }, 'voice assistant sync failed');
      throw new AppError(502, `The voice provider did not save the assistant: ${error.message}`, 'VOICE_PROVIDER_ERROR');
    }
    throw error;
  }
  if (!saved || saved.assistantId === row.providerAssistantId) return row;
  return updateVoiceAgent(tx, row.id, { providerAssistantId: saved.assistantId });
}

const SAFE_FIELDS = ['name', 'type', 'trialId', 'prescreenFormId', 'languages', 'voice', 'callingHoursStart', 'callingHoursEnd', 'active'] as const;

export async function listVoiceAgents(deps: VoiceDeps, scope: RequestScope, query: ListVoiceAgentsQuery) {
  const organizationIds = selectOrganizations(scope, query.organizationId, query.organizationIds, query.orgs);
  return runScoped(deps.db, scope, async (tx) => {
    const rows = await listVoiceAgentRows(tx, organizationIds, query.type);
    return { voiceAgents: rows.map(toVoiceAgent), total: rows.length };
  });
}

export async function getVoiceAgent(deps: VoiceDeps, scope: RequestScope, id: string): Promise<VoiceAgent> {
  return runScoped(deps.db, scope, async (tx) => toVoiceAgent(await voiceAgentInScope(tx, scope, id)));
}

export async function createVoiceAgent(deps: VoiceDeps, scope: RequestScope, input: CreateVoiceAgentInput): Promise<VoiceAgent> {
  const organizationId = input.organizationId ?? scope.activeOrganization.id;
  if (!canReach(scope, organizationId)) throw notFound('Organization not found');
  return runScoped(deps.db, scope, async (tx) => {
    let schedule = input.schedule ?? {};
    if (input.type === 'PRESCREEN') await checkPrescreenSetup(tx, scope, organizationId, input.trialId, input.prescreenFormId);
    else schedule = await checkSchedulingSetup(tx, scope, organizationId, input.trialId, input.schedule);
    if (input.fromNumber) await checkFromNumber(tx, organizationId, input.fromNumber);
    const values: VoiceAgentInsert = {
      organizationId,
      name: input.name,
      type: input.type,
      trialId: input.trialId ?? null,
      prescreenFormId: input.type === 'PRESCREEN' ? (input.prescreenFormId ?? null) : null,
      schedule,
      languages: input.languages ?? ['en', 'es'],
      voice: input.voice ?? 'default',
      firstMessage: input.firstMessage,
      voicemailMessage: input.voicemailMessage,
      callingHoursStart: input.callingHoursStart ?? '08:00',
      callingHoursEnd: input.callingHoursEnd ?? '21:00',
      fromNumber: input.fromNumber ?? null,
      active: input.active ?? true,
    };
    let row = await insertVoiceAgent(tx, values);
    row = await syncAssistant(deps, tx, row);
    await recordAudit(tx, {
      organizationId,
      actorUserId: scope.userId,
      action: 'voice_agent.create',
      entityType: 'voice_agent',
      entityId: row.id,
      changes: { ...Object.fromEntries(SAFE_FIELDS.map((key) => [key, row[key]])), providerAssistantId: row.providerAssistantId },
    });
    return toVoiceAgent(row);
  });
}

export async function updateVoiceAgentById(deps: VoiceDeps, scope: RequestScope, id: string, input: UpdateVoiceAgentInput): Promise<VoiceAgent> {
  return runScoped(deps.db, scope, async (tx) => {
    const row = await voiceAgentInScope(tx, scope, id);
    const start = input.callingHoursStart ?? row.callingHoursStart;
    const end = input.callingHoursEnd ?? row.callingHoursEnd;
    if (start >= end)
      throw badRequest('callingHoursEnd: Calling hours must start before they end', [
        { path: 'callingHoursEnd', message: 'Calling hours must start before they end' },
      ]);
    const trialId = input.trialId === undefined ? row.trialId : input.trialId;
    const formId = input.prescreenFormId === undefined ? row.prescreenFormId : input.prescreenFormId;
    const changes = { ...input };
    if (row.type === 'PRESCREEN' && (input.trialId !== undefined || input.prescreenFormId !== undefined))
      await checkPrescreenSetup(tx, scope, row.organizationId, trialId, formId);
    else if (row.type === 'SITE_VISIT_SCHEDULING' && (input.trialId !== undefined || input.schedule !== undefined)) {
      changes.schedule = await checkSchedulingSetup(tx, scope, row.organizationId, trialId, input.schedule ?? row.schedule);
    } else if (input.trialId) await checkTrial(tx, scope, row.organizationId, input.trialId);
    if (input.fromNumber && input.fromNumber !== row.fromNumber) await checkFromNumber(tx, row.organizationId, input.fromNumber);
    const update: Partial<VoiceAgentInsert> = {};
    const fields: string[] = [];
    for (const key of [
      'name',
      'trialId',
      'prescreenFormId',
      'schedule',
      'languages',
      'voice',
      'firstMessage',
      'voicemailMessage',
      'callingHoursStart',
      'callingHoursEnd',
      'fromNumber',
      'active',
    ] as const) {
      if (changes[key] === undefined) continue;
      if (JSON.stringify(changes[key]) === JSON.stringify(row[key])) continue;
      (update as Record<string, unknown>)[key] = changes[key];
      fields.push(key);
    }
    if (fields.length === 0) return toVoiceAgent(row);
    let updated = await updateVoiceAgent(tx, row.id, update);
    updated = await syncAssistant(deps, tx, updated);
    const safe = Object.fromEntries(
      fields.filter((key) => (SAFE_FIELDS as readonly string[]).includes(key)).map((key) => [key, (update as Record<string, unknown>)[key]]),
    );
    await recordAudit(tx, rowChange(scope.userId, row, 'voice_agent.update', 'voice_agent', { fields, ...safe }));
    return toVoiceAgent(updated);
  });
}

/** Deletes an agent; its calls stay (without an agent) for the record. The Vapi assistant is left in place. */
export async function deleteVoiceAgentById(deps: VoiceDeps, scope: RequestScope, id: string): Promise<void> {
  await runScoped(deps.db, scope, async (tx) => {
    const row = await voiceAgentInScope(tx, scope, id);
    await deleteVoiceAgent(tx, row.id);
    await recordAudit(tx, rowChange(scope.userId, row, 'voice_agent.delete', 'voice_agent', { name: row.name, type: row.type }));
  });
}
