import { shortTrialTitle } from '../../../contract/trial-name';
import type { ChatAgent, ChatAgentList, CreateChatAgentInput, ListChatAgentsQuery, UpdateChatAgentInput } from '../../../contract/chat';
import type { Language } from '../../../contract/prescreen-forms';
import { canReach, runScoped, selectOrganizations, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import type { Transaction } from '../../db/scoped';
import { badRequest, notFound } from '../../http/errors';
import { recordAudit, rowChange } from '../../audit';
import { findForm } from '../prescreen/service';
import { findTrialRow } from '../trials/service';
import {
  deleteAgentRow,
  findAgentRow,
  insertAgentRow,
  listAgentRows,
  listedAgent,
  updateAgentRow,
  type AgentInsert,
  type AgentRow,
  type ListedAgentRow,
} from './queries';
import { isUuid } from '../../../contract/ids';

// What other features may read and write of this one (its queries.ts is its own; tests/unit/architecture.test.ts).
export { findAgentRow } from './queries';

/** Chat agents (staff): which trial and prescreen form a chat runs, how it greets, closes and verifies. */

export function toChatAgent({ agent, trialTitle, trialPublicTitle, trialStatus, formName, formStatus }: ListedAgentRow): ChatAgent {
  return {
    id: agent.id,
    organizationId: agent.organizationId,
    name: agent.name,
    type: agent.type,
    trialId: agent.trialId,
    // The agents table's cell: the trial's short name (issue 32).
    trialTitle: trialTitle ? shortTrialTitle({ title: trialTitle, publicTitle: trialPublicTitle }) : null,
    trialStatus: trialStatus ?? null,
    prescreenFormId: agent.prescreenFormId,
    prescreenFormName: formName ?? null,
    prescreenFormStatus: formStatus ?? null,
    greeting: agent.greeting,
    closingMessage: agent.closingMessage,
    languages: agent.languages as Language[],
    requirePhoneVerification: agent.requirePhoneVerification,
    nextStep: agent.nextStep,
    active: agent.active,
    createdAt: agent.createdAt.toISOString(),
    updatedAt: agent.updatedAt.toISOString(),
  };
}

/** An agent within the scope, or 404 (malformed, another organization's and missing alike). */
export async function agentInScope(tx: Transaction, scope: RequestScope, id: string): Promise<AgentRow> {
  const row = await findAgentRow(tx, id);
  if (!row || !canReach(scope, row.organizationId)) throw notFound('Chat agent not found');
  return row;
}

async function load(tx: Transaction, id: string): Promise<ChatAgent> {
  const row = await listedAgent(tx, id);
  if (!row) throw notFound('Chat agent not found');
  return toChatAgent(row);
}

/**
 * The trial (in scope; 404 otherwise) and the form, which must be a form of that trial (400 naming
 * prescreenFormId otherwise). Returns the organization they belong to.
 */
async function checkTrialAndForm(tx: Transaction, scope: RequestScope, trialId: string, formId: string): Promise<string> {
  const trial = isUuid(trialId) ? await findTrialRow(tx, trialId) : undefined;
  if (!trial || !canReach(scope, trial.organizationId)) throw notFound('Trial not found');
  const form = isUuid(formId) ? await findForm(tx, formId) : undefined;
  if (!form || !canReach(scope, form.organizationId)) throw notFound('Prescreen form not found');
  if (form.trialId !== trial.id || form.organizationId !== trial.organizationId) {
    throw badRequest('prescreenFormId: Not a prescreen form of this trial', [{ path: 'prescreenFormId', message: 'Not a prescreen form of this trial' }]);
  }
  return trial.organizationId;
}

export async function listAgents(db: Database, scope: RequestScope, query: ListChatAgentsQuery): Promise<ChatAgentList> {
  const organizationIds = selectOrganizations(scope, query.organizationId, query.organizationIds, query.orgs);
  return runScoped(db, scope, async (tx) => {
    const rows = await listAgentRows(tx, organizationIds, { type: query.type, search: query.search });
    return { chatAgents: rows.map(toChatAgent), total: rows.length };
  });
}

export async function getAgent(db: Database, scope: RequestScope, id: string): Promise<ChatAgent> {
  return runScoped(db, scope, async (tx) => load(tx, (await agentInScope(tx, scope, id)).id));
}

export async function createAgent(db: Database, scope: RequestScope, input: CreateChatAgentInput): Promise<ChatAgent> {
  return runScoped(db, scope, async (tx) => {
    const organizationId = await checkTrialAndForm(tx, scope, input.trialId, input.prescreenFormId);
    const row = await insertAgentRow(tx, {
      organizationId,
      name: input.name,
      type: input.type,
      trialId: input.trialId,
      prescreenFormId: input.prescreenFormId,
      greeting: input.greeting,
      closingMessage: input.closingMessage,
      languages: input.languages,
      requirePhoneVerification: input.requirePhoneVerification,
      nextStep: input.nextStep,
      active: input.active,
    });
    await recordAudit(tx, {
      organizationId,
      actorUserId: scope.userId,
      action: 'chat_agent.create',
      entityType: 'chat_agent',
      entityId: row.id,
      changes: {
        name: row.name,
        trialId: row.trialId,
        prescreenFormId: row.prescreenFormId,
        requirePhoneVerification: row.requirePhoneVerification,
        nextStep: row.nextStep,
        active: row.active,
      },
    });
    return load(tx, row.id);
  });
}

export async function updateAgent(db: Database, scope: RequestScope, id: string, input: UpdateChatAgentInput): Promise<ChatAgent> {
  return runScoped(db, scope, async (tx) => {
    const row = await agentInScope(tx, scope, id);
    if (input.trialId !== undefined || input.prescreenFormId !== undefined) {
      const trialId = input.trialId ?? row.trialId;
      const formId = input.prescreenFormId ?? row.prescreenFormId;
      if (!trialId || !formId)
        throw badRequest('prescreenFormId: Give both the trial and its prescreen form', [{ path: 'prescreenFormId', message: 'Required with trialId' }]);
      const organizationId = await checkTrialAndForm(tx, scope, trialId, formId);
      if (organizationId !== row.organizationId) throw notFound('Trial not found');
    }
    const update: Partial<AgentInsert> = {};
    const fields: string[] = [];
    for (const key of [
      'name',
      'trialId',
      'prescreenFormId',
      'greeting',
      'closingMessage',
      'languages',
      'requirePhoneVerification',
      'nextStep',
      'active',
    ] as const) {
      if (input[key] === undefined) continue;
      if (JSON.stringify(input[key]) === JSON.stringify(row[key])) continue;
      (update as Record<string, unknown>)[key] = input[key];
      fields.push(key);
    }
    if (fields.length === 0) return load(tx, row.id);
    await updateAgentRow(tx, row.id, update);
    const safe = Object.fromEntries(
      fields.filter((key) => !['greeting', 'closingMessage'].includes(key)).map((key) => [key, (update as Record<string, unknown>)[key]]),
    );
    await recordAudit(tx, rowChange(scope.userId, row, 'chat_agent.update', 'chat_agent', { fields, ...safe }));
    return load(tx, row.id);
  });
}

/** Deletes an agent; its conversations stay (without an agent) for the record. */
export async function deleteAgent(db: Database, scope: RequestScope, id: string): Promise<void> {
  await runScoped(db, scope, async (tx) => {
    const row = await agentInScope(tx, scope, id);
    await deleteAgentRow(tx, row.id);
    await recordAudit(tx, rowChange(scope.userId, row, 'chat_agent.delete', 'chat_agent', { name: row.name }));
  });
}
