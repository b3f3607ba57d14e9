import type { ContactEvent } from '../../../contract/candidates';
import { canReach, runScoped, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import { notFound } from '../../http/errors';
import { findCandidate } from '../candidates/service';
import { listContactEvents, type ContactEventRow } from './queries';

export function toContactEvent(row: ContactEventRow): ContactEvent {
  return {
    id: row.id,
    candidateId: row.candidateId,
    kind: row.kind,
    summary: row.summary,
    details: row.details ?? null,
    referenceId: row.referenceId,
    actor: { userId: row.actorUserId, label: row.actorLabel ?? (row.actorUserId ? 'Staff' : 'System') },
    occurredAt: row.occurredAt.toISOString(),
  };
}

/** One candidate's time-ordered feed of touches; a candidate outside the scope answers 404. */
export async function contactHistory(db: Database, scope: RequestScope, query: { candidateId: string; order: 'asc' | 'desc'; kind?: string; limit: number }) {
  return runScoped(db, scope, async (tx) => {
    const row = await findCandidate(tx, query.candidateId);
    if (!row || !canReach(scope, row.organizationId)) throw notFound('Candidate not found');
    const events = await listContactEvents(tx, row.id, query);
    return { candidateId: row.id, events: events.map(toContactEvent) };
  });
}
