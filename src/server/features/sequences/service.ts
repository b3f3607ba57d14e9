import type { z } from '@hono/zod-openapi';
import type {
  CreateSequenceInput,
  Enrollment,
  ListSequencesQuerySchema,
  Sequence,
  SequenceStep,
  TimelineEntry,
  UpdateSequenceInput,
} from '../../../contract/sequences';
import { canReach, runScoped, selectOrganizations, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import type { Transaction } from '../../db/scoped';
import { badRequest, notFound } from '../../http/errors';
import { recordAudit, rowChange } from '../../audit';
import { findTrialInOrganization, userName, targetOrganization } from '../candidates/service';
import { zoneOrDefault } from '../../calling-hours';
import { endEnrollments } from './exits';
import {
  enrollmentCounts,
  findSequence,
  findVersion,
  insertSequence,
  insertVersion,
  listSequenceRows,
  liveEnrollmentsOfSequence,
  trialTitles,
  updateSequenceRow,
  updateVersionSteps,
  versionInUse,
  type EnrollmentListRow,
  type SequenceRow,
  type StepRunRow,
} from './queries';
import { isUuid } from '../../../contract/ids';

/**
 * Staff-facing sequences (decision 026): one sequence and its enrollments as the API shows them, and the sequences
 * themselves, with versions. Enrolling and an enrollment's actions are in enrollments.ts, a version's step
 * statistics in statistics.ts, a step message's preview in preview.ts. The mappings and loaders below are exported
 * for those files; other features use the sequences' functions only (onboarding's `createSequence`).
 */

function toSequence(
  row: SequenceRow,
  steps: SequenceStep[],
  titles: Map<string, string>,
  counts?: { live: number; total: number; converted: number },
): Sequence {
  return {
    id: row.id,
    organizationId: row.organizationId,
    trialId: row.trialId,
    trialTitle: row.trialId ? (titles.get(row.trialId) ?? null) : null,
    name: row.name,
    description: row.description,
    status: row.status,
    triggers: row.triggers,
    exitOnReply: row.exitOnReply,
    currentVersion: row.currentVersion,
    steps,
    activeEnrollments: counts?.live ?? 0,
    totalEnrollments: counts?.total ?? 0,
    conversion: counts && counts.total > 0 ? counts.converted / counts.total : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toEnrollment(row: EnrollmentListRow, steps: SequenceStep[] | undefined): Enrollment {
  const step = row.stepIndex !== null && steps ? steps[row.stepIndex] : undefined;
  return {
    id: row.id,
    organizationId: row.organizationId,
    sequenceId: row.sequenceId,
    sequenceVersion: row.version,
    candidateId: row.candidateId,
    candidateName: `${row.firstName} ${row.lastName}`.trim(),
    timeZone: zoneOrDefault(row.timeZone),
    status: row.status,
    exitReason: row.exitReason,
    source: row.source,
    currentStep: row.stepIndex,
    currentStepKey: step?.key ?? null,
    currentStepType: step?.type ?? null,
    nextRunAt: row.status === 'active' && row.nextRunAt ? row.nextRunAt.toISOString() : null,
    enrolledAt: row.enrolledAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
  };
}

export function toTimelineEntry(row: StepRunRow): TimelineEntry {
  return {
    id: row.id,
    kind: row.kind,
    stepIndex: row.stepIndex,
    stepKey: row.stepKey,
    stepType: row.stepType,
    summary: row.summary,
    details: row.details,
    at: row.createdAt.toISOString(),
  };
}

export async function loadSequence(tx: Transaction, scope: RequestScope, id: string, forUpdate = false): Promise<SequenceRow> {
  const row = isUuid(id) ? await findSequence(tx, id, forUpdate) : undefined;
  if (!row || !canReach(scope, row.organizationId)) throw notFound('Sequence not found');
  return row;
}

export async function stepsOf(tx: Transaction, row: SequenceRow, version = row.currentVersion): Promise<SequenceStep[]> {
  return (await findVersion(tx, row.id, version))?.steps ?? [];
}

async function present(tx: Transaction, row: SequenceRow): Promise<Sequence> {
  const [titles, counts] = [await trialTitles(tx, row.trialId ? [row.trialId] : []), await enrollmentCounts(tx, [row.id])];
  return toSequence(row, await stepsOf(tx, row), titles, counts.get(row.id));
}

export async function checkTrial(tx: Transaction, trialId: string | null | undefined, organizationId: string): Promise<void> {
  if (trialId && !(await findTrialInOrganization(tx, trialId, organizationId)))
    throw badRequest('trialId: No such trial in the organization', [{ path: 'trialId', message: 'No such trial in the organization' }]);
}

export const actorOf = async (tx: Transaction, scope: RequestScope) => ({ userId: scope.userId, label: (await userName(tx, scope.userId)) ?? 'Staff' });

// ---- sequences ----

export async function listSequences(db: Database, scope: RequestScope, query: z.infer<typeof ListSequencesQuerySchema>) {
  const organizationIds = selectOrganizations(scope, query.organizationId, query.organizationIds);
  return runScoped(db, scope, async (tx) => {
    const rows = await listSequenceRows(tx, {
      organizationIds,
      trialId: query.trialId,
      status: query.status === 'all' ? undefined : (query.status ?? undefined),
    });
    const titles = await trialTitles(tx, [...new Set(rows.map((row) => row.trialId).filter((id): id is string => Boolean(id)))]);
    const counts = await enrollmentCounts(
      tx,
      rows.map((row) => row.id),
    );
    const sequences: Sequence[] = [];
    for (const row of rows) sequences.push(toSequence(row, await stepsOf(tx, row), titles, counts.get(row.id)));
    return { sequences, total: sequences.length };
  });
}

export async function createSequence(db: Database, scope: RequestScope, input: CreateSequenceInput): Promise<Sequence> {
  const organizationId = targetOrganization(scope, input.organizationId);
  return runScoped(db, scope, async (tx) => {
    await checkTrial(tx, input.trialId, organizationId);
    const row = await insertSequence(tx, {
      organizationId,
      trialId: input.trialId ?? null,
      name: input.name,
      description: input.description ?? null,
      triggers: input.triggers,
      exitOnReply: input.exitOnReply,
      createdByUserId: scope.userId,
    });
    await insertVersion(tx, { organizationId, sequenceId: row.id, version: 1, steps: input.steps, createdByUserId: scope.userId });
    await recordAudit(tx, {
      organizationId,
      actorUserId: scope.userId,
      action: 'sequence.create',
      entityType: 'sequence',
      entityId: row.id,
      changes: { steps: input.steps.length, triggers: input.triggers, trialId: input.trialId ?? null },
    });
    return present(tx, row);
  });
}

export async function getSequence(db: Database, scope: RequestScope, id: string): Promise<Sequence> {
  return runScoped(db, scope, async (tx) => present(tx, await loadSequence(tx, scope, id)));
}

/**
 * Saves changes. New steps on a version someone was ever enrolled on make a new version (they finish on
 * theirs); otherwise the current version is edited in place. Archiving ends every live enrollment.
 */
export async function updateSequence(
  db: Database,
  scope: RequestScope,
  id: string,
  input: UpdateSequenceInput,
  now = new Date(),
): Promise<{ sequence: Sequence; newVersion: boolean }> {
  return runScoped(db, scope, async (tx) => {
    const row = await loadSequence(tx, scope, id, true);
    if (input.trialId !== undefined) await checkTrial(tx, input.trialId, row.organizationId);
    let newVersion = false;
    let currentVersion = row.currentVersion;
    if (input.steps) {
      const current = await findVersion(tx, row.id, row.currentVersion);
      const changed = JSON.stringify(current?.steps ?? []) !== JSON.stringify(input.steps);
      if (changed && (await versionInUse(tx, row.id, row.currentVersion))) {
        currentVersion += 1;
        newVersion = true;
        await insertVersion(tx, {
          organizationId: row.organizationId,
          sequenceId: row.id,
          version: currentVersion,
          steps: input.steps,
          createdByUserId: scope.userId,
        });
      } else if (changed && current) {
        await updateVersionSteps(tx, current.id, input.steps);
      }
    }
    const updated = await updateSequenceRow(tx, row.id, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.trialId !== undefined ? { trialId: input.trialId } : {}),
      ...(input.triggers !== undefined ? { triggers: input.triggers } : {}),
      ...(input.exitOnReply !== undefined ? { exitOnReply: input.exitOnReply } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
      currentVersion,
    });
    if (input.status === 'archived' && row.status !== 'archived')
      await endEnrollments(tx, await liveEnrollmentsOfSequence(tx, row.id), 'sequence_archived', now, await actorOf(tx, scope));
    await recordAudit(
      tx,
      rowChange(scope.userId, row, 'sequence.update', 'sequence', { fields: Object.keys(input), ...(newVersion ? { version: currentVersion } : {}) }),
    );
    return { sequence: await present(tx, updated), newVersion };
  });
}

export async function archiveSequence(db: Database, scope: RequestScope, id: string): Promise<Sequence> {
  return (await updateSequence(db, scope, id, { status: 'archived' })).sequence;
}
