import { sql } from 'drizzle-orm';
import type { ProcessingRun } from '../../../contract/processing-runs';
import type { NoteRereadStatus } from '../../../contract/matching';
import { runScoped, type RequestScope } from '../../auth/scope';
import type { AppDeps } from '../../http/context';
import { targetOrganization } from '../candidates/service';
import { defineSliceRunKind } from '../processing-runs/runner';
import { toRun } from '../processing-runs/service';
import { readNotes } from './note-intake';
import { type NoteReading, countOrganizationNotes, latestRunOfKind, noteSlice, replaceNoteFacts } from './queries-notes';

/**
 * Re-reading every clinical note of an organization (decision 132): after the vocabulary or the note reader
 * changes, each note's facts are replaced by what the reader finds in it today, as a `note_reread` processing run
 * (a slice kind of the run engine: slices of notes in id order, the cursor kept with the run, so a restart goes on
 * after the last slice written). One run at a time per organization: a second start joins it. Re-reading is
 * idempotent: a note's facts are its reading's, however often it is read. Facts from other sources are untouched.
 */

export const NOTE_REREAD_RUN_KIND = 'note_reread';
/** Notes per slice (one read, one write transaction, one step of progress); tests change it. */
export const noteRereadTuning = { sliceSize: 500, evaluateChunk: 100 };
const LABEL = 'Re-reading clinical notes';

type Cursor = { id: string };
type NoteRow = { id: string; candidateId: string; body: string; writtenAt: Date | null };
type RunOptions = { cursor?: Cursor | null; facts?: number };

/** Starts re-reading the organization's notes, or answers the run already going. */
export async function startNoteReread(deps: AppDeps, scope: RequestScope, organizationId: string | undefined): Promise<ProcessingRun> {
  const orgId = targetOrganization(scope, organizationId);
  const run = await runScoped(deps.db, scope, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`note_reread:${orgId}`}))`);
    const latest = await latestRunOfKind(tx, orgId, NOTE_REREAD_RUN_KIND);
    if (latest && (latest.status === 'pending' || latest.status === 'running')) return latest;
    const total = await countOrganizationNotes(tx, orgId);
    const { run: created } = await noteRereadRuns.create(tx, {
      organizationId: orgId,
      createdByUserId: scope.userId,
      label: LABEL,
      total,
      options: { cursor: null, facts: 0 },
      audit: () => ({ notes: total }),
    });
    return noteRereadRuns.begin(tx, created.id);
  });
  await noteRereadRuns.trigger(deps, run.id, run.organizationId);
  return toRun(run);
}

/** How many notes the organization has and its latest re-reading run (the screen's progress). */
export async function noteRereadStatus(deps: AppDeps, scope: RequestScope, organizationId: string | undefined): Promise<NoteRereadStatus> {
  const orgId = targetOrganization(scope, organizationId);
  return runScoped(deps.db, scope, async (tx) => {
    const latest = await latestRunOfKind(tx, orgId, NOTE_REREAD_RUN_KIND);
    return { notes: await countOrganizationNotes(tx, orgId), latest: latest ? toRun(latest) : null };
  });
}

/** The note_reread run kind (jobs/register.ts resumes it at start-up). */
export const noteRereadRuns = defineSliceRunKind<AppDeps, { today: Date }, NoteRow, NoteReading[], Cursor>({
  kind: NOTE_REREAD_RUN_KIND,
  messages: {
    failed: 'Re-reading stopped on an unexpected error; start it again (notes already read keep their new facts)',
    interrupted: 'Re-reading was interrupted while starting; start it again',
  },
  completion: (run) => ({ kind: NOTE_REREAD_RUN_KIND, notes: run.processed, facts: (run.options as RunOptions).facts ?? 0 }),
  prepare: async () => ({ today: new Date() }),
  readSlice: (tx, { run }, _setup, after) => noteSlice(tx, run.organizationId, after?.id ?? null, noteRereadTuning.sliceSize),
  cursorAfter: (row) => ({ id: row.id }),
  async processSlice(_ctx, setup, rows) {
    const readings: NoteReading[] = [];
    // A slice's reading takes a few hundred milliseconds: the event loop is let go between chunks.
    for (let start = 0; start < rows.length; start += noteRereadTuning.evaluateChunk) {
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      readings.push(...readNotes(rows.slice(start, start + noteRereadTuning.evaluateChunk), setup.today));
    }
    return readings;
  },
  async writeSlice(tx, { run: { organizationId } }, { rows, result, run }) {
    const facts = await replaceNoteFacts(tx, organizationId, result);
    return { counters: { succeeded: rows.length }, options: { facts: ((run.options as RunOptions).facts ?? 0) + facts } };
  },
});
/** For tests: resolves when the run's processing in this process has settled. */
export const whenNoteRereadSettled = noteRereadRuns.whenSettled;
