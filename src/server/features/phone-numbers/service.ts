import type {
  AssignPhoneNumberInput,
  ListPhoneNumbersQuery,
  PhoneNumber,
  PhoneNumberList,
  PhoneNumberProvider,
  UpdatePhoneNumberInput,
} from '../../../contract/phone-numbers';
import { canReach, runScoped, selectOrganizations, type RequestScope } from '../../auth/scope';
import type { Transaction } from '../../db/scoped';
import { isUniqueViolation } from '../../db/postgres';
import type { AppDeps } from '../../http/context';
import { AppError, forbidden, notFound } from '../../http/errors';
import { SmsSendError } from '../../integrations/sms/port';
import { VoiceProviderError } from '../../integrations/voice/port';
import { recordAudit, rowChange } from '../../audit';

import {
  agentsUsingNumbers,
  clearAgentNumbers,
  deletePhoneNumberRow,
  findPhoneNumber,
  findPhoneNumberByNumber,
  insertPhoneNumber,
  listPhoneNumberRows,
  organizationName,
  updatePhoneNumberRow,
  type PhoneNumberRow,
  type VoiceAgentRow,
} from './queries';

// What other features may read and write of this one (its queries.ts is its own; tests/unit/architecture.test.ts).
export { findPhoneNumberByNumber, listPhoneNumberRows, organizationSmsNumber, systemFindNumberOwner, systemResolveInboundAgent } from './queries';

/**
 * The phone-number registry (decision 016): every number belongs to one organization. Staff list their own
 * organization's numbers; only internal admins with the Cohortly organization active (global scope) assign,
 * change, move or release them. A number an active agent calls from cannot be released or moved (409).
 */

export type PhoneNumberDeps = Pick<AppDeps, 'db' | 'voice' | 'sms' | 'logger'>;

