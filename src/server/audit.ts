import type { Executor } from './db/scoped';
import { auditLog } from './db/schema';
import { insertInBatches } from './db/batched-insert';

/** Who did something, as contact history names them: a member of staff, or the system on someone's behalf ("Sequence", "Callback", "Bulk prescreen"). */
export interface Actor {
  userId: string | null;
  label: string;
}

export interface AuditEntry {
  organizationId: string | null;
  actorUserId: string | null;
  action: string;
  entityType: string;
  entityId: string;
  /** Field names and safe values only; never personal data. */
  changes?: Record<string, unknown>;
}

/** The entry of a change to one row of an organization: the row gives where and which, the actor who. */
export function rowChange(
  actorUserId: string | null,
  row: { id: string; organizationId: string },
  action: string,
  entityType: string,
  changes?: Record<string, unknown>,
): AuditEntry {
  return { organizationId: row.organizationId, actorUserId, action, entityType, entityId: row.id, ...(changes ? { changes } : {}) };
}

/** Records one change; call it with the same transaction as the change itself. */
export async function recordAudit(executor: Executor, entry: AuditEntry): Promise<void> {
  await recordAudits(executor, [entry]);
}

/** Records many changes in one statement (bulk work: a burst of sequence messages). */
export async function recordAudits(executor: Executor, entries: AuditEntry[]): Promise<void> {
  if (!entries.length) return;
  const rows = entries.map((entry) => ({
    organizationId: entry.organizationId,
    actorUserId: entry.actorUserId,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId,
    changes: entry.changes ?? null,
  }));
  await insertInBatches(auditLog, rows, (batch) => executor.insert(auditLog).values(batch));
}
