import type { ContactEventKind } from '../../../contract/candidates';
import type { PrescreenSourceType } from '../../../contract/prescreen';
import { canReach, runScoped, type RequestScope } from '../../auth/scope';
import { notFound } from '../../http/errors';
import type { Database } from '../../db/client';
import { runAsOrganization, type Transaction } from '../../db/scoped';
import { findCandidate, userName, type CandidateRow, type NewContactEvent } from '../candidates/service';

/** Who acts, and where: shared by prescreen results (service.ts) and bookings (bookings.ts). */

/** Who a change is attributed to: a staff member, or an agent (voice, chat) with no user. */
export interface PrescreenActor {
  userId: string | null;
  label: string;
}

/** Which organizations a call may touch: a request scope, or one organization (agents, webhooks). */
export type PrescreenTarget = RequestScope | { organizationId: string };

export const reachableIds = (target: PrescreenTarget) => ('organizationId' in target ? [target.organizationId] : target.reachableOrganizationIds);

export function runIn<T>(db: Database, target: PrescreenTarget, work: (tx: Transaction) => Promise<T>): Promise<T> {
  if ('organizationId' in target) return runAsOrganization(db, target.organizationId, work);
  return runScoped(db, target, work);
}

export async function staffActor(tx: Transaction, scope: RequestScope): Promise<PrescreenActor> {
  return { userId: scope.userId, label: (await userName(tx, scope.userId)) ?? 'Staff' };
}

export const AGENT_LABEL: Record<PrescreenSourceType, string> = { call: 'Voice agent', chat: 'Chat agent', manual: 'Staff' };

export const event = (
  row: { id: string; organizationId: string },
  actor: PrescreenActor,
  kind: ContactEventKind,
  values: Omit<NewContactEvent, 'organizationId' | 'candidateId' | 'kind'>,
): NewContactEvent => ({
  organizationId: row.organizationId,
  candidateId: row.id,
  kind,
  actorUserId: actor.userId,
  actorLabel: actor.label,
  ...values,
});

/** A candidate in the scope's reach, or 404. */
export async function loadCandidate(tx: Transaction, scope: RequestScope, candidateId: string, forUpdate = false): Promise<CandidateRow> {
  const row = await findCandidate(tx, candidateId, forUpdate);
  if (!row || !canReach(scope, row.organizationId)) throw notFound('Candidate not found');
  return row;
}