function toPhoneNumber(row: PhoneNumberRow, orgName: string, agents: VoiceAgentRow[]): PhoneNumber {
  return {
    id: row.id,
    organizationId: row.organizationId,
    organizationName: orgName,
    number: row.number,
    provider: row.provider,
    purpose: row.purpose,
    label: row.label,
    providerId: row.providerId,
    agents: agents
      .filter((agent) => agent.organizationId === row.organizationId && agent.fromNumber === row.number)
      .map((agent) => ({ id: agent.id, name: agent.name, active: agent.active })),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const ADMIN_ONLY = "Only Cohortly's internal admins assign phone numbers (with the Cohortly organization active)";

/** Assigning, changing and releasing numbers: internal admins in global scope only. */
function requireGlobalAdmin(scope: RequestScope) {
  if (!scope.isAdmin || !scope.global) throw forbidden(ADMIN_ONLY);
}

/** A number in scope, or 404 (malformed, another organization's and missing alike). */
async function phoneNumberInScope(tx: Transaction, scope: RequestScope, id: string, forUpdate = false): Promise<PhoneNumberRow> {
  const row = await findPhoneNumber(tx, id, forUpdate);
  if (!row || !canReach(scope, row.organizationId)) throw notFound('Phone number not found');
  return row;
}

async function withDetails(tx: Transaction, row: PhoneNumberRow): Promise<PhoneNumber> {
  return toPhoneNumber(row, await organizationName(tx, row.organizationId), await agentsUsingNumbers(tx, [row]));
}

export async function listPhoneNumbers(deps: PhoneNumberDeps, scope: RequestScope, query: ListPhoneNumbersQuery): Promise<PhoneNumberList> {
  const organizationIds = selectOrganizations(scope, query.organizationId, query.organizationIds, query.orgs);
  return runScoped(deps.db, scope, async (tx) => {
    const rows = await listPhoneNumberRows(tx, organizationIds, query.purpose);
    const agents = await agentsUsingNumbers(tx, rows);
    return { phoneNumbers: rows.map((row) => toPhoneNumber(row, row.organizationName, agents)), total: rows.length };
  });
}

/** The provider a number is assigned with when the request names none: the configured one. */
export function defaultProvider(deps: Pick<PhoneNumberDeps, 'voice' | 'sms'>): PhoneNumberProvider {
  if (deps.voice.provider === 'vapi') return 'vapi';
  if (deps.sms.provider === 'twilio') return 'twilio';
  return 'simulator';
}

/**
 * Checks that the configured provider account holds the number (Twilio: IncomingPhoneNumbers; Vapi: GET
 * /phone-number) and answers the provider's id for it. Simulator numbers are only accepted while no real
 * provider is configured: in a real installation they would never ring.
 */
async function verifyWithProvider(deps: PhoneNumberDeps, provider: PhoneNumberProvider, number: string): Promise<string | null> {
  const refuse = (message: string, code: string) => new AppError(409, message, code, [{ path: 'provider', message }]);
  if (provider === 'simulator') {
    if (deps.voice.provider === 'vapi' || deps.sms.provider === 'twilio')
      throw refuse('A real provider is configured: assign the number as a twilio or vapi number', 'PROVIDER_CONFIGURED');
    return null;
  }
  const port = provider === 'vapi' ? deps.voice : deps.sms;
  const name = provider === 'vapi' ? 'Vapi' : 'Twilio';
  if (!port.findOwnNumber)
    throw refuse(`${name} is not connected: ask an administrator to connect the ${provider === 'vapi' ? 'Vapi' : 'Twilio'} account`, 'PROVIDER_NOT_CONFIGURED');
  let found: { providerId: string } | null;
  try {
    found = await port.findOwnNumber(number);
  } catch (error) {
    if (error instanceof VoiceProviderError || error instanceof SmsSendError) {
      deps.logger.warn({ provider, code: error.code }, 'phone number verification failed');
      throw new AppError(502, `${name} could not be asked about the number: ${error.message}`, 'PROVIDER_ERROR');
    }
    throw error;
  }
  if (!found) {
    const message = `This number is not in the configured ${name} account`;
    throw new AppError(409, message, 'NUMBER_NOT_IN_ACCOUNT', [{ path: 'number', message }]);
  }
  return found.providerId;
}

const taken = (orgName: string) => {
  const message = `This number is already assigned to ${orgName || 'another organization'}`;
  return new AppError(409, message, 'NUMBER_TAKEN', [{ path: 'number', message }]);
};

export async function assignPhoneNumber(deps: PhoneNumberDeps, scope: RequestScope, input: AssignPhoneNumberInput): Promise<PhoneNumber> {
  if (!canReach(scope, input.organizationId)) throw notFound('Organization not found');
  requireGlobalAdmin(scope);
  const provider = input.provider ?? defaultProvider(deps);
  // Cheap check first, so that a taken number does not cost a provider round trip.
  const existing = await runScoped(deps.db, scope, (tx) => findPhoneNumberByNumber(tx, input.number));
  if (existing) throw taken(await runScoped(deps.db, scope, (tx) => organizationName(tx, existing.organizationId)));
  const providerId = await verifyWithProvider(deps, provider, input.number);
  try {
    return await runScoped(deps.db, scope, async (tx) => {
      const row = await insertPhoneNumber(tx, {
        organizationId: input.organizationId,
        number: input.number,
        provider,
        purpose: input.purpose,
        label: input.label || null,
        providerId,
      });
      await recordAudit(
        tx,
        rowChange(scope.userId, row, 'phone_number.assign', 'phone_number', { provider, purpose: row.purpose, verified: providerId !== null }),
      );
      return withDetails(tx, row);
    });
  } catch (error) {
    // Two admins assigning the same number at once: the unique index decides.
    if (isUniqueViolation(error)) throw taken('');
    throw error;
  }
}

function inUse(agents: VoiceAgentRow[], what: string) {
  const names = agents.map((agent) => agent.name).join(', ');
  return new AppError(
    409,
    `Active voice agents call from this number (${names}): give them another number or deactivate them before you ${what} it`,
    'PHONE_NUMBER_IN_USE',
  );
}

export async function updatePhoneNumber(deps: PhoneNumberDeps, scope: RequestScope, id: string, input: UpdatePhoneNumberInput): Promise<PhoneNumber> {
  return runScoped(deps.db, scope, async (tx) => {
    const row = await phoneNumberInScope(tx, scope, id, true);
    requireGlobalAdmin(scope);
    const moving = input.organizationId !== undefined && input.organizationId !== row.organizationId;
    if (moving && !canReach(scope, input.organizationId!)) throw notFound('Organization not found');
    const agents = await agentsUsingNumbers(tx, [row]);
    const active = agents.filter((agent) => agent.active);
    const voiceless = input.purpose === 'sms' && row.purpose !== 'sms';
    if (moving && active.length) throw inUse(active, 'move');
    if (voiceless && active.length) throw inUse(active, 'make an SMS-only number of');
    const changes: Partial<PhoneNumberRow> = {};
    if (input.label !== undefined && (input.label || null) !== row.label) changes.label = input.label || null;
    if (input.purpose !== undefined && input.purpose !== row.purpose) changes.purpose = input.purpose;
    if (moving) changes.organizationId = input.organizationId;
    if (Object.keys(changes).length === 0) return withDetails(tx, row);
    // Inactive agents lose a number that leaves their organization (or stops being a voice number).
    const cleared = moving || voiceless ? await clearAgentNumbers(tx, row.organizationId, row.number) : [];
    const updated = await updatePhoneNumberRow(tx, row.id, changes);
    const audit = { fields: Object.keys(changes), purpose: updated.purpose, clearedAgentIds: cleared.map((agent) => agent.id) };
    await recordAudit(tx, {
      organizationId: row.organizationId,
      actorUserId: scope.userId,
      action: moving ? 'phone_number.reassign' : 'phone_number.update',
      entityType: 'phone_number',
      entityId: row.id,
      changes: moving ? { ...audit, toOrganizationId: updated.organizationId } : audit,
    });
    if (moving)
      await recordAudit(tx, {
        organizationId: updated.organizationId,
        actorUserId: scope.userId,
        action: 'phone_number.assign',
        entityType: 'phone_number',
        entityId: row.id,
        changes: { fromOrganizationId: row.organizationId, provider: updated.provider, purpose: updated.purpose },
      });
    return withDetails(tx, updated);
  });
}

export async function releasePhoneNumber(deps: PhoneNumberDeps, scope: RequestScope, id: string): Promise<void> {
  await runScoped(deps.db, scope, async (tx) => {
    const row = await phoneNumberInScope(tx, scope, id, true);
    requireGlobalAdmin(scope);
    const active = (await agentsUsingNumbers(tx, [row])).filter((agent) => agent.active);
    if (active.length) throw inUse(active, 'release');
    const cleared = await clearAgentNumbers(tx, row.organizationId, row.number);
    await deletePhoneNumberRow(tx, row.id);
    await recordAudit(
      tx,
      rowChange(scope.userId, row, 'phone_number.release', 'phone_number', {
        provider: row.provider,
        purpose: row.purpose,
        clearedAgentIds: cleared.map((agent) => agent.id),
      }),
    );
  });
}
