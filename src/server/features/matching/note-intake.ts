import { randomUUID } from 'node:crypto';
import type { Transaction } from '../../db/scoped';
import type { FunnelListener, ReceivedNote } from '../../funnel-signals';
import { extractNoteFacts } from './note-extractor';
import { type NoteReading, insertReceivedNotes, replaceNoteFacts } from './queries-notes';

/**
 * Notes read in bulk (decision 132): an import's notes column and the re-reading run read notes with the same
 * reader, the same spans and quotes, as a note typed on a candidate's page (`facts.ts` `addClinicalNote`), one
 * statement per step however many notes. The caller's transaction holds them with the change that brought them.
 */

/**
 * Each note's facts (pure). "6 weeks of pain" is read from the day the note was written (`writtenAt`), so a note
 * re-read months later keeps the same start; `today` for a note without its day.
 */
export function readNotes(notes: ReadonlyArray<{ id: string; candidateId: string; body: string; writtenAt?: Date | null }>, today = new Date()): NoteReading[] {
  return notes.map((note) => ({
    noteId: note.id,
    candidateId: note.candidateId,
    facts: extractNoteFacts(note.body, { noteId: note.id, today: note.writtenAt ?? today }),
  }));
}

/** A note to store with its id (the demo's are deterministic) and, when it is older than now, its date. */
export type NoteToStore = { id: string; candidateId: string; body: string; authorUserId?: string | null; createdAt?: Date };

/** Stores notes (a note already on the candidate word for word is skipped) and reads them into facts. */
export async function storeClinicalNotes(tx: Transaction, organizationId: string, notes: readonly NoteToStore[]): Promise<{ notes: number; facts: number }> {
  const stored = await insertReceivedNotes(tx, organizationId, notes);
  const facts = await replaceNoteFacts(tx, organizationId, readNotes(stored));
  return { notes: stored.length, facts };
}

/** Notes that came with people (an import's notes column). */
export const storeReceivedNotes = (tx: Transaction, organizationId: string, notes: ReceivedNote[]) =>
  storeClinicalNotes(
    tx,
    organizationId,
    notes.map((note) => ({ id: randomUUID(), ...note })),
  );

/** The matching feature's part in funnel-signals.ts: it keeps notes and reads them (wiring.ts attaches it). */
export const clinicalNoteListener: FunnelListener = { notesReceived: storeReceivedNotes };
