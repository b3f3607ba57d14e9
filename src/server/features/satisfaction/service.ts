import type { SatisfactionChannel, SatisfactionResponse } from '../../../contract/satisfaction';
import { recordActivity } from '../../activity';
import { recordAudit } from '../../audit';
import { runScoped, selectOrganizations, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import type { Transaction } from '../../db/scoped';
import { insertResponseOnce, listComments, type SatisfactionRow } from './queries';

/**
 * Patient satisfaction (decision 067): the chat, call and SMS paths each ask for a 1-5 rating in their own way
 * and hand it here, in their transaction. One rating per chat, call or booking.
 */
export interface SatisfactionInput {
  organizationId: string;
  channel: SatisfactionChannel;
  referenceId: string;
  rating: number;
  comment?: string | null;
  candidateId?: string | null;
  trialId?: string | null;
  agentId?: string | null;
}

/** A whole number 1..5 from what a person typed or said ("4", "4/5", "five", "cinco"), or null. */
export function ratingFrom(value: unknown): number | null {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 1 && value <= 5 ? value : null;
  if (typeof value !== 'string') return null;
  const text = value.trim().toLowerCase();
  const digit = /^\s*([1-5])(?:\s*(?:\/|out of|de)\s*5)?\b/.exec(text);
  if (digit) return Number(digit[1]);
  const words: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, uno: 1, una: 1, dos: 2, tres: 3, cuatro: 4, cinco: 5 };
  const word = /^([a-z]+)\b/.exec(text)?.[1];
  return word && words[word] ? words[word] : null;
}

/** Stores the rating and its `satisfaction_rated` event; false when the thing was already rated or the rating is not 1..5. */
export async function recordSatisfaction(tx: Transaction, input: SatisfactionInput): Promise<boolean> {
  if (!Number.isInteger(input.rating) || input.rating < 1 || input.rating > 5) return false;
  const comment = input.comment?.trim() ? input.comment.trim().slice(0, 1000) : null;
  const row = await insertResponseOnce(tx, {
    organizationId: input.organizationId,
    candidateId: input.candidateId ?? null,
    trialId: input.trialId ?? null,
    channel: input.channel,
    agentId: input.agentId ?? null,
    referenceId: input.referenceId,
    rating: input.rating,
    comment,
  });
  if (!row) return false;
  await recordActivity(tx, [
    {
      organizationId: input.organizationId,
      trialId: input.trialId,
      candidateId: input.candidateId,
      kind: 'satisfaction_rated',
      source: input.channel,
      label: String(input.rating),
      value: input.rating,
      agentId: input.agentId,
      referenceId: row.id,
    },
  ]);
  // The comment is the patient's words: the audit says one was given, never what.
  await recordAudit(tx, {
    organizationId: input.organizationId,
    actorUserId: null,
    action: 'satisfaction.rate',
    entityType: 'satisfaction_response',
    entityId: row.id,
    changes: { channel: input.channel, rating: input.rating, comment: comment !== null, candidateId: input.candidateId ?? null },
  });
  return true;
}

const toResponse = (row: SatisfactionRow): SatisfactionResponse => ({
  id: row.id,
  organizationId: row.organizationId,
  channel: row.channel,
  agentId: row.agentId,
  rating: row.rating,
  comment: row.comment,
  createdAt: row.createdAt.toISOString(),
});

/** The newest ratings with a comment in the scope's organizations (the dashboard's patient-satisfaction tab). */
export async function listSatisfactionComments(
  db: Database,
  scope: RequestScope,
  filter: { organizationIds?: string[]; from?: Date; to?: Date; source?: string; limit?: number },
): Promise<{ items: SatisfactionResponse[] }> {
  const organizationIds = selectOrganizations(scope, filter.organizationIds);
  const channel = filter.source === 'chat' || filter.source === 'call' || filter.source === 'sms' ? filter.source : undefined;
  // Another source (import, manual) has no ratings: nothing, rather than every channel.
  if (filter.source && !channel) return { items: [] };
  const rows = await runScoped(db, scope, (tx) =>
    listComments(tx, { organizationIds, from: filter.from, to: filter.to, channel, limit: Math.min(Math.max(filter.limit ?? 20, 1), 100) }),
  );
  return { items: rows.map(toResponse) };
}
